/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_CAPTURES_H
#define AOTPERF_RENDER_CAPTURES_H
/*
 * `aotperf report -i a.data -i b.data ...`: several recordings of one
 * build as the mean and spread of each function's share (compare/diff.h
 * struct cmp_agg), as text (80 columns) and JSON (docs/json.md,
 * "Several recordings").
 */
#include <stdint.h>
#include <stdio.h>
#include "../compare/diff.h"
#include "../util/err.h"

/* How much of one recording was read (docs/damaged-recordings.md). */
struct render_read {
	int truncated;			/* cut short */
	uint64_t bytes_read, bytes_expected;	/* data bytes */
	int authoritative;		/* whole, and every core's mapping unique and consistent */
};

/* A classified function: its class table summed over the recordings. */
struct render_captures_func {
	const char *spec;
	uint32_t core, func;
	uint64_t samples;		/* summed */
	const struct cls_table *t;
};

struct render_captures {
	const char *tool;
	const struct cmp_side *side;	/* cores and recordings (labels, totals) */
	const struct cmp_agg *agg;	/* their aggregate */
	const uint64_t *attributed;	/* per recording: samples in any core (NULL: unknown) */
	const struct render_read *reads; /* per recording (NULL: unknown) */
	const char *event;
	uint64_t top;			/* functions per core; 0: all */
	uint32_t nfuncs;
	const struct render_captures_func *funcs;
};

void render__captures_text(FILE *out, const struct render_captures *r);
int render__captures_json_file(const char *path, const struct render_captures *r,
			       struct ap_err *err);

#endif
