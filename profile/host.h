/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_HOST_H
#define AOTPERF_PROFILE_HOST_H
/*
 * The samples no core holds (the runtime, libc, the kernel), named as perf
 * names where they landed, from what perf.data says:
 *
 *   dso   user space: the file of the executable mapping (MMAP/MMAP2) that
 *         held the ip in that process at that time (forks inherit their
 *         parent's mappings, an exec drops them), "[vdso]" and the like as
 *         perf records them, "[JIT] tid PID" for an anonymous one that is
 *         no core; kernel: "[kernel.kallsyms]", a module as "[name]";
 *         "[unknown]" when no mapping record covers the ip.
 *   sym   the function symbol of that file that holds the ip (its symbol
 *         table, else the dynamic one: perf's choice) when the file is
 *         readable here, its debug file, the vdso, /proc/kallsyms
 *         (profile_host__symbols, profile/hostsyms.c), spelled as the
 *         symbol table does (perf demangles C++ and Rust names; aotperf
 *         does not). NULL: perf's "[unknown]".
 *
 * Filled through attr's on_map/on_other hooks (attr/attr.h) by
 * profile__read() when profile_opts.host is set. Memory follows the
 * mapping records and the distinct (dso, ip) pairs, not the samples.
 */
#include <stdint.h>
#include <stddef.h>
#include "../perfdata/perfdata.h"
#include "../util/err.h"

struct profile_host_frame {
	uint32_t dso;		/* index into dsos[] */
	int kernel;		/* a kernel-mode sample */
	uint64_t ip;		/* 0: the sample had none */
	uint64_t map_start, map_end, pgoff;	/* its mapping; all 0 when none */
	uint64_t ino;		/* the mapped file's device and inode (MMAP2); ino 0: not known */
	uint32_t dev_major, dev_minor;
	const char *sym;	/* NULL: [unknown]; points into syms storage */
	uint64_t samples;
};

struct host_proc;
struct host_slot;

struct profile_host {
	char **dsos;		/* names, each once */
	uint32_t ndsos;
	struct profile_host_frame *frames;	/* after finish: most samples first */
	size_t nframes;
	uint64_t samples;	/* all of them: the sum over frames */
	uint64_t lost;		/* not counted for want of memory */
	/* building */
	struct host_proc *procs;	/* by pid, sorted */
	uint32_t nprocs;
	struct host_slot *slots;	/* (dso, ip) -> frame, open addressing */
	size_t nslots;
	size_t cap_dsos, cap_frames, cap_procs;
	uint32_t unknown_dso, kernel_dso;	/* their index + 1, once interned */
	char **symstore;	/* symbol strings, owned */
	size_t nsymstore, cap_symstore;
};

/* attr_opts.on_map: one executable mapping, exec or fork record. 0, or -1 out of memory. */
int profile_host__map(void *host, const struct pd_event *ev, uint64_t t);
/* attr_opts.on_other: one sample no core holds. */
void profile_host__sample(void *host, const struct pd_sample *s, uint64_t t);
/*
 * After the read: frames sorted by samples (then dso, ip), the timeline
 * freed. 0, or -1 with err when memory ran out while counting.
 */
int profile_host__finish(struct profile_host *h, struct ap_err *err);
/*
 * Look up the symbols of every frame in a user-space file that exists
 * here (profile/hostsyms.c, libelf). A file that cannot be read leaves its
 * frames [unknown]. 0, or -1 with err when out of memory.
 */
int profile_host__symbols(struct profile_host *h, struct ap_err *err);
void profile_host__exit(struct profile_host *h);

#endif
