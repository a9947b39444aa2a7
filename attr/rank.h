/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ATTR_RANK_H
#define AOTPERF_ATTR_RANK_H
/* Functions by self samples, for every table that lists the hottest. */
#include <stdint.h>

struct cwasm_module;
struct json_out;

struct attr_ranked {
	uint32_t func;
	uint64_t samples;
};

/*
 * The functions with samples, hottest first, ties by lower index (so every
 * table orders them alike). Caller frees; NULL when out of memory.
 */
struct attr_ranked *attr__rank(const uint64_t *func_samples, uint32_t nfuncs, uint32_t *n);

/*
 * The "top_functions" array of the report JSON (FORMATS.md section 6 keys,
 * plus wasm_func and name): at most top entries, percentages of run_total.
 */
void attr__json_top_functions(struct json_out *j, const struct cwasm_module *m,
			      const struct attr_ranked *r, uint32_t n, uint64_t top,
			      uint64_t run_total);

#endif
