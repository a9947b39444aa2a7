/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_CALLGRAPH_INTERNAL_H
#define AOTPERF_VIEW_CALLGRAPH_INTERNAL_H
/*
 * Shared by view/callgraph.c (samples), callgraph-time.c (off-CPU, wall)
 * and callgraph-cols.c (the columns both use).
 */
#include "callgraph.h"
#include "internal.h"
#include "../cwasm/coreset.h"

/* A symbol's naming columns: kind, name (heading head), core, local_func, dso; the first. */
uint32_t vcg__name_cols(struct vcols *s, const char *head, unsigned name_flags);
/* Fill them for s at `at`; 0, or -1 when out of memory. */
int vcg__name_put(struct vt_table *t, uint32_t at, const struct profile *p,
		  const struct stack_sym *s);
/*
 * An edge table's columns: samples (time: ns), percent_of_function, then
 * the naming columns (at 2); the first's index.
 */
uint32_t vcg__edge_cols(struct vcols *s, int callers, int time);
/* A row that is no symbol (kind "self", "outermost"): its naming cells at `at`. */
int vcg__edge_special(struct vt_table *t, uint32_t at, const char *kind, const char *label);

/*
 * The off-CPU or wall parts (callgraph-time.c) of v's nedges edge tables;
 * 0, or -1 when out of memory.
 */
int vcg__time(struct view_callgraph *v, uint32_t nedges);

#endif
