/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_CAPTURES_H
#define AOTPERF_RENDER_CAPTURES_H
/*
 * `aotperf report -i a.data -i b.data ...`: the view of several
 * recordings of one build (view/captures.h) as text (80 columns) and JSON
 * (docs/json.md, "Several recordings").
 */
#include <stdio.h>
#include "../util/err.h"
#include "../view/captures.h"

void render__captures_text(FILE *out, const struct view_captures *v);
int render__captures_json_file(const char *path, const struct view_captures *v,
			       struct ap_err *err);

#endif
