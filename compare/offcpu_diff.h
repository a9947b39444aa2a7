/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_COMPARE_OFFCPU_DIFF_H
#define AOTPERF_COMPARE_OFFCPU_DIFF_H
/*
 * The off-CPU part of a diff (docs/offcpu-diff.md): where both builds'
 * recordings carry off-CPU intervals (profile/offcpu.h), each wasm
 * function's off-CPU time before and after, self and inclusive, its
 * on-CPU time (samples x period) and their sum, the wall time of the
 * function; per side the run's on-CPU, off-CPU and wall time. Functions
 * are paired as the diff pairs them (cores by cmp_diff's pairs, functions
 * by wasm index). A side of several recordings has the mean per recording.
 *
 * The test: off-CPU time is a sum of intervals whose number follows the
 * run's length, not a count of samples, so the share tests of compare/
 * do not apply. What is tested is the mean self interval (one wait)
 * before against after, Welch's t-test over the interval durations
 * (their count, sum and sum of squares), adjusted over the functions
 * tested as the diff adjusts. The change of the total is not tested.
 */
#include <stdint.h>
#include "diff.h"

/* One function's off-CPU row of one recording, or of a side summed. */
struct cmp_oc_row {
	uint32_t core, func;		/* the side's core, local function */
	uint64_t on_ns, on_incl_ns;	/* on-CPU: samples x period, self / inclusive */
	uint64_t off_ns, off_incl_ns;	/* off-CPU, self / inclusive */
	uint64_t intervals;		/* self intervals */
	double off_sq;			/* their squared ns, summed */
};

/* A side's off-CPU data: every recording's rows summed. */
struct cmp_oc_side {
	int has;			/* every recording of the side had off-CPU data */
	uint32_t nwith;			/* recordings that had it */
	uint32_t ncaptures;		/* recordings read */
	uint64_t on_ns, off_ns;		/* every process: on-CPU and off-CPU, summed */
	uint64_t intervals;		/* attributed intervals, summed */
	struct cmp_oc_row *rows;	/* owned */
	size_t nrows, cap;
};

/*
 * Add one recording's rows (n of them), each summed into the side's row of
 * its (core, func); the side's rows stay sorted by it. 0 or -1 (memory).
 */
int cmp_oc_side__add(struct cmp_oc_side *s, const struct cmp_oc_row *rows, size_t n);
void cmp_oc_side__exit(struct cmp_oc_side *s);

/* One side of a function: means per recording (ns). */
struct cmp_oc_val {
	double on_ns, on_incl_ns, off_ns, off_incl_ns, wall_ns;	/* wall = on + off, self */
	uint64_t intervals;		/* summed over the recordings */
	double mean_interval_ns;	/* off_ns / intervals over the recordings; 0: none */
};

struct cmp_oc_func {
	uint32_t pair, wasm_index;
	int64_t local_before, local_after;	/* -1: not in that build */
	const char *name_before, *name_after;	/* borrowed from the modules */
	int64_t func;				/* index into cmp_diff.funcs, -1: no samples */
	struct cmp_oc_val before, after;
	double change_ns, change_incl_ns;	/* after - before, off-CPU self / inclusive */
	double rel_pct;				/* 100 * change_ns / before.off_ns; has_rel */
	int has_rel;
	double wall_change_ns;			/* after - before of wall (self) */
	/* Welch's t-test of the mean self interval */
	int tested;				/* at least 2 intervals each side */
	double stat, df, p, p_adj;
	int significant;
};

/* A side's run: means per recording. */
struct cmp_oc_run {
	double on_ns, off_ns, wall_ns;	/* wall = on + off, every process */
	uint64_t intervals;
};

struct cmp_offcpu {
	struct cmp_oc_run before, after;
	struct cmp_oc_func *funcs;	/* off-CPU time on either side; by |change_ns|, largest first */
	uint32_t nfuncs;
	uint32_t ntested;		/* the adjustment's family */
	double level;
	enum cmp_adjust adjust;
};

/*
 * Both sides have off-CPU data (b->has and a->has): 0 and *out, or -1
 * (AP_ERR_NOMEM). d gives the pairs and the adjustment.
 */
int cmp_offcpu__new(const struct cmp_diff *d, const struct cmp_oc_side *b,
		    const struct cmp_oc_side *a, struct cmp_offcpu **out, struct ap_err *err);
void cmp_offcpu__delete(struct cmp_offcpu *oc);
/* The row of d->funcs[func], or NULL. */
const struct cmp_oc_func *cmp_offcpu__of(const struct cmp_offcpu *oc, uint32_t func);
/*
 * "off-CPU: only the before recordings have off-CPU data (...)": the line
 * saying why off-CPU time is not compared; NULL when both sides have it or
 * no recording does.
 */
const char *cmp_offcpu__one_sided(const struct cmp_oc_side *b, const struct cmp_oc_side *a,
				  char *buf, size_t len);

#endif
