/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_DIFF_H
#define AOTPERF_RENDER_DIFF_H
/*
 * `aotperf diff` as text (80 columns), JSON, Markdown and the HTML page:
 * a diff of two builds (compare/diff.h), the class tables of the functions
 * asked for, and the gate's verdict. The analysis is done by the caller;
 * these only print it. Schema and wording: README "aotperf diff",
 * docs/compare.md.
 */
#include <stdint.h>
#include <stdio.h>
#include "../attr/hist.h"
#include "../compare/diff.h"
#include "../compare/offcpu_diff.h"
#include "../util/err.h"

struct render_loop_pair;

/* A function looked at closely (--func): its class tables before and after. */
struct render_diff_func {
	const char *spec;		/* as the user named it */
	int64_t pair;			/* index into d->pairs, -1 when not found */
	uint32_t wasm_index;
	int64_t local_before, local_after; /* -1: not in that build */
	const char *name;		/* wasm name (after's, else before's) or NULL */
	uint64_t samples_before, samples_after; /* its self samples, summed */
	const struct cls_table *before, *after; /* summed over the captures */
	struct cmp_cls_diff cls;
	const struct render_loop_pair *loops;	/* hottest loops modelled; NULL: not */
};

struct render_diff {
	const char *tool;		/* "aotperf diff" */
	const struct cmp_diff *d;
	const struct cmp_side *before, *after; /* cores and captures (labels, totals) */
	const char *event;		/* --event or NULL */
	uint64_t top;			/* functions listed in text and Markdown; 0: all */
	uint32_t nfuncs;
	const struct render_diff_func *funcs;
	const struct cmp_gate *gate;	/* NULL: no --fail-if-slower */
	const char *gate_what;		/* what it judged: "the hottest function before", ... */
	int gate_wasm;			/* it judged the share in wasm code */
	/* the HTML page's listings: the after recordings' samples summed, --roles */
	const struct attr_hist *hist_after;	/* NULL: listings without samples */
	const char *roles;
	unsigned columns;		/* text width (util/term.h); 0: 80 */
	const struct cmp_offcpu *oc;	/* both sides' off-CPU time; NULL: not both */
	const char *oc_note;		/* one side only has it: the line saying so; or NULL */
};

void render__diff_text(FILE *out, const struct render_diff *r);
int render__diff_json_file(const char *path, const struct render_diff *r, struct ap_err *err);
int render__diff_markdown_file(const char *path, const struct render_diff *r,
			       struct ap_err *err);
/* The HTML report's data document (docs/html-data.md "diff") and its page. */
int render__diff_html_file(const char *path, const struct render_diff *r, struct ap_err *err);

/* ---- the off-CPU part (diff-offcpu.c): nothing when r->oc and r->oc_note are NULL ---- */

struct json_out;
void render__diff_offcpu_text(FILE *out, const struct render_diff *r);
int render__diff_offcpu_markdown(FILE *f, const char *path, const struct render_diff *r,
				 struct ap_err *err);
/* The top-level "off_cpu" member (README "diff"), and a function row's. */
void render__diff_offcpu_json(struct json_out *j, const struct render_diff *r);
void render__diff_offcpu_func_json(struct json_out *j, const struct render_diff *r, uint32_t func);
/* The HTML data document's diff.off_cpu (docs/html-data.md). */
void render__diff_offcpu_html(struct json_out *j, const struct render_diff *r);

/* ---- shared by the diff renderers ---- */

struct json_out;
/*
 * The page's "listings" (docs/html-data.md): the after build's functions
 * listed in text (--top) and the --func ones, with their samples.
 */
int render__diff_listings(struct json_out *j, const struct render_diff *r, struct ap_err *err);
/*
 * The HTML data document's block of core c of side s (docs/html-data.md):
 * core, cwasm, counts, target, attributed_samples, functions (self
 * samples summed over the recordings). top: members of the object being
 * written (the single-core form), else a whole object; 0 or -1 (memory).
 */
int render__html_core_block(struct json_out *j, const struct cmp_side *s, uint32_t c, int top,
			    struct ap_err *err);

/* s, or its last `width` characters with "..." in front (buf holds them). */
const char *render__tail(const char *s, size_t width, char *buf, size_t len);

/* "zext_heavy", "mod4:zext_heavy", "local_func_12" (the after build's name first). */
const char *render__diff_func_label(const struct render_diff *r, const struct cmp_func *f,
				    char *buf, size_t len);
/* A core pair's label: "sample.cwasm", "mod4", "a.cwasm -> b.cwasm". */
const char *render__diff_pair_label(const struct render_diff *r, uint32_t pair, char *buf,
				    size_t len);
/* "Welch's t-test on the per-capture shares", "two-proportion z-test", ... */
const char *render__diff_test_words(const struct cmp_diff *d);
/* "Holm", "Bonferroni", "no" */
const char *render__diff_adjust_words(enum cmp_adjust a);
/* p-values: "0.0022", "0.62", "<1e-9"; "-" when not tested. */
const char *render__diff_p(const struct cmp_change *ch, char *buf, size_t len);
/* relative change: "+112%", "-100%", "new" (nothing before) */
const char *render__diff_rel(const struct cmp_change *ch, char *buf, size_t len);
/*
 * The functions with samples on a side (rows[], indices of d->funcs, room
 * for d->nfuncs), by the size of their self change, or of the inclusive
 * one when incl; returns how many. render__diff_shown: how many are listed.
 */
uint32_t render__diff_rows(const struct render_diff *r, int incl, uint32_t *rows);
uint32_t render__diff_shown(const struct render_diff *r, uint32_t nrows);

#endif
