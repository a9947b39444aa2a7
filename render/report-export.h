/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_REPORT_EXPORT_H
#define AOTPERF_RENDER_REPORT_EXPORT_H
/*
 * The report of a profile (profile/profile.h) for other readers:
 *
 *   HTML      one self-contained page (render/html.h): the report JSON plus
 *             every function of each core, the target, the listings of the
 *             classified functions, the host frames, and the call-stack
 *             tree when the profile has one (docs/html-data.md);
 *   Markdown  GitHub-flavoured tables (render/markdown.h): the run, each
 *             core's top functions, the samples outside wasm, each
 *             classified function's class table and hottest instructions;
 *   pprof     a gzip-compressed profile.proto (render/pprof.h,
 *             docs/pprof.md): one location per sampled wasm instruction and
 *             per host ip, under its callers when the profile has stacks
 *             with their leaves (profile_opts.host too), the event's
 *             sample types.
 *
 * The functions shown closely are the profile's classified ones (the front
 * end adds and classifies them first); pprof wants p->host for the samples
 * outside wasm (profile_opts.host), else they become one [unknown] frame.
 * Written through render/report-events.h (one profile per event); here the
 * Markdown of one profile, into an open stream (name for messages).
 */
#include <stdio.h>
#include "report.h"

int render__report_md(FILE *f, const char *name, const struct profile *p,
		      const struct render_opts *o, struct ap_err *err);

/* The host frames (p->host) summed per (dso, symbol), most samples first. */
struct render_host_row {
	const char *dso;
	const char *sym;	/* NULL: [unknown] */
	uint64_t samples;
};
/* 0 and *rows (malloc()ed, free() it; NULL when none), or -1 out of memory. */
int render__host_rows(const struct profile *p, struct render_host_row **rows, size_t *n);
/*
 * The same in the text report ("outside wasm", the first --top rows and
 * the rest summed; 0, or -1 out of memory) and in the JSON
 * ("outside_wasm": samples, percent_of_run, every row). Nothing without
 * p->host.
 */
int render__report_host_text(FILE *out, const struct profile *p, const struct render_opts *o);
void render__report_host_json(struct json_out *j, const struct profile *p);

#endif
