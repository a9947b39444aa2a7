/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_LOOPS_H
#define AOTPERF_VIEW_LOOPS_H
/*
 * A classified function's hot loops and what each lever would buy on the
 * hottest (loops/loops.h), as a view (docs/views.md): the loops table
 * with each loop's share of the function and its top classes, the
 * hottest loop's instructions with their share of the loop, its
 * what-if table by predicted payoff, and the verdict: the levers in
 * payoff order with their shares, and whether the best pays. payoff = 1 -
 * cycles with the lever / cycles as compiled (loops/ models them,
 * lp_loop__payoff); a lever whose saving is not modelled there (a
 * br_table's dispatch) is listed "n/m" with the reason, out of the verdict. The
 * formats (render/loops*.c) only format it.
 */
#include <stdint.h>
#include "table.h"
#include "../loops/loops.h"
#include "../util/err.h"

#define VIEW_LOOPS_LISTED 5		/* loops the tables list */
#define VIEW_LOOP_INSNS_LISTED 64	/* instructions of the hottest loop the text lists */
#define VIEW_LEVER_PAYS 2.0		/* a lever under this payoff (percent) does not pay */

/* A lever that removes instructions from the hottest loop, in payoff order. */
struct view_loop_pay {
	int lever;			/* enum lp_lever */
	double sample_pct;		/* the loop's samples in what it touches */
	double payoff;			/* predicted, percent of the loop's cycles */
};

struct view_loops {
	const struct lp_func *lf;
	const struct cls_func *f;	/* the function's decode */
	int sampled;			/* the function has samples: shares are of them */
	/* loop, header, depth, blocks, insns, samples, %func, top classes */
	struct vt_table *loops;
	uint32_t loops_more;		/* loops not listed */
	/* the hottest loop: samples, %loop, offset, class, instruction, a trap block's tag */
	struct vt_table *listing;
	uint32_t listing_more;		/* its instructions not listed */
	/* per loop (JSON): share of the function; per lever its sample share and payoff */
	double *loop_pct;
	double (*lever_pct)[LP__NLEVERS], (*payoff)[LP__NLEVERS];
	/* the hottest loop's model (lf->model.asked, a tool, and numbers) */
	int modelled;
	struct vt_table *whatif;	/* lever, removed, cycles/iter, payoff, %samples, model */
	struct view_loop_pay pays[LP__NLEVERS];
	uint32_t npays;
	int pays_most;			/* pays[0] pays (VIEW_LEVER_PAYS or more) */
	/* levers touching the hottest loop whose saving is not modelled (l->lever[].not_modelled) */
	int not_modelled[LP__NLEVERS];
	uint32_t nnot_modelled;
	const char *no_verdict;		/* why no lever is claimed (the class table's), or NULL */
};

/*
 * The view of lf (f its decode, insn_samples parallel to f->insns or
 * NULL; no_verdict: the class table's); NULL with err when out of memory.
 */
struct view_loops *view_loops__new(const struct lp_func *lf, const struct cls_func *f,
				   const uint64_t *insn_samples, const char *no_verdict,
				   struct ap_err *err);
void view_loops__delete(struct view_loops *v);

/* A lever in the verdicts' words: "bounds checks", "frame loads/stores", ... */
const char *view__lever_words(int lever);

#endif
