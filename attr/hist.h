/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ATTR_HIST_H
#define AOTPERF_ATTR_HIST_H
/*
 * Samples per (core, text offset): the per-instruction counts a class
 * table or an annotated listing needs, filled while samples are
 * attributed (aotperf report and the dlfilter alike). Distinct sampled
 * ips are few next to the samples, so an open-addressing hash.
 */
#include <stddef.h>
#include <stdint.h>

struct attr_hist {
	uint64_t *keys;		/* core << 40 | offset, +1 so 0 is empty */
	uint64_t *counts;
	size_t cap, n;		/* n distinct (core, offset) pairs */
	uint64_t lost;		/* samples not counted for want of memory */
};

/* Count one sample; 0, or -1 when out of memory (counted in lost; the table stays valid). */
int attr_hist__add(struct attr_hist *h, uint32_t core, uint64_t off);
/* Add every count of from to h (several recordings summed); 0, or -1 when out of memory. */
int attr_hist__merge(struct attr_hist *h, const struct attr_hist *from);
uint64_t attr_hist__get(const struct attr_hist *h, uint32_t core, uint64_t off);
/* Samples in [off, off + len) of core: perf's ip is an instruction's first byte, but be exact. */
uint64_t attr_hist__sum(const struct attr_hist *h, uint32_t core, uint64_t off, uint64_t len);
void attr_hist__exit(struct attr_hist *h);

#endif
