// SPDX-License-Identifier: MIT
/* The run's lever table as a view (levers.h): the numbers and words every format shows. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"
#include "levers.h"
#include "../util/pct.h"

/* A row whose payoff is a number: some loop it touches is modelled. */
static int row_modelled(const struct lp_lever_row *r)
{
	return r->loops > 0;
}

int view_levers__put_payoff(struct vt_table *t, uint32_t c, const struct lp_lever_row *r)
{
	if (!row_modelled(r)) {	/* no number: JSON null, the words say why */
		vt_table__word(t, c, r->removed ? "not modelled" : "-");
		return 0;
	}
	vt_table__dbl(t, c, r->payoff);
	vt_table__dbl(t, c + 1, r->payoff_hi);
	vt_table__dbl(t, c + 2, r->tolerance);
	return vt_table__wordf(t, c + 2, "+-%.1f", r->tolerance) ||
	       (r->payoff_hi > r->payoff + 0.05 &&	/* a bound: the range */
		vt_table__wordf(t, c, "%.1f..%.1f%%", r->payoff, r->payoff_hi)) ? -1 : 0;
}

static void verdict(struct view_levers *v)
{
	const struct lp_levers *lv = v->lv;
	const struct lp_lever_row *best = NULL, *next = NULL;
	const char *of = lv->static_only ? "a modelled loop's time on average" : "of the run";

	for (int i = 0; i < LP__NLEVERS; i++) {
		const struct lp_lever_row *r = &lv->rows[i];

		if (!row_modelled(r))
			continue;
		if (!best)
			best = r;
		else if (!next)
			next = r;
	}
	if (!best || best->payoff < 0.5)
		snprintf(v->verdict, sizeof(v->verdict), "no lever pays%s: each under 0.5%% %s",
			 best ? "" : " (none touches a modelled loop)", of);
	else if (!next)
		snprintf(v->verdict, sizeof(v->verdict), "pays most: %s, %.1f%% %s predicted (+-%.1f); "
			 "no other lever touches a modelled loop", view__lever_words(best->lever),
			 best->payoff, of, best->tolerance);
	else
		snprintf(v->verdict, sizeof(v->verdict), "pays most: %s, %.1f%% %s predicted (+-%.1f), "
			 "%.1f points more than %s (%.1f%%)%s", view__lever_words(best->lever),
			 best->payoff, of, best->tolerance, best->payoff - next->payoff,
			 view__lever_words(next->lever), next->payoff,
			 /* the lead is within what the kernel pairs allow: say so, not a winner */
			 best->payoff - next->payoff < best->tolerance + next->tolerance ?
			 ", within the two tolerances: not a clear lead" : "");
}

static void head(struct view_levers *v)
{
	const struct lp_levers *lv = v->lv;
	uint32_t nloops = 0;

	for (uint32_t i = 0; i < lv->nfuncs; i++)
		nloops += lv->funcs[i].modelled;
	if (lv->static_only)
		snprintf(v->head, sizeof(v->head), "levers (no recording): the %u largest functions "
			 "with loops, every loop modelled (%u); each lever's mean saving per loop, no "
			 "run shares", lv->nfuncs, nloops);
	else
		snprintf(v->head, sizeof(v->head), "levers of the run: %u functions hold %.1f%% of the "
			 "wasm samples (until %.0f%%, at most %u); %u loops with %.0f%% of their "
			 "function or more modelled: %.1f%% of the run, %.1f%% not modelled",
			 lv->nfuncs, ap_pct(lv->chosen_samples, lv->wasm_samples), lv->share,
			 lv->max_funcs, nloops, lv->loop_min, v->modelled_pct, v->unmodelled_pct);
	if (*lv->model.tool)
		snprintf(v->model, sizeof(v->model), "model: %s -mcpu=%s; %s", lv->model.tool,
			 lv->model.mcpu, lv->model.why);
	else
		snprintf(v->model, sizeof(v->model), "model: %s", *lv->model.note ? lv->model.note :
			 "no loop to model");
}

/* R_PAYOFF, R_HI, R_TOL adjacent: view_levers__put_payoff */
enum { R_LEVER, R_FUNCS, R_REMOVED, R_SAMPLES, R_SHARE, R_PAYOFF, R_HI, R_TOL, R_UNLOOPS,
       R_UNPCT, R_WHY };

/* Without a recording (static) no samples: those columns stay in JSON only. */
static struct vt_table *rows_table(const char *unit, int static_only)
{
	unsigned sampled = static_only ? VT_NO_TEXT | VT_NO_MD : 0;
	struct vcols s = { .n = 0 };

	vcols__add(&s, "lever", "lever", VT_TEXT, VT_CODE | VT_LEFT);
	s.c[R_LEVER].width = 14;
	vcols__add(&s, "functions", "funcs", VT_COUNT, 0);
	s.c[R_FUNCS].md_head = "functions";
	vcols__add(&s, "removed", "insns", VT_COUNT, 0);
	s.c[R_REMOVED].md_head = "instructions";
	vcols__add(&s, "samples", "samples", VT_COUNT, sampled);
	s.c[R_SAMPLES].md_head = "samples on them";
	vcols__add(&s, "sample_pct", "%run", VT_PERCENT, VT_PCT | sampled);
	vcols__prec(&s, 1, 2);
	vcols__add(&s, "payoff_pct", unit, VT_PERCENT, VT_PCT);
	vcols__prec(&s, 1, 2);
	s.c[R_PAYOFF].gap = 2;
	vcols__add(&s, "payoff_hi_pct", "", VT_PERCENT, VT_NO_TEXT | VT_NO_MD);
	vcols__prec(&s, 1, 2);
	vcols__add(&s, "tolerance_pct", "tolerance", VT_PERCENT, 0);
	vcols__prec(&s, 1, 2);
	s.c[R_TOL].absent = "-";
	vcols__add(&s, "unmodelled_loops", "", VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	vcols__add(&s, "unmodelled_pct", "", VT_PERCENT, VT_NO_TEXT | VT_NO_MD);
	vcols__prec(&s, 1, 2);
	vcols__add(&s, "not_modelled", "", VT_TEXT, VT_NO_TEXT | VT_NO_MD);
	return vt_table__new(s.c, s.n);
}

static int rows(struct view_levers *v)
{
	const struct lp_levers *lv = v->lv;
	struct vt_table *t = v->rows = rows_table(v->unit, lv->static_only);

	for (int i = 0; t && i < LP__NLEVERS; i++) {
		const struct lp_lever_row *r = &lv->rows[i];

		if (vt_table__add_row(t))
			return -1;
		vt_table__str(t, R_LEVER, lp_lever__name((enum lp_lever)r->lever));
		vt_table__u64(t, R_FUNCS, r->functions);
		vt_table__u64(t, R_REMOVED, r->removed);
		vt_table__u64(t, R_SAMPLES, r->samples);
		vt_table__dbl(t, R_SHARE, ap_pct(r->samples, lv->run_samples));
		vt_table__u64(t, R_UNLOOPS, r->unmodelled_loops);
		vt_table__dbl(t, R_UNPCT, r->unmodelled_share);
		if (*r->why)
			vt_table__str(t, R_WHY, r->why);
		if (view_levers__put_payoff(t, R_PAYOFF, r))
			return -1;
	}
	return t ? 0 : -1;
}

static void notes(struct view_levers *v)
{
	const struct lp_levers *lv = v->lv;

	for (int i = 0; i < LP__NLEVERS; i++) {
		const struct lp_lever_row *r = &lv->rows[i];
		char share[48] = "";

		if (r->lever == LP_FRAME && r->removed && r->payoff_hi > r->payoff + 0.05)
			snprintf(v->notes[v->nnotes++], VIEW_LEVERS_LINE, "frame: %.1f%% where the "
				 "core renames stack memory (Zen 2 and later; measured here too: "
				 "docs/levers.md), up to %.1f%% where a reload waits for the store",
				 r->payoff, r->payoff_hi);
		if (!lv->static_only)	/* without a recording there is no run to share */
			snprintf(share, sizeof(share), " (%.1f%% of the run)", r->unmodelled_share);
		if (r->unmodelled_loops)
			snprintf(v->notes[v->nnotes++], VIEW_LEVERS_LINE, "%s: not modelled in %u "
				 "loop%s%s: %s", lp_lever__name((enum lp_lever)r->lever),
				 r->unmodelled_loops, r->unmodelled_loops == 1 ? "" : "s", share, r->why);
	}
}

static void spills(struct view_levers *v)
{
	const struct lp_levers *lv = v->lv;

	for (uint32_t i = 0; lv->spills_given && i < lv->nfuncs; i++) {
		const struct lp_lever_func *f = &lv->funcs[i];
		char *line = v->spills[v->nspills++];

		if (!f->spill_known)
			snprintf(line, VIEW_LEVERS_LINE, "local_func_%u: not in the log; %u frame loads "
				 "decoded, %u in its modelled loops", f->func, f->frame_loads,
				 f->frame_loads_loops);
		else
			snprintf(line, VIEW_LEVERS_LINE, "local_func_%u: spill_ld %" PRIu64 ", %u frame "
				 "loads decoded, %u in its modelled loops (the lever's)%s", f->func,
				 f->spill_ld, f->frame_loads, f->frame_loads_loops,
				 f->frame_loads_loops > f->spill_ld ?
				 ": more than the log's reloads, so some are no spill (wasm locals, "
				 "frame state): the lever over-counts" :
				 f->frame_loads < f->spill_ld ? ": fewer decoded than the log's "
				 "reloads: another build of the core?" : ": reconciled");
	}
}

struct view_levers *view_levers__new(const struct lp_levers *lv, const struct profile *p,
				     struct ap_err *err)
{
	struct view_levers *v = calloc(1, sizeof(*v));

	if (!v)
		goto nomem;
	v->lv = lv;
	v->p = p;
	v->unit = lv->static_only ? "mean loop saving" : "predicted run payoff";
	v->modelled_pct = lp_levers__modelled_pct(lv);
	v->unmodelled_pct = lv->static_only ? 0 : 100.0 - v->modelled_pct;
	v->notes = calloc(2 * LP__NLEVERS, sizeof(*v->notes));
	v->spills = calloc(lv->nfuncs + 1, sizeof(*v->spills));
	if (!v->notes || !v->spills || rows(v))
		goto nomem;
	head(v);
	notes(v);
	spills(v);
	verdict(v);
	return v;
nomem:
	view_levers__delete(v);
	ap_err_nomem(err);
	return NULL;
}

void view_levers__delete(struct view_levers *v)
{
	if (!v)
		return;
	vt_table__delete(v->rows);
	free(v->notes);
	free(v->spills);
	free(v);
}
