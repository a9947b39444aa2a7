/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_LOOPS_ANALYZE_H
#define AOTPERF_LOOPS_ANALYZE_H
/*
 * What a built lp_func needs beyond its blocks and loops: the llvm-mca
 * model of its hottest loops on the CPU that recorded (the recording's
 * cpuid; this machine's when there is none), and which frame accesses the
 * frame lever may remove. profile/loops.c applies both to a profile.
 */
#include "loops.h"
#include "../frames/frames.h"

/*
 * Model functions built apart from a profile (diff's sides, compare's two
 * engines): lfs[i] decoded as fs[i], all on the CPU that recorded them
 * (its cpuid and cpudesc, a profile's; NULL or "": this machine), one
 * llvm-mca child per CPU in parallel. Without llvm-mca each
 * lfs[i]->model.note says how to get it.
 */
int lp__model(struct lp_func *const *lfs, const struct cls_func *const *fs, uint32_t n,
	      const char *cpuid, const char *cpudesc, struct ap_err *err);

/* Mark in lf the frame accesses of f that fr does not call allocator spills. */
int lp_func__keep_frames(struct lp_func *lf, const struct cls_func *f, const struct frames *fr,
			 struct ap_err *err);

#endif
