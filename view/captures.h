/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_CAPTURES_H
#define AOTPERF_VIEW_CAPTURES_H
/*
 * The view of `aotperf report -i a.data -i b.data ...` (docs/views.md):
 * several recordings of one build as the mean and spread of each
 * function's share (compare/diff.h struct cmp_agg), each recording's
 * samples, share in wasm and how much of it was read, each core's ranked
 * functions under the --top cut, and the class table of each --func
 * summed over the recordings (view/classes.h). The formats
 * (render/captures-*.c) only format it.
 */
#include <stdint.h>
#include "classes.h"
#include "table.h"
#include "../compare/diff.h"
#include "../util/err.h"

/* How much of one recording was read (docs/damaged-recordings.md). */
struct view_read {
	int truncated;			/* cut short */
	uint64_t bytes_read, bytes_expected;	/* data bytes */
	int authoritative;		/* whole, and every core's mapping unique and consistent */
};

/* A classified function: its class table summed over the recordings. */
struct view_captures_func_in {
	const char *spec;
	uint32_t core, func;
	uint64_t samples;		/* summed */
	const struct cls_table *t;
};

/* What the view is built from (borrowed; it must outlive the view). */
struct view_captures_input {
	const char *tool;
	const struct cmp_side *side;	/* cores and recordings (labels, totals) */
	const struct cmp_agg *agg;	/* their aggregate */
	const uint64_t *attributed;	/* per recording: samples in any core (NULL: unknown) */
	const struct view_read *reads;	/* per recording (NULL: unknown) */
	const char *event;
	uint64_t top;			/* functions per core; 0: all */
	uint32_t nfuncs;
	const struct view_captures_func_in *funcs;
};

struct view_captures_core {
	const struct cmp_agg_core *ac;
	struct vt_table *funcs;		/* ranked by mean share: the --top cut applied */
	uint32_t more;			/* ranked functions not shown */
};

struct view_captures_func {
	const struct view_captures_func_in *in;
	const char *name;		/* wasm name, or NULL */
	double pct;			/* its samples, of all the recordings' in wasm */
	struct view_classes cls;
};

struct view_captures {
	struct view_captures_input in;
	/* per recording: perf, total_samples, attributed_samples, %wasm, truncated, ... */
	struct vt_table *recordings;
	char (*cut_words)[200];		/* [ncaptures]: a cut recording's words, else "" */
	struct view_captures_core *cores;	/* [agg->ncores] */
	struct view_captures_func *funcs;	/* [in.nfuncs] */
};

/* Build the view; 0 and *out, or -1 with err (out of memory). */
int view_captures__new(const struct view_captures_input *in, struct view_captures **out,
		       struct ap_err *err);
void view_captures__delete(struct view_captures *v);

#endif
