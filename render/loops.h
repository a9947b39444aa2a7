/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_LOOPS_H
#define AOTPERF_RENDER_LOOPS_H
/* A classified function's hot loops and lever what-if (view/loops.h): text, JSON, Markdown. */
#include <stdio.h>
#include "../profile/profile.h"
#include "../util/json_out.h"
#include "../view/loops.h"

/* "hot loops", the hottest loop's listing, its model and what-if; nothing without loops (v NULL). */
void render__loops_text(FILE *out, const struct view_loops *v, size_t cols);
/* "loops" (and "loops_model_note" when a model was asked) members. */
void render__loops_json(struct json_out *j, const struct view_loops *v);
/* The Markdown of the loops and the hottest one's what-if (nothing without loops). */
int render__loops_md(FILE *f, const char *name, const struct view_loops *v, struct ap_err *err);

/*
 * One function in two builds (loops-pair.c): diff's before and after,
 * compare's WAMR and the other engine; each side's hottest loop and its
 * model. lf[k] NULL: not in that build. levers: the first side's what-if
 * against the second's cycles (compare's gap per lever).
 */
struct render_loop_pair {
	const char *word[2];		/* "before", "after"; "wamr", "v8" (JSON keys too) */
	const char *gap_word;		/* "change", "gap" */
	const struct lp_func *lf[2];
	const struct cls_func *f[2];	/* their decodes */
	int levers;
};
void render__loop_pair_text(FILE *out, const struct render_loop_pair *p, size_t cols);
/* One JSON value (an object). */
void render__loop_pair_json(struct json_out *j, const struct render_loop_pair *p);
int render__loop_pair_md(FILE *f, const char *name, const struct render_loop_pair *p,
			 struct ap_err *err);

#endif
