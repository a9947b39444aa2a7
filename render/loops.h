/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_LOOPS_H
#define AOTPERF_RENDER_LOOPS_H
/* A classified function's hot loops and lever what-if (loops/): text, JSON, Markdown. */
#include <stdio.h>
#include "../profile/profile.h"
#include "../util/json_out.h"

struct lp_loop;

/* "hot loops", the hottest loop's listing, its model and what-if; nothing without loops. */
void render__loops_text(FILE *out, const struct profile_func *pf, size_t cols);
/* "loops" (and "loops_model_note" when a model was asked) members. */
void render__loops_json(struct json_out *j, const struct profile_func *pf);

/* ---- shared by the loop renderers (text, JSON, Markdown) ---- */

/* The samples of the classes lever lv touches, in loop l. */
uint64_t render__loop_lever_samples(const struct lp_loop *l, int lv);
/* "bounds checks", "frame loads/stores", ... */
const char *render__lever_words(int lv);
/* Lever lv touches loop l and its saving is modelled (not lp_model_run.not_modelled). */
int render__loop_lever_modelled(const struct lp_loop *l, int lv);
/* order[LP__NLEVERS]: levers by predicted payoff, then those not modelled, those with nothing to remove last. */
void render__loop_by_payoff(const struct lp_loop *l, int *order);
/* "frame_load 30%, alu 22%, bounds_check 12%": the three largest classes. */
void render__loop_top_classes(const struct lp_loop *l, int by_samples, char *out, size_t n);
/* The Markdown of pf's loops and the hottest one's what-if (nothing without loops). */
int render__loops_md(FILE *f, const char *name, const struct profile_func *pf,
		     struct ap_err *err);

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

/* ---- the run's lever table (levers.c, levers-md.c; loops/levers.h): p->levers ---- */

struct lp_levers;
struct lp_lever_row;
/* The table, its notes and verdict; nothing without p->levers. */
void render__levers_text(FILE *out, const struct profile *p, size_t cols);
/* The member "levers"; nothing without p->levers. */
void render__levers_json(struct json_out *j, const struct profile *p);
int render__levers_md(FILE *f, const char *name, const struct profile *p, struct ap_err *err);
/* "pays most: zero-extends, 12.3% of the run predicted (+-2.1), 6.3 points more than ..." */
void render__levers_verdict(const struct lp_levers *lv, char *out, size_t n);
/* "12.3%", "0.0..4.1%" (a bound), "not modelled", "-" (nothing touched) */
void render__lever_payoff(const struct lp_lever_row *r, char *out, size_t n);
int render__lever_row_modelled(const struct lp_lever_row *r);
/* "predicted run payoff", or without a recording "mean loop saving" */
const char *render__lever_unit(const struct lp_levers *lv);

#endif
