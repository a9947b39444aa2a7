/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_PCT_H
#define AOTPERF_UTIL_PCT_H
#include <stdint.h>

/* part as a percentage of whole; 0 when whole is 0. */
static inline double ap_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

#endif
