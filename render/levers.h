/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_LEVERS_H
#define AOTPERF_RENDER_LEVERS_H
/* The run's lever table (view/levers.h) as text, JSON and Markdown; nothing for v NULL. */
#include <stdio.h>
#include "../util/json_out.h"
#include "../view/levers.h"
#include "../view/levers-diff.h"

/* The table, its notes and verdict (cols: the terminal's width, 0: 80). */
void render__levers_text(FILE *out, const struct view_levers *v, size_t cols);
/* The member "levers". */
void render__levers_json(struct json_out *j, const struct view_levers *v);
/* "### Which lever pays for the run": the same rows, notes and verdict. */
int render__levers_md(FILE *f, const char *name, const struct view_levers *v, struct ap_err *err);

/* diff --levers (levers-diff.c): predicted against achieved; nothing for v NULL. */
void render__levers_diff_text(FILE *out, const struct view_levers_diff *v, unsigned cols);
/* The diff document's member "levers". */
void render__levers_diff_json(struct json_out *j, const struct view_levers_diff *v);
int render__levers_diff_md(FILE *f, const char *path, const struct view_levers_diff *v,
			   struct ap_err *err);

#endif
