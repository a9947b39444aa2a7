/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_COMPARE_SIDE_H
#define AOTPERF_COMPARE_SIDE_H
/*
 * One side's recordings summed (struct cmp_side, diff.h): its run's
 * samples, a function's self samples, its hottest function. compare,
 * diff and report -i a -i b read a side the same way.
 */
#include <stdint.h>
#include "diff.h"
#include "../cwasm/coreset.h"

/* Every sample of the side's recordings. */
uint64_t cmp_side__total(const struct cmp_side *s);
/* Local function f of core c: its self samples over the recordings (0 past the core). */
uint64_t cmp_side__func_samples(const struct cmp_side *s, uint32_t c, uint32_t f);
/* The function with the most self samples (the first of a tie); -1 when none has any. */
int cmp_side__hottest(const struct cmp_side *s, struct core_func *out);

#endif
