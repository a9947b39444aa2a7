/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_LOOPS_FIND_H
#define AOTPERF_LOOPS_FIND_H
/* Inside loops/: the loops of blocks cfg.c made (find.c). */
#include "loops.h"

/* lf's loops, their classes and samples (parallel to f->insns, NULL: static), hottest first. */
int lp_func__find_loops(struct lp_func *lf, const struct cls_func *f, const uint64_t *samples,
			struct ap_err *err);

struct dc_vec;
/* lf->icall: the call_indirect sequences of f (decoded again as nv), icall.c. */
int lp_icall__mark(struct lp_func *lf, const struct dc_vec *nv, const struct cls_func *f,
		   struct ap_err *err);

#endif
