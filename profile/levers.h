/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_LEVERS_H
#define AOTPERF_PROFILE_LEVERS_H
/*
 * The run's lever table (docs/levers.md): which codegen lever would pay
 * most for the whole run. The functions that hold most of the run's wasm
 * samples are classified, every loop holding a few percent of its
 * function is modelled with llvm-mca on the recording CPU's model (as
 * compiled and per lever, loops.h), and each lever's predicted run payoff
 * is the sum over the modelled loops of (the loop's self samples / the
 * run's samples) x (the loop's predicted saving). Nothing here prints:
 * render/levers*.c writes it, report and diff read it.
 */
#include "../loops/loops.h"
#include "../classify/funcclass.h"
#include "profile.h"

#define LP_LEVERS_SHARE_DEFAULT 90.0	/* functions until they hold this % of wasm samples */
#define LP_LEVERS_FUNCS_DEFAULT 20	/* and at most this many */
#define LP_LEVERS_LOOP_MIN_DEFAULT 3.0	/* loops with this % of their function's samples */
#define LP_LEVERS_MAX_FUNCS 256

struct lp_levers_opts {
	double share;			/* % of the wasm samples the functions hold */
	uint32_t max_funcs;
	double loop_min;		/* % of its function's samples a loop holds to be modelled */
	const char *roles;		/* register-role pins, NULL: inferred */
	/*
	 * The compiler's spill log (spills/spills-log.h), the frame lever
	 * reconciled with it: 1 and *spill_ld when it lists local function
	 * func of core; NULL: no log. The front end reads the log.
	 */
	int (*spill_ld)(const void *log, uint32_t core, uint32_t func, uint64_t *spill_ld);
	const void *spill_log;
};

/* One function of the table. */
struct lp_lever_func {
	uint32_t core, func;
	uint64_t samples;		/* self samples */
	struct cls_result cls;
	struct lp_func lf;
	uint32_t modelled;		/* loops modelled (llvm-mca gave numbers) */
	uint64_t modelled_samples;	/* their self samples */
	/*
	 * Each lever's predicted saving in this function's modelled loops and
	 * its tolerance, % of the run (the rows sum them): what a diff holds
	 * the function's measured change against.
	 */
	double payoff[LP__NLEVERS], tolerance[LP__NLEVERS];
	uint8_t touched[LP__NLEVERS];	/* a modelled loop it touches is counted */
	/* the frame lever against the spill log (opts.spill_ld) */
	int spill_known;		/* the log lists the function */
	uint64_t spill_ld;		/* its spill_ld: reloads the allocator emitted */
	uint32_t frame_loads;		/* frame loads decoded in the whole function */
	uint32_t frame_loads_loops;	/* of them in the modelled loops, the lever's */
};

struct lp_lever_row {
	int lever;			/* enum lp_lever */
	uint32_t functions;		/* functions with a modelled loop it touches */
	uint32_t loops;			/* modelled loops it touches, its saving counted */
	uint32_t removed;		/* instructions it touches in those loops */
	uint64_t samples;		/* samples on them */
	/* predicted run payoff, % of the run's time; hi > lo where the model is a bound */
	double payoff, payoff_hi;
	double tolerance;		/* +- the kernel pairs' agreement, % of the run */
	/* loops whose saving is not modelled, and their share of the run */
	uint32_t unmodelled_loops;
	double unmodelled_share;
	char why[320];			/* why not ("" when all is modelled) */
};

struct lp_levers {
	int static_only;		/* no recording: no run shares */
	uint64_t run_samples;		/* every sample of the run: the payoffs' denominator */
	uint64_t wasm_samples;		/* in the cores' text */
	uint64_t chosen_samples;	/* in the functions of the table */
	uint64_t modelled_samples;	/* the modelled loops' self samples */
	double share, loop_min;		/* as applied */
	uint32_t max_funcs;
	struct lp_lever_func *funcs;	/* hottest first */
	uint32_t nfuncs;
	struct lp_lever_row rows[LP__NLEVERS];	/* most payoff first */
	struct lp_model_info model;	/* the tool and -mcpu (the first function's) */
	int spills_given;		/* opts.spill_ld was given */
};

/*
 * The lever table of p's run (a recording's: the hottest functions; a
 * static profile's: the largest functions with loops, no shares). 0, or -1
 * with err (memory, a function that does not decode).
 */
int lp_levers__run(struct lp_levers *lv, const struct profile *p, const struct lp_levers_opts *o,
		   struct ap_err *err);
void lp_levers__exit(struct lp_levers *lv);
void lp_levers__delete(struct lp_levers *lv);

/* The row of lever l. */
const struct lp_lever_row *lp_levers__row(const struct lp_levers *lv, int lever);
/* The modelled loops' share of the run, percent (inline: the renderers link no levers.o). */
static inline double lp_levers__modelled_pct(const struct lp_levers *lv)
{
	return lv->run_samples ? 100.0 * (double)lv->modelled_samples / (double)lv->run_samples : 0;
}
#endif
