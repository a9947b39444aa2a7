/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_LEVERS_DIFF_H
#define AOTPERF_VIEW_LEVERS_DIFF_H
/*
 * Predicted against achieved (diff --levers, docs/levers.md): the before
 * build's lever table (profile/levers.h, from its first recording) next
 * to what the diff measured (compare/diff.h: time per run, the mean over
 * each side's recordings). Per lever: its predicted run payoff, its
 * tolerance, and the run's achieved saving, 100 x (1 - after / before),
 * with its interval; whether the saving falls in the lever's band (the
 * payoff, up to its bound, +- the tolerance). Per function of the table:
 * its achieved saving as a share of the before run (its self time's
 * change over the before run's time) next to each lever's predicted
 * saving in it. Which lever was applied the diff cannot know: the verdict
 * names the prediction closest to what the run achieved, and says so when
 * the achieved interval meets the bands of several levers. The formats
 * (render/levers-diff.c) only format it.
 */
#include <stdint.h>
#include "table.h"
#include "../compare/diff.h"
#include "../profile/levers.h"
#include "../util/err.h"

struct view_levers_diff {
	int timed;			/* both sides have time per run: numbers, else a note */
	double before_ns, after_ns;	/* the run's time per run, each side's mean */
	double achieved, achieved_lo, achieved_hi;	/* the run's saving, percent, its interval */
	int tested;			/* the interval is a test's (else lo = hi = achieved) */
	int one_each;			/* one recording a side: the interval is the sampling's */
	/* lever, predicted_pct (a range's word), predicted_hi_pct, tolerance_pct,
	 * achieved_pct, within */
	struct vt_table *rows;
	/* function, before/after ns, achieved_pct, predicted.<lever>, tolerance.<lever> */
	struct vt_table *funcs;
	char verdict[600];
	char note[200];			/* why there are no numbers ("" when timed) */
};

/*
 * The view of lv (the before build's, its cores cores[]) against d;
 * NULL with err when out of memory.
 */
struct view_levers_diff *view_levers_diff__new(const struct lp_levers *lv,
					       const struct cwasm_module *const *cores,
					       const struct cmp_diff *d, struct ap_err *err);
void view_levers_diff__delete(struct view_levers_diff *v);

#endif
