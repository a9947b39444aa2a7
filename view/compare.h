/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_COMPARE_H
#define AOTPERF_VIEW_COMPARE_H
/*
 * The view of `aotperf compare` (docs/views.md, docs/engines.md "The
 * comparison"): one wasm function under WAMR and under another engine.
 * Each side's samples and share of its run, the class table (static
 * counts, their delta, shares of the function's samples and the points
 * between them), the headroom per lever (an estimate, engines/engines.h),
 * and the functions both engines ran with each one's share of its run:
 * computed once here; render/compare-*.c only format it.
 */
#include <stdint.h>
#include "table.h"
#include "../classify/classify.h"
#include "../compare/diff.h"
#include "../engines/engines.h"
#include "../util/err.h"

struct render_loop_pair;

/* What the view is built from (borrowed; it must outlive the view). */
struct view_compare_input {
	const char *tool;		/* "aotperf compare" */
	const char *event;		/* --event or NULL */
	/* the WAMR side */
	const struct cmp_side *wamr;	/* cores and recordings (labels, totals) */
	uint32_t core, func;		/* the function compared */
	uint64_t wamr_samples;		/* the function's, summed */
	const struct cls_table *wamr_table; /* summed over the recordings */
	const struct cls_func_roles *wamr_roles;
	int picked;			/* 1: the hottest WAMR function (no --func) */
	/* the other engine */
	const char *other_label;	/* its perf.data, or the jitdump */
	const struct eng_profile *other;
	const struct eng_classes *oc;	/* the function's code, classified */
	const struct eng_headroom *h;
	uint64_t min_samples;		/* the sampled basis needs this many a side */
	uint64_t top;			/* functions shown side by side (text, Markdown) */
	const struct render_loop_pair *loops; /* both hottest loops modelled; NULL: not */
};

/* The rows of sides: the WAMR side, the other engine. */
enum { VC_WAMR, VC_OTHER };

struct view_compare {
	struct view_compare_input in;
	const char *engine;		/* "v8", "wasmtime", ...: headings */
	char tier[64];			/* the other side's tier: "optimized (turbofan)" */
	uint64_t wamr_run_total;	/* every sample of the WAMR recordings */
	/* per side: engine, code, tier, samples, total_samples, percent_of_run, recording */
	struct vt_table *sides;
	/*
	 * per class with instructions or samples on a side, then "memory
	 * (both)" when the other side cannot tell linear from other memory,
	 * then "total": static counts and their delta, shares of the
	 * function's samples and the points between them (JSON: the classes'
	 * own rows only, sampled_delta_points)
	 */
	struct vt_table *classes;
	int has_points;			/* both functions have samples: points exist */
	/* per lever: the WAMR and other shares, reduction, headroom (an estimate) */
	struct vt_table *levers;
	/* the functions both ran, most WAMR samples first; --top shown, JSON all */
	struct vt_table *funcs;
	/* headings that name the engine */
	char h_static[48], h_share[48], h_share_md[48], h_lever[48], h_run[48], h_tier[48];
};

/* Build the view; 0 and *out, or -1 with err (out of memory). */
int view_compare__new(const struct view_compare_input *in, struct view_compare **out,
		      struct ap_err *err);
void view_compare__delete(struct view_compare *v);

#endif
