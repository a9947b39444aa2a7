/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_COMPARE_LOOPS_SIDE_H
#define AOTPERF_COMPARE_LOOPS_SIDE_H
/*
 * A function of several recordings with its hot loops (loops/): decoded
 * and classified from its core, weighed by its instructions' samples
 * summed over the recordings. diff builds one per side, compare the WAMR
 * side's; loops/analyze.h models them.
 */
#include <stdint.h>
#include "../classify/funcclass.h"
#include "../loops/loops.h"

struct cmp_loops_side {
	struct cls_result cls;
	struct lp_func lf;
	int built;
};

/*
 * Local function func of core m; insn_samples (NULL: none) per instruction
 * of the recordings' decode, ninsns of them; roles as for classify.
 */
int cmp_loops_side__build(struct cmp_loops_side *s, const struct cwasm_module *m, uint32_t func,
			  const uint64_t *insn_samples, uint32_t ninsns, const char *roles,
			  struct ap_err *err);
void cmp_loops_side__exit(struct cmp_loops_side *s);

#endif
