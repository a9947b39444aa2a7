/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_LOOPS_SIDE_H
#define AOTPERF_CLI_LOOPS_SIDE_H
/*
 * A function of several recordings (captures.h) with its hot loops
 * (loops/): decoded and classified from its core, weighed by the samples
 * summed over the recordings. diff builds one per side, compare the WAMR
 * side's; loops/analyze.h models them.
 */
#include "captures.h"
#include "../classify/funcclass.h"
#include "../loops/loops.h"

struct loops_side {
	struct cls_result cls;
	struct lp_func lf;
	int built;
};

/* cf's function of core m; roles as for classify. */
int loops_side__build(struct loops_side *s, const struct cwasm_module *m,
		      const struct capture_func *cf, const char *roles, struct ap_err *err);
void loops_side__exit(struct loops_side *s);

#endif
