/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_LEVERS_H
#define AOTPERF_VIEW_LEVERS_H
/*
 * The run's lever table (profile/levers.h, docs/levers.md) as a view
 * (docs/views.md): the lines saying what was modelled, one row per lever
 * (most predicted payoff first) with its functions, instructions, samples,
 * payoff and tolerance, the notes (the frame lever's range, the loops a
 * lever is not modelled in), the frame lever against the spill log, and
 * the verdict. The formats (render/levers*.c) only format it; JSON's
 * per-function loops come straight from the table (raw numbers).
 */
#include <stdint.h>
#include "loops.h"
#include "table.h"
#include "../profile/levers.h"
#include "../util/err.h"

#define VIEW_LEVERS_LINE 768

struct view_levers {
	const struct lp_levers *lv;
	const struct profile *p;
	const char *unit;			/* "predicted run payoff", "mean loop saving" */
	char head[VIEW_LEVERS_LINE];		/* what the table covers */
	char model[VIEW_LEVERS_LINE];		/* "model: llvm-mca -mcpu=...; why" */
	double modelled_pct, unmodelled_pct;	/* of the run (0 and 0 without a recording) */
	/* lever, functions, removed, samples, sample_pct, payoff (its word: a range,
	 * "not modelled", "-"), payoff_hi, tolerance, unmodelled loops/share, reason */
	struct vt_table *rows;
	char (*notes)[VIEW_LEVERS_LINE];	/* the frame lever's range, levers not modelled */
	uint32_t nnotes;
	char (*spills)[VIEW_LEVERS_LINE];	/* per function, the frame lever against spill_ld */
	uint32_t nspills;
	char verdict[400];			/* "pays most: ..." */
};

/* The view of lv (p: its profile, for the functions' names); NULL with err when out of memory. */
struct view_levers *view_levers__new(const struct lp_levers *lv, const struct profile *p,
				     struct ap_err *err);
void view_levers__delete(struct view_levers *v);

/*
 * Row r's predicted payoff into columns c (the payoff, its word a range
 * where the model is a bound, "not modelled" or "-"), c + 1 (the bound)
 * and c + 2 (the tolerance, "+-2.1"): the lever table's and diff
 * --levers'. 0, or -1 when out of memory.
 */
int view_levers__put_payoff(struct vt_table *t, uint32_t c, const struct lp_lever_row *r);

#endif
