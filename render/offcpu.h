/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_OFFCPU_H
#define AOTPERF_RENDER_OFFCPU_H
/*
 * The wall-clock view of report (view/offcpu.h): per process wall, on-CPU
 * and off-CPU time; per wasm function on-CPU, off-CPU (self, by state, and
 * inclusive) and their sum, with the host frame it waited in; by system
 * call. Nothing is written when the profile has no off-CPU view.
 */
#include <stdio.h>
#include "report.h"

void render__offcpu_text(FILE *out, const struct profile *p, const struct render_opts *o);
/* The top-level "off_cpu" member of the report's JSON. */
void render__offcpu_json(struct json_out *j, const struct profile *p, const struct render_opts *o);
/* The same as a Markdown section; 0, or -1 with err. */
int render__offcpu_markdown(FILE *f, const char *path, const struct profile *p,
			    const struct render_opts *o, struct ap_err *err);
/* off_cpu_ns and off_cpu_incl_ns of a function row (0 when it never waited). */
void render__offcpu_json_row(struct json_out *j, const struct profile *p, uint32_t core,
			     uint32_t func);

#endif
