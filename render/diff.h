/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_DIFF_H
#define AOTPERF_RENDER_DIFF_H
/*
 * `aotperf diff` as text (80 columns), JSON, Markdown and the HTML page,
 * formatted from its view (view/diff.h), which holds every number, row,
 * cut and verdict word: these only format it. The JSON document is the
 * one shape of a diff: --json writes it, and the HTML page's data
 * document is the same document with the listings added (docs/compare.md
 * "JSON", docs/html-data.md "diff").
 */
#include <stdint.h>
#include <stdio.h>
#include "../attr/hist.h"
#include "../compare/diff.h"
#include "../util/err.h"
#include "../view/diff.h"

struct json_out;

/* The text; columns: the terminal's width (util/term.h), 0: 80. */
void render__diff_text(FILE *out, const struct view_diff *v, unsigned columns);
int render__diff_json_file(const char *path, const struct view_diff *v, struct ap_err *err);
int render__diff_markdown_file(const char *path, const struct view_diff *v, struct ap_err *err);
/*
 * The HTML report: the JSON document plus the listings of the after
 * build's functions the view lists, decoded and weighed by hist_after
 * (the after recordings' samples summed) with the roles override.
 */
int render__diff_html_file(const char *path, const struct view_diff *v,
			   const struct attr_hist *hist_after, const char *roles,
			   struct ap_err *err);

/* The JSON document's members (diff-json.c): --json's and the page's. */
void render__diff_json_body(struct json_out *j, const struct view_diff *v);

/* ---- the off-CPU part (diff-offcpu.c): nothing without v->in.oc and v->in.oc_note ---- */

void render__diff_offcpu_text(FILE *out, const struct view_diff *v, unsigned columns);
int render__diff_offcpu_markdown(FILE *f, const char *path, const struct view_diff *v,
				 struct ap_err *err);
/* The top-level "off_cpu" member (docs/offcpu-diff.md). */
void render__diff_offcpu_json(struct json_out *j, const struct view_diff *v);

/* The page's "listings" (diff-listings.c, docs/html-data.md); 0 or -1 with err. */
int render__diff_listings(struct json_out *j, const struct view_diff *v,
			  const struct attr_hist *hist_after, const char *roles,
			  struct ap_err *err);

/* ---- shared with compare and report -i (diff-common.c) ---- */

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

#endif
