/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PLUGIN_HIST_H
#define AOTPERF_PLUGIN_HIST_H
/*
 * Samples per (core, text offset): the per-instruction counts the class
 * table needs. Distinct sampled ips are few, so an open-addressing hash.
 */
#include <stddef.h>
#include <stdint.h>

struct hist {
	uint64_t *keys;		/* core << 40 | offset, +1 so 0 is empty */
	uint64_t *counts;
	size_t cap, n;
};

/* 0, or -1 when out of memory (the count is lost, the table stays valid). */
int hist__add(struct hist *h, uint32_t core, uint64_t off);
uint64_t hist__get(const struct hist *h, uint32_t core, uint64_t off);
void hist__exit(struct hist *h);

#endif
