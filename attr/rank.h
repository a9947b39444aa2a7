/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ATTR_RANK_H
#define AOTPERF_ATTR_RANK_H
/* Functions by self samples, for every table that lists the hottest. */
#include <stdint.h>

struct attr_ranked {
	uint32_t func;
	uint64_t samples;
};

/*
 * The functions with samples, hottest first, ties by lower index (so every
 * table orders them alike). Caller frees; NULL when out of memory.
 */
struct attr_ranked *attr__rank(const uint64_t *func_samples, uint32_t nfuncs, uint32_t *n);

#endif
