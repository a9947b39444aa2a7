/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_OFFCPU_FOLDED_H
#define AOTPERF_RENDER_OFFCPU_FOLDED_H
/*
 * Collapsed stacks of off-CPU time (profile/offcpu.h), for report
 * --folded --cpu-state off|both: one line per distinct off-CPU stack,
 * "outer;...;innermost wasm;host frame it called;[S] NS" (state S, D, R
 * or other as its own leaf frame), in nanoseconds. With both, the on-CPU
 * stacks (render__folded) follow in nanoseconds too: each node's samples
 * x the recording's mean on-CPU sample period, so one flame graph shows
 * wall time.
 */
#include "../profile/profile.h"
#include "../util/err.h"

enum render_cpu_state { RENDER_CPU_ON = 0, RENDER_CPU_OFF, RENDER_CPU_BOTH };

/* Parse "on", "off" or "both"; -1 when it is none of them. */
int render__cpu_state_parse(const char *s);

/* Write path (an atomic output file); -1 with err. Needs p->offcpu unless RENDER_CPU_ON. */
int render__folded_state_file(const char *path, const struct profile *p,
			      enum render_cpu_state state, struct ap_err *err);

#endif
