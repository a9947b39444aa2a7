/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_U64MAP_H
#define AOTPERF_PROFILE_U64MAP_H
/*
 * Inside profile/: a hash map from 64-bit keys to 32-bit values (open
 * addressing, linear probing, grown at half full), for the call stacks'
 * node, symbol, edge and address lookups.
 */
#include <stdint.h>

struct u64map {
	uint64_t *keys;
	uint32_t *vals;		/* UINT32_MAX: an empty slot */
	uint32_t n, cap;	/* cap: 0 or a power of two */
};

/* 1 and *val when key is there, else 0. */
int u64map__get(const struct u64map *m, uint64_t key, uint32_t *val);
/* Set key to val (val != UINT32_MAX). 0, or -1 when out of memory. */
int u64map__put(struct u64map *m, uint64_t key, uint32_t val);
void u64map__exit(struct u64map *m);

/* A 64-bit mix of a key, for callers that build keys from strings. */
uint64_t u64map__hash_str(uint64_t h, const char *s);

#endif
