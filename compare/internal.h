/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_COMPARE_INTERNAL_H
#define AOTPERF_COMPARE_INTERNAL_H
/* Shared inside compare/ only. */
#include <stddef.h>
#include "diff.h"

/* The level of o (0.95 when o is NULL or its level is 0). */
double cmp__level(const struct cmp_opts *o);

/* A side without the thing measured: n captures, share 0 of total samples. */
void cmp__zero_share(struct cmp_share *s, uint32_t n, uint64_t total);

/*
 * The change from b to a and its test (docs/compare.md "Which test"): p_adj
 * is set to p and significant from it; cmp__adjust() revises both over a
 * family.
 */
void cmp__change(const struct cmp_share *b, const struct cmp_share *a, double level,
		 struct cmp_change *ch);
/*
 * The change of a time from b to a and its test (docs/compare.md "Which
 * test": Welch, or the Poisson approximation with one capture a side).
 */
void cmp__change_time(const struct cmp_time *b, const struct cmp_time *a, double level,
		      struct cmp_change *ch);
/* A time change that is not tested (one side only): delta, rel, p 1. */
void cmp__change_time_untested(const struct cmp_time *b, const struct cmp_time *a,
			       struct cmp_change *ch);
/* A side without the thing timed: n captures, time 0. */
void cmp__zero_time(struct cmp_time *t, uint32_t n);

/* A change that is not tested (one side only): points, rel, p 1. */
void cmp__change_untested(const struct cmp_share *b, const struct cmp_share *a,
			  struct cmp_change *ch);

/* Adjust the tested changes of one family (m pointers) and set significant. */
int cmp__adjust(struct cmp_change **chs, size_t m, enum cmp_adjust adj, double level);

/* Pair the cores of two sides (diff.h: struct cmp_pair; only before/after/manifest_idx set). */
int cmp__pair_cores(const struct cmp_side *b, const struct cmp_side *a, struct cmp_pair **out,
		    uint32_t *npairs, struct ap_err *err);

/* A label for a core in messages: "mod<idx>" in a manifest, else its path. */
const char *cmp__core_label(const struct cwasm_module *m);

/* Names found at different wasm indices of two cores (appended to *moves). */
int cmp__find_moves(uint32_t pair, const struct cwasm_module *b, const struct cwasm_module *a,
		    struct cmp_move **moves, uint32_t *nmoves, size_t *cap);

/* Grow *arr (elements of size sz) to hold at least need; 0 or -1. */
int cmp__grow(void **arr, size_t *cap, size_t need, size_t sz);

#endif
