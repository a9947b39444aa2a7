/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_REPORT_H
#define AOTPERF_RENDER_REPORT_H
/*
 * The report's view (view/report.h) as text and as JSON: the run, the
 * per-core function tables, the samples outside wasm and the classified
 * functions. aotperf report and the dlfilter print through these, so
 * their tables are the same bytes for the same samples. Each front end
 * prints its own header lines (they name its input) and adds its own
 * JSON members through json_extra. Nothing here computes a number: the
 * view has them all.
 */
#include <stdint.h>
#include <stdio.h>
#include "warnings.h"
#include "../profile/profile.h"
#include "../util/json_out.h"
#include "../view/report.h"

struct render_opts {
	/* the call-graph and off-CPU tables' cut (render/callgraph-*.c, offcpu*.c) */
	uint64_t top;			/* rows listed; 0: all */
	double percent_limit;		/* rows under this % of the run are not listed (perf's) */
	uint32_t fa_listed;		/* allocator contributors and unproven frame instructions listed */
	unsigned columns;		/* text width (util/term.h); 0: 80 */
	const char *tool;		/* JSON "tool" */
	render_hint_fn hint;		/* the front end's words for a hint, NULL: none */
	/* members the front end adds at the end of the JSON object */
	void (*json_extra)(struct json_out *j, const struct profile *p, void *ctx);
	void *ctx;
	/* members added at the end of each core's block in cores[] (not the top-level copy) */
	void (*json_core_extra)(struct json_out *j, const struct profile *p, uint32_t core,
				void *ctx);
	void *core_ctx;
};

/* The default table sizes: 20 functions, 20 hottest instructions, 10 frame rows. */
#define RENDER_TOP_DEFAULT 20
#define RENDER_HOTTEST_DEFAULT 20
#define RENDER_FA_LISTED_DEFAULT 10

/* "  total samples  N  event E", "  in wasm code  N  (P% of run)" */
void render__report_run(FILE *out, const struct view_report *v);
/* "  in wasm code        N  (P% of run)" alone (the dlfilter's header has its own first line) */
void render__report_coverage(FILE *out, const struct view_report *v);
/* "  CUT SHORT: read N of M data bytes ...", wrapped at cols; nothing for a whole recording. */
void render__report_cut(FILE *out, const struct view_report *v, size_t cols);
/* "  outside wasm  N  (P% of run)" and its rows; nothing without them. */
void render__report_host_text(FILE *out, const struct view_report *v, unsigned columns);
/* --sort's table. */
void render__report_sorted_text(FILE *out, const struct view_report *v, unsigned columns);
/* Every core's block and function table, then every classified function asked for. */
void render__report_body(FILE *out, const struct view_report *v, const struct render_opts *o);
/* One core's block: name, mapping, samples, its top functions. */
void render__report_core(FILE *out, const struct view_report *v, uint32_t core,
			 const struct render_opts *o);
/* One classified function: header, class table, frame attribution, hottest instructions. */
void render__report_func(FILE *out, const struct view_report *v,
			 const struct view_report_func *f, const struct render_opts *o);

/*
 * The whole JSON document (docs/json.md): schema_version, tool,
 * perf, event; a lone core's keys at the top level; every core under
 * "cores"; outside_wasm; classified_function(s); passes, truncated
 * (perf.data only); warnings; then json_extra's members.
 */
void render__report_json(struct json_out *j, const struct view_report *v,
			 const struct render_opts *o);
/* The same without the opening (schema_version, tool) and closing: for an object already open. */
void render__report_json_members(struct json_out *j, const struct view_report *v,
				 const struct render_opts *o);
/* The same, written atomically to path (util/outfile.h). */
int render__report_json_file(const char *path, const struct view_report *v,
			     const struct render_opts *o, struct ap_err *err);
/*
 * A core's "artifact_target" value: {architecture, abi, format, verified}
 * as its target info says (null where it says nothing), profile, and
 * decoded_as / arch_override (--arch).
 */
void render__json_target(struct json_out *j, const struct cwasm_target *t);

/* How many of n rows the call-graph and off-CPU tables list (render_opts.top). */
uint32_t render__shown(const struct render_opts *o, uint32_t n);

#endif
