/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ATTR_REGIONS_H
#define AOTPERF_ATTR_REGIONS_H
/*
 * Code regions of each process found from samples alone, for a reader that
 * sees no MMAP records (the dlfilter: perf hands it samples only). A region
 * is found from its first sample: probe the addresses around the ip page by
 * page (perf's resolve_address(), wrapped as rg_probe_fn) until they leave
 * the map. The region's length then picks the core, as attr.h's mapping
 * rule does from the MMAP records: the j-th region of a length in a process
 * goes to core (j mod K) of the K cores of that page-rounded length, in the
 * order the cores were given, except that regions are ordered by their
 * first sample instead of by their record time. No perf types here.
 */
#include <stdint.h>
#include "sizegroups.h"

struct attr_core;

#define RG_PAGE 4096ull
/* A probe walk stops here (1 GiB each way): no core is that large. */
#define RG_MAX_PAGES (1u << 18)

struct rg_region {
	uint64_t start, end;	/* [start, end) */
	int core;		/* -1: an executable anonymous map holding no core */
	int split;		/* cut out of a larger (kernel-merged) map */
};

struct rg_proc {
	int32_t pid;
	struct rg_region *r;
	uint32_t n;
	size_t cap;
	uint32_t last;		/* index of the last hit */
	uint32_t *len_seen;	/* per length group: regions met so far */
};

struct rg_table {
	struct rg_proc *procs;	/* sorted by pid */
	uint32_t nprocs;
	size_t cap;
	uint32_t last;		/* index of the last process hit */
	struct size_group *groups;
	uint32_t ngroups;
	const struct attr_core *cores;	/* mod, base_override (the pin); borrowed */
	uint32_t ncores;
	uint32_t *core_regions;	/* per core: regions given to it */
	uint64_t *core_first;	/* per core: start of its first region */
	uint64_t *core_first_len; /* and its length */
	uint64_t probes;	/* resolve_address() calls, for the summary */
	uint32_t nsplit;	/* regions cut out of merged maps */
	uint32_t ninherited;	/* regions taken from another process (fork) */
};

/* 1 when addr lies in the same kind of map as the sample's ip. */
typedef int (*rg_probe_fn)(void *ctx, uint64_t addr);

/* The cores regions may hold (their text sizes and pins; attr/attr.h). */
int rg__init(struct rg_table *t, const struct attr_core *cores, uint32_t ncores);
void rg__exit(struct rg_table *t);

/* The known region of pid holding ip: 1 and *out, or 0. */
int rg__find(struct rg_table *t, int32_t pid, uint64_t ip, struct rg_region *out);
/*
 * Probe the map holding ip and record the region(s) it yields. 1 and *out
 * for the region holding ip, 0 when ip is in none, -1 on allocation failure.
 */
int rg__discover(struct rg_table *t, int32_t pid, uint64_t ip, rg_probe_fn probe, void *ctx,
		 struct rg_region *out);
/* ip of pid is no longer in an anonymous map: forget the region holding it. */
void rg__forget(struct rg_table *t, int32_t pid, uint64_t ip);

#endif
