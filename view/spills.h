/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_SPILLS_H
#define AOTPERF_VIEW_SPILLS_H
/*
 * The view of `aotperf spills` (docs/views.md, docs/workflow.md): the
 * ranking of the metric log with each function's runtime share and its
 * frame reloads against spill_ld, the runtime-cold heavy spillers, the hot
 * functions and the hottest with their verdicts, or the --vs diff; every
 * share, ratio and change computed once here from the analysis
 * (spills/spills.h); render/spills-*.c only format it.
 */
#include <stdint.h>
#include "table.h"
#include "../spills/spills.h"
#include "../util/err.h"

struct view_spills {
	const struct spills *s;
	/* the recording: the share of its samples in the cores (absent: none joined) */
	struct vt_table *run;		/* one row: perf, total_samples, attributed_samples, pct */
	/*
	 * the --top functions by the sort field: rank, mod, the log's metrics
	 * (JSON: metrics.*), samples and share of the run, runtime, decoded
	 * frame reloads and their ratio to spill_ld; text columns give way
	 * at 80 columns (insts, sp_vregs, spill_st, the cross-check, mod)
	 */
	struct vt_table *rank;
	/* the heavy spillers (top --heavy by spill_ld) under --cold-pct of the run */
	struct vt_table *cold;
	/* the functions at --hot-pct of the run or more, hottest first; the hottest */
	struct vt_table *hot, *hottest;
	/* --vs: per function both logs' field, delta, percent; --top shown, JSON all */
	struct vt_table *diff;
	uint32_t diff_both, diff_only_before, diff_only_after;
	uint64_t diff_total_before, diff_total_after;
	/* the totals' change in percent ("+12.3%"), and the hottest function's */
	char diff_total_change[32];
	char hottest_change[160];	/* "12 -> 9 (-25.0%)" or "present in A, absent in B" */
	/* --frame-attribution: the listed functions in a core with their sidecars */
	const char *frame_prefix;	/* NULL: not asked */
	struct view_spills_frame *frames;
	uint32_t nframes;
};

/* A listed function's frame origins (its sidecar, view/frames.h) against its log record. */
struct view_spills_frame {
	char label[64];			/* "local_func_N", "modM local_func_N" */
	const struct profile_func *f;	/* with its sidecar f->sc */
	const char *core;		/* its core's name */
	uint64_t addr0;			/* its first address (the helper's "address" keys) */
	int have_log;			/* its record has spill_ld and spill_st */
	uint64_t log_ld, log_st;
};

/*
 * Build the view of s (prepared, joined, cross-checked, diffed as asked);
 * frames (NULL: none) holds the listed functions with their sidecars
 * (--frame-attribution prefix). -1 with err.
 */
int view_spills__new(const struct spills *s, const struct profile *frames,
		     const char *frame_prefix, struct view_spills **out, struct ap_err *err);
void view_spills__delete(struct view_spills *v);

#endif
