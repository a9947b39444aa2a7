/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_HELPER_H
#define AOTPERF_RENDER_HELPER_H
/*
 * The upstream helper's outputs (docs/helper-interface.md): its schema-2
 * JSON document and its text, for `aotperf attr`, the drop-in, from the
 * helper view (view/frames.h). Only the front end decides what the run
 * found (mapping, gates); this renders it. The pieces report's JSON shares
 * are here too.
 */
#include <stdint.h>
#include <stdio.h>
#include "frames.h"
#include "../profile/profile.h"

struct view_helper;

/* The whole document, written atomically (util/outfile.h). */
int render__helper_json_file(const char *path, const struct view_helper *v, struct ap_err *err);

/* Text: the two lines before the coverage gate, then the function table, then --func's part. */
void render__helper_text_head(FILE *out, const struct view_helper *v);
void render__helper_text_top(FILE *out, const struct view_helper *v);
void render__helper_text_func(FILE *out, const struct view_helper *v);

/* Shared with report's JSON. */
/* {architecture, abi, format, verified} of m's target info. */
void render__helper_target_json(struct json_out *j, const struct cwasm_module *m);
/* [{base, size}], size descending then base: every executable //anon mapping. */
void render__helper_candidates_json(struct json_out *j, const struct attr_span *c, uint32_t n);
/* The host's page size (the helper's). */
uint64_t render__page_size(void);

#endif
