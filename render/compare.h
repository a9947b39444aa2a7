/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_COMPARE_H
#define AOTPERF_RENDER_COMPARE_H
/*
 * `aotperf compare`: one wasm function under WAMR (recordings + .cwasm)
 * and under another engine (engines/engines.h), as text (80 columns),
 * JSON, Markdown and the HTML page: static class counts and sampled shares
 * on both sides, the per-class delta, and the headroom per lever, always
 * labelled as an estimate (docs/engines.md "The comparison").
 */
#include <stdint.h>
#include <stdio.h>
#include "../classify/classify.h"
#include "../compare/diff.h"
#include "../engines/engines.h"
#include "../util/err.h"

struct render_loop_pair;

struct render_compare {
	const char *tool;		/* "aotperf compare" */
	const char *event;		/* --event or NULL */
	/* the WAMR side */
	const struct cmp_side *wamr;	/* cores and recordings (labels, totals) */
	uint32_t core, func;		/* the function compared */
	uint64_t wamr_run_total;	/* all samples of its recordings */
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
	uint32_t top;			/* functions in the side-by-side list */
	const struct render_loop_pair *loops; /* both hottest loops modelled; NULL: not */
};

void render__compare_text(FILE *out, const struct render_compare *r);
int render__compare_json_file(const char *path, const struct render_compare *r,
			      struct ap_err *err);
int render__compare_markdown_file(const char *path, const struct render_compare *r,
				  struct ap_err *err);
int render__compare_html_file(const char *path, const struct render_compare *r,
			      struct ap_err *err);

/* ---- shared by the compare renderers ---- */

/* "v8", "wasmtime", ... : the other engine's name for headings */
const char *render__compare_engine(const struct render_compare *r);
/* The tier the other side's code is: "optimized (turbofan)", "unknown" */
const char *render__compare_tier(const struct render_compare *r, char *buf, size_t len);
/* Class k has a row (static or samples on a side). */
int render__compare_has_row(const struct render_compare *r, int k);
/* WAMR's samples of local function f over its recordings (0 past the core). */
uint64_t render__compare_wamr_samples(const struct render_compare *r, uint32_t f);
/*
 * The functions both engines ran, by WAMR samples (then the other's):
 * indices of engine functions (engines__func), at most n; returns how many.
 */
uint32_t render__compare_funcs(const struct render_compare *r, uint32_t *idx, uint32_t n);

#endif
