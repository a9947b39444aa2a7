/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_COMPARE_DIFF_H
#define AOTPERF_COMPARE_DIFF_H
/*
 * Comparing profiles: two builds of the same wasm (before/after a codegen
 * change), each side one or several captures, and several captures of
 * one build (their mean and spread). No perf.data and no command-line
 * knowledge: the caller hands over, per capture, the self (and optionally
 * inclusive) samples of every local function of every core and the run's
 * total, e.g. from attr_result (attr/attr.h): cores[c].func_samples and
 * total_samples.
 *
 * Rules, formulas and limits: docs/compare.md. In short:
 *  - cores are paired by manifest idx when every core of both sides has
 *    one, else by position;
 *  - functions by wasm function index (local_func + the core's
 *    import_func_count), never by address or size; names only check:
 *    a different name at one index is a rename, a name found at another
 *    index is a move;
 *  - a share is samples / all samples of that capture, in percent; a side
 *    of several captures has the mean of the per-capture shares;
 *  - one capture each: two-proportion z-test; at least two each: Welch's
 *    t-test on the per-capture shares; one against several: Welch with
 *    the binomial variance for the single capture; p-values adjusted over
 *    the functions tested (Holm by default).
 *  - time: where every capture gives its samples' periods summed (the
 *    event's period per sample; ns of CPU time for cpu-clock), each
 *    function's time per run is the mean over the captures of its
 *    periods summed; two captures or more a side: Welch's t-test on the
 *    per-capture times; one capture a side: the normal approximation of
 *    Poisson counts (a mean time T from S samples has variance T^2 / S);
 *    one against several: Welch with that variance for the single one.
 *
 * Percent everywhere: shares in percent (0..100), changes in percentage
 * points ("points") and relative percent. No value is NAN or infinite:
 * undefined ones have a flag saying so.
 */
#include <stdint.h>
#include "../classify/classify.h"
#include "../cwasm/cwasm.h"
#include "../util/err.h"

/* ---- input ---- */

/* One recording attributed to the cores of its side. */
struct cmp_capture {
	const char *label;		/* e.g. the perf.data path: names it in messages */
	uint64_t total;			/* every selected sample of the recording (> 0) */
	const uint64_t *const *self;	/* [ncores] -> [mods[c]->nfuncs] self samples */
	const uint64_t *const *incl;	/* NULL, or [ncores] -> [nfuncs] samples with the
					 * function anywhere on the stack (call graphs) */
	/*
	 * Time: the same samples weighed by their periods (attr_sample_period,
	 * attr/attr.h), in the event's unit (ns for cpu-clock). total_period
	 * 0 or self_period NULL: no time (shares only).
	 */
	uint64_t total_period;		/* every selected sample's period, summed */
	const uint64_t *const *self_period;	/* NULL, or [ncores] -> [nfuncs] */
	const uint64_t *const *incl_period;	/* NULL, or as incl */
};

/* One build (its cores) and its captures (repeated runs of that build). */
struct cmp_side {
	const char *label;		/* "before", a file name: for messages */
	uint32_t ncores;
	const struct cwasm_module *const *mods; /* borrowed; manifest_idx pairs cores */
	uint32_t ncaptures;		/* >= 1 */
	const struct cmp_capture *captures;
};

enum cmp_adjust {
	CMP_ADJ_HOLM = 0,		/* default */
	CMP_ADJ_BONFERRONI,
	CMP_ADJ_NONE,
};

struct cmp_opts {
	double level;			/* confidence level; 0 means 0.95 */
	enum cmp_adjust adjust;
};

/* ---- one side, aggregated (also `report -i a -i b ...`) ---- */

/* A share on one side over its n captures (percent of each capture's run). */
struct cmp_share {
	uint32_t n;			/* captures */
	double mean;			/* mean of the per-capture shares */
	double sd;			/* their sample standard deviation (n - 1); 0 if n < 2 */
	double min, max;		/* smallest and largest per-capture share */
	uint64_t samples;		/* summed over the captures */
	uint64_t total;			/* the captures' totals, summed */
};

/* A time on one side over its n captures: the periods summed per capture. */
struct cmp_time {
	uint32_t n;			/* captures */
	double mean;			/* mean of the per-capture times (the event's unit) */
	double sd;			/* their sample standard deviation; 0 if n < 2 */
	double min, max;
	uint64_t samples;		/* the samples behind it, summed over the captures */
	uint64_t period;		/* the periods, summed over the captures */
};

struct cmp_agg_core {
	const struct cwasm_module *mod;	/* borrowed */
	struct cmp_share *self;		/* [mod->nfuncs] */
	struct cmp_share *incl;		/* [mod->nfuncs], NULL unless every capture has it */
	struct cmp_share core;		/* samples in this core's functions */
	struct cmp_time *self_time;	/* [mod->nfuncs], NULL unless has_time */
	struct cmp_time *incl_time;	/* [mod->nfuncs], NULL unless has_time and incl */
	struct cmp_time core_time;
	uint32_t *rank;			/* local functions with samples, by mean self share,
					 * hottest first (ties: lower index first) */
	uint32_t nranked;
};

struct cmp_agg {
	uint32_t ncaptures, ncores;
	struct cmp_agg_core *cores;	/* [ncores], the side's order */
	struct cmp_share wasm;		/* samples in any core's functions */
	int has_incl;			/* every core has incl */
	int has_time;			/* every capture has self_period and total_period > 0 */
	struct cmp_time wasm_time;	/* time in any core's functions */
	struct cmp_time run_time;	/* every selected sample: the run's CPU time */
};

/* Aggregate a side's captures: 0 and *out, or -1 (AP_ERR_INPUT, AP_ERR_NOMEM). */
int cmp_agg__new(const struct cmp_side *side, struct cmp_agg **out, struct ap_err *err);
void cmp_agg__delete(struct cmp_agg *a);

/* ---- the change of one share ---- */

enum cmp_test {
	CMP_TEST_NONE = 0,		/* not tested: only one side has the function */
	CMP_TEST_Z,			/* two-proportion z-test (pooled counts) */
	CMP_TEST_WELCH,			/* Welch's t-test on per-capture shares or times */
	CMP_TEST_POISSON,		/* times, one capture a side: normal approximation
					 * of Poisson counts */
};

/* The change of a share or a time, in the metric's unit. */
struct cmp_change {
	double delta;			/* after.mean - before.mean: percentage points for a
					 * share, the event's unit (ns) for a time */
	double rel_pct;			/* 100 * delta / before.mean; valid if has_rel */
	int has_rel;			/* before.mean > 0 */
	enum cmp_test test;
	double stat;			/* z or t */
	double df;			/* Welch's degrees of freedom; 0 for z or none */
	double p;			/* two-sided p-value, unadjusted (1 when not tested) */
	double p_adj;			/* adjusted over its family (= p outside a family) */
	double ci_lo, ci_hi;		/* interval of delta at the level (0 when not tested) */
	int significant;		/* tested and p_adj < 1 - level */
};

/* A share before, after, and its change. */
struct cmp_metric {
	int valid;			/* 0: no data (inclusive counts absent) */
	struct cmp_share before, after;
	struct cmp_change ch;
};

/* A time before, after, and its change. */
struct cmp_tmetric {
	int valid;			/* 0: no data (no periods, or inclusive absent) */
	struct cmp_time before, after;
	struct cmp_change ch;
};

/* ---- the diff of two sides ---- */

/* Two cores paired; a core only one side has is a pair with -1 on the other. */
struct cmp_pair {
	int before, after;		/* core index in each side, -1 when absent */
	int manifest_idx;		/* the cores' manifest idx, -1 when paired by position */
	struct cmp_metric core;		/* the share of the run inside the core */
	struct cmp_tmetric core_time;	/* the time inside the core */
	uint32_t nmatched;		/* wasm indices local on both sides */
	uint32_t nadded, nremoved;	/* local only after / only before */
};

enum cmp_status {
	CMP_MATCHED = 0,		/* same wasm index on both sides, names agree or absent */
	CMP_RENAMED,			/* same wasm index, both named, names differ */
	CMP_ADDED,			/* a local function only after */
	CMP_REMOVED,			/* a local function only before */
};

/* One function (by wasm index) of one pair. */
struct cmp_func {
	uint32_t pair;			/* index into cmp_diff.pairs */
	uint32_t wasm_index;
	enum cmp_status status;
	int64_t local_before, local_after; /* local_func on each side, -1 when absent */
	const char *name_before, *name_after; /* borrowed from the modules; NULL: none */
	uint32_t size_before, size_after;  /* code bytes (0 when absent) */
	struct cmp_metric self;		/* self share */
	struct cmp_metric incl;		/* inclusive share; valid when both sides have it */
	struct cmp_tmetric self_time;	/* time per run, self; valid when both have time */
	struct cmp_tmetric incl_time;	/* inclusive; valid with incl and time */
};

/* A name at wasm index wasm_before before and at wasm_after after (same pair). */
struct cmp_move {
	uint32_t pair;
	const char *name;		/* borrowed */
	uint32_t wasm_before, wasm_after;
};

struct cmp_diff {
	const char *label_before, *label_after; /* the sides' labels (borrowed) */
	double level;			/* the confidence level used */
	enum cmp_adjust adjust;
	struct cmp_agg *before, *after;	/* owned: each side's aggregate */
	uint32_t npairs;
	struct cmp_pair *pairs;
	struct cmp_metric wasm;		/* the share of the run in any core's functions */
	int has_time;			/* both sides have times */
	struct cmp_tmetric wasm_time;	/* time in any core's functions */
	struct cmp_tmetric run_time;	/* the run's time (every selected sample) */
	/*
	 * Functions with samples on either side (self or inclusive), and every
	 * renamed, added or removed one; sorted by |self.ch.delta|, largest
	 * first (ties: pair, then wasm index).
	 */
	uint32_t nfuncs;
	struct cmp_func *funcs;
	uint32_t ntested_self, ntested_incl; /* the family sizes of the adjustment */
	uint32_t ntested_self_time, ntested_incl_time; /* the time families' */
	/* every rename, addition and removal, as indices into funcs, wasm order */
	uint32_t nrenamed, nadded, nremoved;
	uint32_t *renamed, *added, *removed;
	uint32_t nmoves;		/* names found at another wasm index */
	struct cmp_move *moves;
	char **warnings;		/* e.g. "most names moved: not the same wasm" */
	uint32_t nwarnings;
};

/*
 * Diff two sides (o may be NULL: defaults). 0 and *out, or -1 with err
 * (AP_ERR_INPUT naming the capture: no samples, counts above the total,
 * cores that do not line up; AP_ERR_NOMEM).
 */
int cmp_diff__new(const struct cmp_side *before, const struct cmp_side *after,
		  const struct cmp_opts *o, struct cmp_diff **out, struct ap_err *err);
void cmp_diff__delete(struct cmp_diff *d);
/*
 * Before any capture is read: the core of `to` that core `core` of `from`
 * pairs with under cmp_diff__new's rule (manifest idx when every core of
 * both has one, else position), or -1. For a function named on one build
 * (its wasm index then names it on the other).
 */
int cmp_core__paired(const struct cwasm_module *const *from, uint32_t nfrom,
		     const struct cwasm_module *const *to, uint32_t nto, uint32_t core);
/* The pair holding core `core` of the before (after = 0) or after (after = 1) side, or -1. */
int cmp_diff__pair_of(const struct cmp_diff *d, int after, uint32_t core);
/* The entry of funcs for (pair, wasm_index), or -1 (no samples and matched, or no such). */
int64_t cmp_diff__find(const struct cmp_diff *d, uint32_t pair, uint32_t wasm_index);

/* ---- the gate (--fail-if-slower) ---- */

struct cmp_gate_target {
	uint32_t pair, wasm_index;
};

struct cmp_gate_opts {
	double pct;			/* fail when slower by more than pct percent (>= 0) */
	int by_share;			/* judge shares (runs of unequal work); else time */
	int whole_wasm;			/* judge the wasm share (time) instead of functions */
	/* the failure line's time unit: time / unit_scale, in unit (e.g. 1e6, "ms"); 0, NULL: raw */
	double unit_scale;
	const char *unit;
	uint32_t ntargets;		/* functions to judge; 0: the hottest before */
	const struct cmp_gate_target *targets;
};

struct cmp_gate_check {
	uint32_t pair, wasm_index;	/* meaningless for the whole-wasm check */
	int64_t func;			/* index into cmp_diff.funcs, -1 for the whole wasm */
	struct cmp_metric m;		/* its share; with by_share m.ch.p_adj is adjusted
					 * over the targets */
	struct cmp_tmetric t;		/* its time; adjusted so unless by_share */
	const struct cmp_change *judged; /* &m.ch or &t.ch: what grew and slower mean */
	int grew;			/* delta > 0 and (rel_pct > pct, or before was 0) */
	int slower;			/* grew and significant (p_adj < 1 - level) */
};

struct cmp_gate {
	double pct;
	int by_share;			/* judged shares; else times */
	uint32_t nchecks;
	struct cmp_gate_check *checks;	/* owned: free with cmp_gate__exit() */
	int failed;			/* any check slower */
};

/*
 * Judge the diff: 0 when nothing is slower, -1 with AP_ERR_GATE (and the
 * first slower check in one line) when something is, -1 with AP_ERR_INPUT
 * for a target that is not in both builds, a negative pct, or times asked
 * of a diff without them. *g is filled in both gate outcomes.
 */
int cmp_diff__gate(const struct cmp_diff *d, const struct cmp_gate_opts *o,
		   struct cmp_gate *g, struct ap_err *err);
void cmp_gate__exit(struct cmp_gate *g);

/* ---- class tables of one function before/after (the --func view) ---- */

struct cmp_cls_row {
	uint32_t static_before, static_after;	/* instructions of the class */
	int64_t static_change;			/* after - before */
	struct cmp_metric share;		/* percent of the function's samples */
};

struct cmp_cls_diff {
	int tested;			/* 0: a table holds percentages only (no counts) */
	uint64_t total_before, total_after;	/* the function's samples */
	struct cmp_cls_row cls[CLS__COUNT];	/* indexed by enum cls_class */
	uint32_t order[CLS__COUNT];	/* classes by |share.ch.delta|, largest first */
	uint32_t ntested;		/* classes in the adjustment family */
};

/*
 * From two class tables of one function (classify/classify.h). Sampled
 * shares are tested like functions (z-test, adjusted over the classes
 * with samples); several captures: sum their tables first. 0, or -1
 * (AP_ERR_NOMEM).
 */
int cmp_cls__diff(const struct cls_table *before, const struct cls_table *after,
		  const struct cmp_opts *o, struct cmp_cls_diff *out, struct ap_err *err);

#endif
