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

/* What one core's JSON block reports (aotperf report and the dlfilter). */
struct attr_json_core {
	const struct cwasm_module *mod;
	uint64_t run_total;       /* samples of the run */
	uint64_t samples;         /* in this core's text */
	uint32_t nmappings;       /* 0: text_base and mapping.size are null */
	uint64_t first_base, first_len;
	int authoritative;
	uint64_t override;        /* the --base / base= pin, 0 = null */
	const struct attr_ranked *ranked;
	uint32_t nranked;
	uint64_t top;             /* top_functions entries at most */
};

/*
 * The members of one core's block of the report JSON: cwasm, core,
 * module_idx, cwasm_sha256, text_base, text_size, function_count,
 * import_function_count, total_samples, attributed_samples,
 * attribution_coverage_pct, mapping {...}, top_functions [...].
 */
void attr__json_core(struct json_out *j, const struct attr_json_core *c);

#endif
