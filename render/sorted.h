/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_SORTED_H
#define AOTPERF_RENDER_SORTED_H
/*
 * aotperf report --sort KEY[,KEY..]: one table of the samples by those
 * keys (profile/sorted.h), as perf report --sort prints it: Overhead,
 * Samples, then a column per key; the most samples first.
 */
#include <stdio.h>
#include "report.h"
#include "../profile/sorted.h"

/* 0, or -1 when out of memory (nothing printed). */
int render__sorted_text(FILE *out, const struct profile *p, const enum profile_sort_key *keys,
			uint32_t nkeys, const struct render_opts *o);

#endif
