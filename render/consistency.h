/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_CONSISTENCY_H
#define AOTPERF_RENDER_CONSISTENCY_H
/* A core's samples against its code (attr/consistency.h) in the text and JSON reports. */
#include <stddef.h>
#include <stdio.h>
#include "../attr/attr.h"
#include "../util/json_out.h"

/* "  consistency N of M sampled addresses fit the code (P%)", and a NOT line (cols wide) when it fails. */
void render__consistency_text(FILE *out, const struct attr_core *c, size_t cols);
/* "consistency": {checked, consistent, percent, mid_instruction, ..., threshold_pct, ok}, or null. */
void render__consistency_json(struct json_out *j, const struct attr_core *c);

#endif
