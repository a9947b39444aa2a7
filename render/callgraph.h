/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_CALLGRAPH_H
#define AOTPERF_RENDER_CALLGRAPH_H
/*
 * Call-graph views of a profile's stacks (profile/stacks.h): inclusive
 * ("children") and self samples per function in perf report --children's
 * columns, a function's callers and callees, as text and JSON, and the
 * collapsed stacks flamegraph.pl, inferno and speedscope read.
 */
#include <stdint.h>
#include <stdio.h>
#include "../profile/profile.h"
#include "../util/json_out.h"

/*
 * A stack symbol's name: wasm functions as `aotperf inject --names wasm`
 * names them (local_func_N, with ":<wasm name>" when known and "modM:"
 * in front with several cores), host functions as perf does, fixed kinds
 * by their fixed names.
 */
const char *render__stack_name(const struct profile *p, const struct stack_sym *s, char *buf,
			       size_t len);

/*
 * The symbol a user names: a wasm function spec (cwasm/coreset.h), its
 * full name as above, or a host symbol's name. -1 when none is in a stack.
 */
int64_t render__stack_find(const struct profile *p, const char *spec);

/*
 * Every symbol but the root and the "[caller unknown]" marker, most
 * inclusive first (then most self): *n of them. NULL when out of memory.
 */
uint32_t *render__stack_order(const struct profile *p, uint32_t *n);

/* How stacks were read, and what was lost: a few lines. */
void render__callgraph_summary(FILE *out, const struct profile *p);
/*
 * The --children table: the top symbols (0: all) by inclusive samples,
 * none under percent_limit % of the run.
 */
void render__callgraph_children(FILE *out, const struct profile *p, uint64_t top,
				double percent_limit);
/* SYM's callers (callers = 1) or callees (0), with their samples. */
void render__callgraph_edges(FILE *out, const struct profile *p, uint32_t sym, int callers);

/* JSON members "call_graph" and "children" (top, 0: all). */
void render__callgraph_json(struct json_out *j, const struct profile *p, uint64_t top);
/* JSON member "callers" or "callees": an array with one object per asked symbol. */
void render__callgraph_json_edges(struct json_out *j, const struct profile *p,
				  const uint32_t *syms, uint32_t n, int callers);

/* Collapsed stacks, one line per distinct stack: "outer;...;leaf COUNT". */
int render__folded_file(const char *path, const struct profile *p, struct ap_err *err);
void render__folded(FILE *out, const struct profile *p);
/* A frame's name in a folded line (';' and line breaks become '_'). */
void render__folded_name(FILE *out, const char *s);
/* The frames from the root's child down to stack node n, ';'-separated. */
void render__folded_path(FILE *out, const struct profile *p, uint32_t n);

#endif
