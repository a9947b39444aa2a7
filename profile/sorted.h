/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_SORTED_H
#define AOTPERF_PROFILE_SORTED_H
/*
 * The samples by perf report --sort's keys (aotperf report -s): one row
 * per distinct (place, pid, tid, cpu, command) as read, place being a
 * core's local function or a frame of p->host. Filled by read.c's sample
 * hook when profile_opts.sorted asks; render/sorted.c merges the rows by
 * the keys asked and names them.
 */
#include <stddef.h>
#include <stdint.h>
#include "../perfdata/perfdata.h"
#include "u64map.h"

enum profile_sort_key {
	PROFILE_SORT_FUNCTION, PROFILE_SORT_DSO, PROFILE_SORT_COMM, PROFILE_SORT_PID,
	PROFILE_SORT_CPU,
};

struct sorted_row {
	int32_t core;		/* -1: a host frame */
	uint32_t func;		/* core's local function */
	int64_t frame;		/* p->host frame; -1: none (no host view) */
	uint32_t pid, tid, cpu;	/* cpu: UINT32_MAX when not recorded */
	uint32_t comm;		/* index into comms */
	uint64_t samples;
};

struct profile_sorted {
	struct sorted_row *rows;
	size_t n, cap;
	char (*comms)[16];	/* perf's TASK_COMM_LEN names, each once */
	size_t ncomms, cap_comms;
	struct u64map ix;	/* tuple hash -> row */
};

/* One sample; comm: the thread's command ("" when unknown). 0, or -1 when out of memory. */
int profile_sorted__add(struct profile_sorted *s, int core, uint32_t func, int64_t frame,
			const struct pd_sample_id *sid, const char *comm);
/* Forget every sample (the one pass starts over). */
void profile_sorted__reset(struct profile_sorted *s);
void profile_sorted__delete(struct profile_sorted *s);

#endif
