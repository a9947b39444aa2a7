/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_OFFCPU_CALLGRAPH_H
#define AOTPERF_RENDER_OFFCPU_CALLGRAPH_H
/*
 * Call-graph views of off-CPU time (profile/offcpu.h), for report's
 * --cpu-state off|both. Collapsed stacks (--folded): one line per distinct off-CPU stack,
 * "outer;...;innermost wasm;host frame it called;[S] NS" (state S, D, R
 * or other as its own leaf frame), in nanoseconds. With both, the on-CPU
 * stacks (render__folded) follow in nanoseconds too: each node's samples
 * weighed by its samples' periods, so one flame graph shows wall time.
 */
#include <stdio.h>
#include "../profile/profile.h"
#include "../util/err.h"
#include "../view/callgraph.h"

/* Parse "on", "off" or "both" (enum view_cpu_state); -1 when it is none of them. */
int render__cpu_state_parse(const char *s);

/* Write path (an atomic output file); -1 with err. Needs p->offcpu unless VIEW_CPU_ON. */
int render__folded_state_file(const char *path, const struct profile *p,
			      enum view_cpu_state state, struct ap_err *err);

#endif
