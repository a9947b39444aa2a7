// SPDX-License-Identifier: MIT
/* The before build's lever table against the diff's measured change (levers-diff.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "levers.h"
#include "levers-diff.h"

/* R_PRED, R_HI, R_TOL adjacent: view_levers__put_payoff */
enum { R_LEVER, R_PRED, R_HI, R_TOL, R_ACH, R_IN };

static struct vt_table *rows_table(void)
{
	struct vcols s = { .n = 0 };

	vcols__add(&s, "lever", "lever", VT_TEXT, VT_CODE | VT_LEFT);
	s.c[R_LEVER].width = 14;
	vcols__add(&s, "predicted_pct", "predicted", VT_PERCENT, VT_PCT);
	vcols__prec(&s, 1, 2);
	s.c[R_PRED].md_head = "predicted run payoff";
	s.c[R_PRED].absent = "-";
	vcols__add(&s, "predicted_hi_pct", "", VT_PERCENT, VT_NO_TEXT | VT_NO_MD);
	vcols__prec(&s, 1, 2);
	vcols__add(&s, "tolerance_pct", "tolerance", VT_PERCENT, 0);
	vcols__prec(&s, 1, 2);
	s.c[R_TOL].absent = "-";
	vcols__add(&s, "achieved_pct", "achieved", VT_PERCENT, VT_PCT);
	vcols__prec(&s, 1, 2);
	s.c[R_ACH].md_head = "achieved (the run)";
	s.c[R_ACH].absent = "-";
	vcols__add(&s, "within", "in band", VT_BOOL, 0);
	return vt_table__new(s.c, s.n);
}

/* The achieved saving falls in the lever's band: payoff .. payoff_hi, +- tolerance. */
static int within(const struct lp_lever_row *r, double achieved)
{
	return achieved >= r->payoff - r->tolerance && achieved <= r->payoff_hi + r->tolerance;
}

static int rows(struct view_levers_diff *v, const struct lp_levers *lv)
{
	struct vt_table *t = v->rows = rows_table();
	const struct lp_lever_row *best = NULL;
	uint32_t held = 0;		/* levers whose band meets the achieved interval */

	for (int i = 0; t && i < LP__NLEVERS; i++) {
		const struct lp_lever_row *r = &lv->rows[i];

		if (vt_table__add_row(t))
			return -1;
		vt_table__str(t, R_LEVER, lp_lever__name((enum lp_lever)r->lever));
		if (v->timed)
			vt_table__dbl(t, R_ACH, v->achieved);
		if (view_levers__put_payoff(t, R_PRED, r))
			return -1;
		if (!r->loops || !v->timed)	/* no modelled loop: no prediction */
			continue;
		vt_table__bool(t, R_IN, within(r, v->achieved));
		if (!within(r, v->achieved))
			vt_table__word(t, R_IN, "no");
		if (!best || fabs(r->payoff - v->achieved) < fabs(best->payoff - v->achieved))
			best = r;
		held += v->achieved_hi >= r->payoff - r->tolerance &&
			v->achieved_lo <= r->payoff_hi + r->tolerance;
	}
	if (!t)
		return -1;
	if (!v->timed)
		snprintf(v->verdict, sizeof(v->verdict), "no time per run on both sides: %s", v->note);
	else if (!best)
		snprintf(v->verdict, sizeof(v->verdict), "achieved %.1f%% of the run; no lever was "
			 "predicted (%s)", v->achieved, *lv->model.note ? lv->model.note :
			 "none touches a modelled loop");
	else
		snprintf(v->verdict, sizeof(v->verdict), "achieved %.1f%% of the run (%.1f..%.1f); "
			 "closest prediction: %s, %.1f%% +-%.1f: %s", v->achieved, v->achieved_lo,
			 v->achieved_hi, lp_lever__name((enum lp_lever)best->lever), best->payoff,
			 best->tolerance, within(best, v->achieved) ? "delivered as predicted" :
			 v->achieved < best->payoff - best->tolerance ? "short of the prediction" :
			 "more than predicted");
	if (best && held > 1)	/* never confidently wrong: the run cannot tell them apart */
		snprintf(v->verdict + strlen(v->verdict), sizeof(v->verdict) - strlen(v->verdict),
			 "; but the interval meets the bands of %u levers: the run alone does not "
			 "tell them apart (the functions' rows do)", held);
	if (v->timed && v->one_each)	/* docs/levers.md: the interval knows no run-to-run noise */
		snprintf(v->verdict + strlen(v->verdict), sizeof(v->verdict) - strlen(v->verdict),
			 " (one recording a side: the interval is the sampling's alone; record "
			 "several runs a side, -i repeated)");
	return 0;
}

enum { F_NAME, F_BEFORE, F_AFTER, F_ACH, F_PRED0 = F_ACH + 1, F_TOL0 = F_PRED0 + LP__NLEVERS };

static struct vt_table *funcs_table(void)
{
	static const char *const short_name[LP__NLEVERS] = { "zext", "frame", "bounds", "vmctx",
							     "dispatch" };
	static char keys[2][LP__NLEVERS][40];
	struct vcols s = { .n = 0 };

	vcols__add(&s, "function", "function", VT_TEXT, VT_FLEX | VT_CODE);
	s.c[F_NAME].max_chars = 24;
	vcols__add(&s, "before_ns", "before ms", VT_NS, VT_NO_TEXT);
	vcols__add(&s, "after_ns", "after ms", VT_NS, VT_NO_TEXT);
	vcols__add(&s, "achieved_pct", "achieved", VT_PERCENT, VT_PCT);
	vcols__prec(&s, 1, 2);
	s.c[F_ACH].absent = "-";
	for (int l = 0; l < LP__NLEVERS; l++) {
		snprintf(keys[0][l], sizeof(keys[0][l]), "predicted.%s", lp_lever__name((enum lp_lever)l));
		vcols__add(&s, keys[0][l], short_name[l], VT_PERCENT, VT_PCT);
		vcols__prec(&s, 1, 2);
		s.c[F_PRED0 + l].md_head = lp_lever__name((enum lp_lever)l);
		s.c[F_PRED0 + l].absent = "-";
	}
	for (int l = 0; l < LP__NLEVERS; l++) {
		snprintf(keys[1][l], sizeof(keys[1][l]), "tolerance.%s", lp_lever__name((enum lp_lever)l));
		vcols__add(&s, keys[1][l], "", VT_PERCENT, VT_NO_TEXT | VT_NO_MD);
		vcols__prec(&s, 1, 2);
	}
	return vt_table__new(s.c, s.n);
}

/* The diff's function of local function func of the before build's core, or NULL. */
static const struct cmp_func *func_of(const struct cmp_diff *d, uint32_t core, uint32_t func)
{
	for (uint32_t i = 0; i < d->nfuncs; i++) {
		const struct cmp_func *f = &d->funcs[i];

		if (f->local_before == (int64_t)func && d->pairs[f->pair].before == (int)core)
			return f;
	}
	return NULL;
}

static int funcs(struct view_levers_diff *v, const struct lp_levers *lv,
		 const struct cwasm_module *const *cores, const struct cmp_diff *d)
{
	struct vt_table *t = v->funcs = funcs_table();

	for (uint32_t i = 0; t && i < lv->nfuncs; i++) {
		const struct lp_lever_func *lf = &lv->funcs[i];
		const struct cwasm_module *m = cores[lf->core];
		const struct cmp_func *f = func_of(d, lf->core, lf->func);
		const char *name = m->funcs[lf->func].name;

		if (vt_table__add_row(t) ||
		    (name ? vt_table__strf(t, F_NAME, "%s", name) :
			    vt_table__strf(t, F_NAME, "local_func_%u", lf->func)))
			return -1;
		if (v->timed && f && f->self_time.valid) {
			vt_table__dbl(t, F_BEFORE, f->self_time.before.mean);
			vt_table__dbl(t, F_AFTER, f->self_time.after.mean);
			vt_table__dbl(t, F_ACH, -100.0 * f->self_time.ch.delta / v->before_ns);
		}
		for (int l = 0; l < LP__NLEVERS; l++) {
			if (!lf->touched[l])
				continue;
			vt_table__dbl(t, F_PRED0 + l, lf->payoff[l]);
			vt_table__dbl(t, F_TOL0 + l, lf->tolerance[l]);
		}
	}
	return t ? 0 : -1;
}

struct view_levers_diff *view_levers_diff__new(const struct lp_levers *lv,
					       const struct cwasm_module *const *cores,
					       const struct cmp_diff *d, struct ap_err *err)
{
	struct view_levers_diff *v = calloc(1, sizeof(*v));
	const struct cmp_tmetric *run = &d->run_time;

	if (!v)
		goto nomem;
	v->timed = d->has_time && run->valid && run->before.mean > 0;
	if (v->timed) {
		v->before_ns = run->before.mean;
		v->after_ns = run->after.mean;
		v->achieved = -100.0 * run->ch.delta / v->before_ns;
		v->tested = run->ch.test != CMP_TEST_NONE;
		v->one_each = run->ch.test == CMP_TEST_POISSON;
		v->achieved_lo = v->tested ? -100.0 * run->ch.ci_hi / v->before_ns : v->achieved;
		v->achieved_hi = v->tested ? -100.0 * run->ch.ci_lo / v->before_ns : v->achieved;
	} else {
		snprintf(v->note, sizeof(v->note), "the recordings' periods are not CPU time "
			 "(record with -e cpu-clock), so no run time to hold the predictions against");
	}
	if (rows(v, lv) || funcs(v, lv, cores, d))
		goto nomem;
	return v;
nomem:
	view_levers_diff__delete(v);
	ap_err_nomem(err);
	return NULL;
}

void view_levers_diff__delete(struct view_levers_diff *v)
{
	if (!v)
		return;
	vt_table__delete(v->rows);
	vt_table__delete(v->funcs);
	free(v);
}
