/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ATTR_REORDER_H
#define AOTPERF_ATTR_REORDER_H
/*
 * Records of a stream read once (a pipe) put back in time order, as perf's
 * own reader does: perf writes each CPU's records in order but the CPUs
 * one after the other per round, so a sample can come before the mapping
 * record it needs. After a FINISHED_ROUND everything up to the previous
 * round's newest time has been written: those records are final. The
 * queue holds the records since (a round is at most perf's ring buffers);
 * past REORDER_MAX_BYTES its oldest half goes out anyway, as perf's queue
 * does when full, so memory stays flat in the stream's length.
 */
#include <stddef.h>
#include <stdint.h>
#include "../perfdata/perfdata.h"

#define REORDER_MAX_BYTES (64u << 20)

struct reorder_ent;

struct reorder {
	struct reorder_ent *ents;
	size_t n, cap;
	char *buf;		/* the records' bytes, 8-byte aligned each */
	size_t len, bcap;
	uint64_t newest;	/* newest time queued */
	uint64_t round_newest;	/* newest time when the last round ended */
};

/* What a record is handed to; ev's pointers are valid during the call. 0, or -1 to stop. */
typedef int (*reorder_fn)(void *ctx, const struct pd_event *ev);

/* Queue a copy of ev (its record and parsed fields) at time t; 0, or -1 when out of memory. */
int reorder__push(struct reorder *q, const struct pd_event *ev, uint64_t t);
/* A FINISHED_ROUND: hand out, in time order, what it made final. */
int reorder__round(struct reorder *q, reorder_fn fn, void *ctx);
/* Over REORDER_MAX_BYTES: hand out the oldest half. */
int reorder__trim(struct reorder *q, reorder_fn fn, void *ctx);
/* The end of the stream: everything, in time order. */
int reorder__drain(struct reorder *q, reorder_fn fn, void *ctx);
void reorder__exit(struct reorder *q);

#endif
