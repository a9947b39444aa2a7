/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_HTML_OFFCPU_H
#define AOTPERF_RENDER_HTML_OFFCPU_H
/*
 * The off-CPU part of the HTML data document (docs/html-data.md, "Off-CPU
 * time"), for the viewer's on-CPU | off-CPU | wall switch: per core every
 * wasm function's on- and off-CPU nanoseconds, and the off-CPU stacks
 * (profile/offcpu.h) as a tree of nodes in the form of "stacks", in
 * nanoseconds. The report JSON's "off_cpu" (render/offcpu.h) is in the
 * document already: per process wall, on and off.
 */
#include <stdint.h>
#include "../profile/profile.h"
#include "../util/json_out.h"

struct html_offcpu;

/* The tree of p's off-CPU stacks; NULL when out of memory. p->offcpu must be set. */
struct html_offcpu *html_offcpu__new(const struct profile *p);
void html_offcpu__delete(struct html_offcpu *h);

/* The core's "off_cpu_functions" member; nothing when h is NULL. */
void html_offcpu__core_json(const struct html_offcpu *h, struct json_out *j, uint32_t core);
/* The top-level "off_cpu_stacks" member; nothing when h is NULL. */
void html_offcpu__json(const struct html_offcpu *h, struct json_out *j);

#endif
