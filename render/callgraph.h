/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_CALLGRAPH_H
#define AOTPERF_RENDER_CALLGRAPH_H
/*
 * Call-graph views of a profile's stacks (profile/stacks.h): the
 * call-graph view's formats (inclusive and self per function in perf
 * report --children's columns, a function's callers and callees; numbers
 * and cuts from view/callgraph.h) and the collapsed stacks flamegraph.pl,
 * inferno and speedscope read.
 */
#include <stdint.h>
#include <stdio.h>
#include "../profile/profile.h"
#include "../util/err.h"
#include "../util/json_out.h"

struct view_callgraph;

/*
 * The call-graph views as text from their view (view/callgraph.h): how
 * stacks were read, --children (children 1) in samples or in time, each
 * asked function's callers or callees, fitted to columns (0: 80).
 */
void render__callgraph_text(FILE *out, const struct view_callgraph *v, int children,
			    unsigned columns);
/*
 * JSON members "call_graph", "children" (the rows the text lists),
 * "callers", "callees"; with --cpu-state off or both also "cpu_state",
 * "children_time" (off-CPU or wall ns), "off_cpu_callers", "off_cpu_callees"
 * (docs/json.md).
 */
void render__callgraph_json(struct json_out *j, const struct view_callgraph *v);
/* The same as Markdown sections (children 1: the --children table); 0, or -1 with err. */
int render__callgraph_markdown(FILE *f, const char *path, const struct view_callgraph *v,
			       int children, struct ap_err *err);

/* Collapsed stacks, one line per distinct stack: "outer;...;leaf COUNT". */
int render__folded_file(const char *path, const struct profile *p, struct ap_err *err);
void render__folded(FILE *out, const struct profile *p);
/* A frame's name in a folded line (';' and line breaks become '_'). */
void render__folded_name(FILE *out, const char *s);
/* The frames from the root's child down to stack node n, ';'-separated. */
void render__folded_path(FILE *out, const struct profile *p, uint32_t n);

#endif
