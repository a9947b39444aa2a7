/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ATTR_MAPTABLE_H
#define AOTPERF_ATTR_MAPTABLE_H
/*
 * Per-process timelines of executable mappings, and the lookup
 * "which core holds this ip of this pid at this time". Internal to attr/.
 */
#include <stdint.h>
#include "attr.h"
#include "sizegroups.h"

/* An executable mapping kept because it is a core or may hide one. */
struct mt_map {
	uint64_t start, end;  /* [start, end) */
	uint64_t time, seq;   /* ordering key: record time, then stream position */
	int core;             /* -1: a later non-core mapping that overlaps a core */
	uint32_t mapping_idx; /* index into the result's mappings (core >= 0) */
};

struct mt_proc {
	uint32_t pid;
	uint32_t ppid;          /* parent after a process FORK, else = pid */
	uint64_t fork_time;
	uint64_t exec_time;     /* first COMM_EXEC time: from it on nothing is inherited */
	int has_exec;
	uint64_t lo, hi;        /* envelope of kept mappings, for a quick reject */
	uint64_t last_map_time; /* newest kept mapping (for the one-pass checks) */
	uint64_t last_cand_time;/* newest mapping given to a core */
	uint64_t max_hit_time;  /* newest sample found in a core */
	struct mt_map *maps;    /* in (time, seq) order */
	uint32_t nmaps;
	size_t cap;
	uint32_t *len_seen;     /* per core-length group: candidates met so far */
	/* track_misses: pages looked up in no core, newest time each (hash, page + 1 as key) */
	uint64_t *miss_page, *miss_time;
	uint32_t nmiss, cap_miss;
	uint64_t max_miss_time;
};

struct maptable {
	struct mt_proc *procs;  /* sorted by pid */
	uint32_t nprocs;
	size_t cap;
	struct size_group *groups;
	uint32_t ngroups;
	const struct attr_core *cores;
	uint32_t ncores;
	const struct mt_proc *last; /* lookup cache */
	int track_misses;       /* a hooked one-pass read: lookups that miss count for maptable__late */
	int track_files;        /* with track_misses: mappings of files count too (host frames) */
	int miss_oom;           /* a miss could not be noted: the caller must read twice */
};

/* A mapping record as read from perf.data, before any decision. */
struct mt_event {
	enum { MT_MMAP, MT_EXEC, MT_FORK } kind;
	uint32_t pid, tid, ppid;
	uint64_t start, len, pgoff;
	uint64_t time, seq, file_offset;
	int anon, is_mmap2, in_compressed;
	int injected;	/* a file perf inject --jit or aotperf inject wrote */
	uint32_t rec_size;
};

int maptable__init(struct maptable *mt, const struct attr_core *cores, uint32_t ncores);
void maptable__exit(struct maptable *mt);

/*
 * Feed one event, in time order. A core mapping is appended to res->mappings.
 * Returns 0 or -1 on allocation failure.
 */
int maptable__add(struct maptable *mt, const struct mt_event *ev, struct attr_result *res);

/*
 * For a file read in one pass: 1 when this event arrives too late to be
 * applied in order (it predates samples already attributed in its range,
 * or an earlier-numbered candidate; with track_misses, also a mapping
 * (of //anon or a candidate; with track_files of any file too) over a
 * page a lookup of its process (or a child's) missed after its time, or a
 * fork older than a miss of the child), so the caller must read twice.
 */
int maptable__late(const struct maptable *mt, const struct mt_event *ev);
/*
 * A read in one pass adds the core mappings as they come: put
 * res->mappings in (time, seq) order, as two passes give them. 0, or -1
 * when out of memory.
 */
int maptable__order_mappings(struct maptable *mt, struct attr_result *res);
/* A sample of pid at time t was found in a core. */
void maptable__note_hit(struct maptable *mt, uint32_t pid, uint64_t t);


/*
 * Core index holding ip for pid at time t (mapping index in *midx), or -1
 * (with track_misses, the miss is noted for maptable__late).
 */
int maptable__lookup(struct maptable *mt, uint32_t pid, uint64_t t, uint64_t ip,
		     uint32_t *midx);
/* The same, a miss never noted: an address that is only checked, never attributed. */
int maptable__peek(struct maptable *mt, uint32_t pid, uint64_t t, uint64_t ip, uint32_t *midx);

#endif
