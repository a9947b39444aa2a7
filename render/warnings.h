/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_WARNINGS_H
#define AOTPERF_RENDER_WARNINGS_H
/* Warnings (util/err.h) in a report, each with the front end's words for its hint. */
#include "../util/err.h"
#include "../util/json_out.h"

typedef const char *(*render_hint_fn)(enum ap_hint hint);

/* One warning as a JSON string: "MSG" or "MSG; HINT". */
void render__json_warning(struct json_out *j, const struct ap_warning *w, render_hint_fn hint);
/* Every warning of a list, as strings of the array being written. */
void render__json_warnings(struct json_out *j, const struct ap_warnings *ws, render_hint_fn hint);

#endif
