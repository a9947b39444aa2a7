/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_COMPARE_H
#define AOTPERF_RENDER_COMPARE_H
/*
 * `aotperf compare` as text (the terminal's width), JSON, Markdown and the
 * HTML page, formatted from its view (view/compare.h), which holds every
 * number, share, delta and cut: these only format it. The headroom is
 * always labelled as an estimate (docs/engines.md "The comparison"). The
 * page's data document is the JSON document with the page's members added
 * (docs/html-data.md).
 */
#include <stdio.h>
#include "../util/err.h"

struct view_compare;
struct json_out;

/* columns: the terminal's width (util/term.h), 0: 80. */
void render__compare_text(FILE *out, const struct view_compare *v, unsigned columns);
int render__compare_json_file(const char *path, const struct view_compare *v,
			      struct ap_err *err);
int render__compare_markdown_file(const char *path, const struct view_compare *v,
				  struct ap_err *err);
int render__compare_html_file(const char *path, const struct view_compare *v,
			      struct ap_err *err);
/* The JSON document's members (compare-json.c): --json's and the page's. */
void render__compare_json_body(struct json_out *j, const struct view_compare *v);

#endif
