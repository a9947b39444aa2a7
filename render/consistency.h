/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_CONSISTENCY_H
#define AOTPERF_RENDER_CONSISTENCY_H
/* A core's samples against its code (attr/consistency.h) in the text and JSON reports. */
#include <stddef.h>
#include <stdio.h>
#include "../attr/attr.h"
#include "../util/json_out.h"

/*
 * How a core's mapping was found and whether its samples fit its code, in
 * the words every format prints for it (text, JSON mapping.how, Markdown,
 * HTML): "exact size, unique", "exact size, copies", "NOT unique: N
 * cores", "pinned by PIN" (", larger than its text"), each followed by ",
 * NOT consistent" when the samples do not fit; "none found". pin: how the
 * front end names a pin ("--base", "base="). Returns buf.
 */
const char *render__mapping_word(const struct attr_core *c, const char *pin, char *buf,
				 size_t len);
/* "  consistency N of M sampled addresses fit the code (P%)", and a NOT line (cols wide) when it fails. */
void render__consistency_text(FILE *out, const struct attr_core *c, size_t cols);
/* "consistency": {checked, consistent, percent, mid_instruction, ..., threshold_pct, ok}, or null. */
void render__consistency_json(struct json_out *j, const struct attr_core *c);

#endif
