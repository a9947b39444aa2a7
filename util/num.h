/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_NUM_H
#define AOTPERF_UTIL_NUM_H
#include <stdint.h>

/* A whole number in base (10, 16), strictly: no sign, no trailing text ("12x"). 0 or -1. */
int ap_parse_u64(const char *s, int base, uint64_t *out);

#endif
