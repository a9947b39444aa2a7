/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_SHA256_H
#define AOTPERF_UTIL_SHA256_H
#include <stddef.h>
#include <stdint.h>

/* SHA-256 (FIPS 180-4) of a buffer, and its lowercase hex form. */
void ap_sha256(const void *data, size_t len, uint8_t out[32]);
void ap_sha256_hex(const uint8_t digest[32], char hex[65]);
/* For tests: 0 keeps the portable code even where the CPU has SHA instructions. */
void ap_sha256__use_cpu(int yes);

#endif
