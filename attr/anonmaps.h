/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ATTR_ANONMAPS_H
#define AOTPERF_ATTR_ANONMAPS_H
/*
 * What a recording holds when attribution finds nothing to attribute: its
 * executable //anon mappings (where a runtime puts compiled code) with the
 * samples inside each, and the samples of each process. The front ends
 * list them when no mapping has a core's size (the wrong recording, or the
 * wrong core?) and when a --pid has no samples. Two passes of the
 * session, after attribution's, on the failure path only: perf writes
 * each CPU's buffer in rounds, so a sample can come before the mapping it
 * lies in (another CPU's buffer); the mappings are all known first.
 */
#include <stddef.h>
#include <stdint.h>
#include "../session/session.h"
#include "../util/err.h"

struct anon_map {
	uint32_t pid;
	char comm[16];		/* the process's command ("" when never named) */
	uint64_t start, len;
	uint64_t time;		/* when it was first mapped (0: no time recorded) */
	uint64_t samples;	/* samples of its process whose ip lies in it */
};

struct anon_pid {
	uint32_t pid;
	char comm[16];
	uint64_t samples;
};

struct anon_census {
	struct anon_map *maps;	/* each (pid, start, len) once; most samples first */
	size_t nmaps, cap_maps;
	struct anon_pid *pids;	/* processes with samples; most samples first */
	size_t npids, cap_pids;
	uint64_t samples;
};

/* Read s again (a stream cannot be: -1 with err). 0, or -1 with err. */
int anon_census__read(struct session *s, struct anon_census *c, struct ap_err *err);
void anon_census__exit(struct anon_census *c);

#endif
