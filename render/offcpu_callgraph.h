/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_OFFCPU_CALLGRAPH_H
#define AOTPERF_RENDER_OFFCPU_CALLGRAPH_H
/*
 * Call-graph views of off-CPU time (profile/offcpu.h), for report's
 * --cpu-state off|both. Collapsed stacks (--folded): one line per distinct off-CPU stack,
 * "outer;...;innermost wasm;host frame it called;[S] NS" (state S, D, R
 * or other as its own leaf frame), in nanoseconds. With both, the on-CPU
 * stacks (render__folded) follow in nanoseconds too: each node's samples
 * x the recording's mean on-CPU sample period, so one flame graph shows
 * wall time.
 */
#include <stdio.h>
#include "../profile/profile.h"
#include "../util/err.h"

enum render_cpu_state { RENDER_CPU_ON = 0, RENDER_CPU_OFF, RENDER_CPU_BOTH };

/* Parse "on", "off" or "both"; -1 when it is none of them. */
int render__cpu_state_parse(const char *s);

/* Write path (an atomic output file); -1 with err. Needs p->offcpu unless RENDER_CPU_ON. */
int render__folded_state_file(const char *path, const struct profile *p,
			      enum render_cpu_state state, struct ap_err *err);

/*
 * --children --cpu-state off|both: per wasm function inclusive ("Children")
 * and self time in ms, off CPU or wall (on + off), most inclusive first;
 * top 0: all.
 */
void render__offcpu_children(FILE *out, const struct profile *p, enum render_cpu_state state,
			     uint64_t top);
/*
 * --callers / --callees F with --cpu-state off: the off-CPU time of the
 * stacks through F by the wasm function that called F (callers) or that F
 * called (callees; waits in F itself by the host frame it called).
 */
void render__offcpu_edges(FILE *out, const struct profile *p, uint32_t core, uint32_t func,
			  int callers);

#endif
