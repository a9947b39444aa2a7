/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_HOST_H
#define AOTPERF_PROFILE_HOST_H
/*
 * The samples no core holds (the runtime, libc, the kernel, a core's page
 * past its text), counted per (DSO, ip) and named as perf names them:
 *
 *   dso   the DSO of the mapping that held the ip in that process at that
 *         time (profile/hostmaps.h: a path, "[vdso]", "[JIT] tid PID",
 *         "[kernel.kallsyms]", a module "[name]"); "[kernel.kallsyms]" for
 *         a kernel ip no record covers, "[unknown]" for a user one or none.
 *   sym   the function symbol holding the ip (profile/hostsyms.h), NULL
 *         for perf's "[unknown]".
 *
 * Filled by profile__read() when profile_opts.host is set, from the same
 * mapping timeline and symbols the call stacks use (profile/read.c).
 * Memory follows the distinct (dso, ip) pairs, not the samples.
 */
#include <stdint.h>
#include <stddef.h>
#include "../util/err.h"

struct profile_host_frame {
	uint32_t dso;		/* index into dsos[] */
	int kernel;		/* a kernel-mode sample */
	uint64_t ip;		/* 0: the sample had none */
	uint64_t map_start, map_end, pgoff;	/* its mapping; all 0 when none */
	const char *sym;	/* NULL: [unknown]; owned by the table */
	uint64_t samples;
};

struct host_slot;

struct profile_host {
	char **dsos;		/* names, each once */
	uint32_t ndsos;
	const char **dso_from;	/* the pointer each was copied from (a quick match) */
	struct profile_host_frame *frames;	/* in the order first seen */
	size_t nframes;
	uint64_t samples;	/* all of them: the sum over frames */
	/* building */
	struct host_slot *slots;	/* (dso, ip) -> frame, open addressing */
	size_t nslots;
	size_t cap_dsos, cap_dso_from, cap_frames;
	char **strs;		/* dso and symbol strings, owned */
	size_t nstrs, cap_strs;
};

/* A frame's mapping as the timeline had it. */
struct profile_host_map {
	uint64_t start, end, pgoff;
};

/*
 * One sample in (dso, ip), kernel or not; map and sym describe the frame
 * the first time it is seen (map NULL: none; sym NULL: [unknown]; both are
 * copied). The frame's index, or -1 when out of memory.
 */
int64_t profile_host__add(struct profile_host *h, const char *dso, int kernel, uint64_t ip,
			  const struct profile_host_map *map, const char *sym);
/* Forget every sample (a read that starts over). */
void profile_host__reset(struct profile_host *h);
void profile_host__exit(struct profile_host *h);

#endif
