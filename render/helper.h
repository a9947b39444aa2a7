/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_HELPER_H
#define AOTPERF_RENDER_HELPER_H
/*
 * The upstream helper's outputs (docs/helper-interface.md): its schema-2
 * JSON document and its text, for `aotperf attr`, the drop-in. Only the
 * front end decides what the run found (mapping, gates); this renders it.
 * The pieces report's JSON shares are here too.
 */
#include <stdint.h>
#include <stdio.h>
#include "frames.h"
#include "../profile/profile.h"

struct helper_report {
	const struct profile *p;	/* one core: p->attr.cores[0] */
	const char *arch;		/* --arch */
	const char *perf;		/* as given; NULL in static validation */
	const char *cwasm;		/* as given */
	int authoritative;		/* --authoritative and an automatic exact-size mapping */
	double min_pct;			/* --min-attribution-pct */
	/* the mapping chosen (perf only) */
	uint64_t base, size, page_size, expected_size;
	int map_authoritative;		/* chosen by the exact-size rule, not --base */
	const char *override;		/* --base as typed, or NULL */
	uint64_t top;			/* --top */
	/* the recording was cut short: the data bytes read of those expected */
	int truncated;
	uint64_t bytes_read, bytes_expected;
	const struct profile_func *f;	/* --func, or NULL */
};

/* The whole document, written atomically (util/outfile.h). */
int render__helper_json_file(const char *path, const struct helper_report *r,
			     struct ap_err *err);

/* Text: the two lines before the coverage gate, then the function table, then --func's part. */
void render__helper_text_head(FILE *out, const struct helper_report *r);
void render__helper_text_top(FILE *out, const struct helper_report *r);
void render__helper_text_func(FILE *out, const struct helper_report *r);

/* Shared with report's JSON. */
/* {architecture, abi, format, verified} of m's target info. */
void render__helper_target_json(struct json_out *j, const struct cwasm_module *m);
/* [{base, size}], size descending then base: every executable //anon mapping. */
void render__helper_candidates_json(struct json_out *j, const struct attr_span *c, uint32_t n);
/* The host's page size (the helper's). */
uint64_t render__page_size(void);

#endif
