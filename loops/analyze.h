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

#endif
