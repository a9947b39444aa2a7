/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLASSIFY_INTERNAL_H
#define AOTPERF_CLASSIFY_INTERNAL_H
/*
 * Inside classify/: decode/ reduces each instruction to a struct dc_insn
 * (from capstone or from perf annotate text), and one structural pass
 * (classify.c) gives the classes.
 */
#include <stdint.h>
#include "classify.h"
#include "../decode/decode.h"

/*
 * classify.c: classes for nv (address order) of a function starting at
 * lo, into out (which takes the text and sizes).
 */
int cls_classify(const struct cls_roles *roles, const struct dc_vec *nv, uint64_t lo,
		 struct cls_func *out, struct ap_err *err);

#endif
