/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_HOSTMAPS_H
#define AOTPERF_PROFILE_HOSTMAPS_H
/*
 * Inside profile/: where host code was mapped, over time, from the
 * recording's address-space records (attr's on_map hook): every process's
 * executable mappings (a fork inherits what its parent had mapped before
 * it, an exec drops them, a newer mapping wins where two overlap), the
 * kernel's and its modules'. One timeline for everything that names host
 * frames: the call stacks (stacks_read.c), their libdw unwinder
 * (hostunwind.h) and the samples outside wasm (host.h).
 *
 * Each mapping names its DSO as perf does: the file's path, "[vdso]" and
 * the like as recorded, "[JIT] tid PID" for anonymous code (a core's page
 * tail, another engine's code), "[kernel.kallsyms]" for the kernel and
 * "[name]" for a module. Memory follows the mapping records.
 */
#include <stddef.h>
#include <stdint.h>
#include "../attr/attr.h"

#define HOSTMAPS_KERNEL_PID UINT32_MAX	/* perf's pid -1: the kernel and its modules */

struct hostmap {
	uint64_t start, end, pgoff;
	uint64_t time;		/* the record's time key */
	uint32_t dso;		/* hostmaps__dso() */
	uint32_t maj, min;	/* the mapped file's device and inode (MMAP2) */
	uint64_t ino;		/* 0: not known */
};

struct hostmaps;

struct hostmaps *hostmaps__new(void);
void hostmaps__delete(struct hostmaps *h);
/* Forget every mapping (a read that starts over); DSO names and indexes stay. */
void hostmaps__reset(struct hostmaps *h);

/* One address-space record (attr_map_fn). 0, or -1 when out of memory. */
int hostmaps__add(struct hostmaps *h, const struct attr_map_event *ev);

/*
 * The mapping holding IP in pid (kernel: the kernel's) at time key t: the
 * newest one made at or before t, in pid or, before pid's first exec, in
 * the parent it forked from. NULL when none; valid until the next add.
 */
const struct hostmap *hostmaps__find(const struct hostmaps *h, uint32_t pid, int kernel,
				     uint64_t ip, uint64_t t);

/* A DSO's name as perf gives it (above); valid as long as h. */
const char *hostmaps__dso(const struct hostmaps *h, uint32_t dso);
uint32_t hostmaps__ndsos(const struct hostmaps *h);
/* Is the DSO a file (a path) that can be read? */
int hostmaps__dso_is_file(const struct hostmaps *h, uint32_t dso);

/* Changes with every mapping added or forgotten: answers cached before may differ. */
uint64_t hostmaps__generation(const struct hostmaps *h);

#endif
