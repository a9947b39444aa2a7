/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_LOOPS_ANALYZE_H
#define AOTPERF_LOOPS_ANALYZE_H
/*
 * The loops of every classified function of a profile (p->funcs[i].loops)
 * and, with model, their llvm-mca model on the CPU that recorded
 * (the recording's cpuid; this machine's when there is none).
 */
#include "../profile/profile.h"

int lp__profile(struct profile *p, int model, struct ap_err *err);

/*
 * Model functions built apart from a profile (diff's sides, compare's two
 * engines): lfs[i] decoded as fs[i], all on the CPU that recorded perfdata
 * (NULL or no cpuid: this machine), one llvm-mca child per CPU in
 * parallel. Without llvm-mca each lfs[i]->model.note says how to get it.
 */
int lp__model(struct lp_func *const *lfs, const struct cls_func *const *fs, uint32_t n,
	      const char *perfdata, struct ap_err *err);

/*
 * The frame lever's reach with the compiler's frame-attribution sidecar fr:
 * lf->frame_keep marks the frame accesses it calls no allocator spill.
 */
struct frames;
int lp_func__frame_origins(struct lp_func *lf, const struct cls_func *f, const struct frames *fr,
			   struct ap_err *err);

#endif
