/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_REPORT_EXPORT_H
#define AOTPERF_RENDER_REPORT_EXPORT_H
/*
 * The report's view (view/report.h) for other readers:
 *
 *   HTML      one self-contained page (render/html.h) whose data document
 *             is the report's JSON document with what the page draws
 *             besides: every function of each core, the listings of the
 *             classified functions, the call-stack tree when the profile
 *             has one (docs/html-data.md);
 *   Markdown  GitHub-flavoured tables (render/markdown.h): the run, each
 *             core's top functions, the samples outside wasm, each
 *             classified function's class table and hottest instructions;
 *   pprof     a gzip-compressed profile.proto (render/pprof.h,
 *             docs/pprof.md): one location per sampled wasm instruction and
 *             per host ip, under its callers when the profile has stacks
 *             with their leaves (profile_opts.host too), the event's
 *             sample types.
 *
 * The functions shown closely are the view's classified ones (the pages
 * also those the front end picked for them: view_report_func.asked 0);
 * pprof wants p->host for the samples outside wasm (profile_opts.host),
 * else they become one [unknown] frame. The FILE variants write to an
 * open stream (name for messages); the path variants write atomically
 * (util/outfile.h), nothing left on failure.
 */
#include <stdio.h>
#include "report.h"

int render__report_html(FILE *f, const char *name, const struct view_report *v,
			const struct render_opts *o, struct ap_err *err);
int render__report_html_file(const char *path, const struct view_report *v,
			     const struct render_opts *o, struct ap_err *err);

int render__report_md(FILE *f, const char *name, const struct view_report *v,
		      const struct render_opts *o, struct ap_err *err);
int render__report_md_file(const char *path, const struct view_report *v,
			   const struct render_opts *o, struct ap_err *err);

int render__report_pprof(FILE *f, const char *name, const struct view_report *v,
			 const struct render_opts *o, struct ap_err *err);
int render__report_pprof_file(const char *path, const struct view_report *v,
			      const struct render_opts *o, struct ap_err *err);

/* The JSON members of the HTML page's document: the report's, with the pages' functions. */
void render__report_page_members(struct json_out *j, const struct view_report *v,
				 const struct render_opts *o);

#endif
