/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_ANNOTATE_H
#define AOTPERF_RENDER_ANNOTATE_H
/*
 * What `aotperf classify` and `aotperf annotate` print of perf annotate's
 * listings (classify/annotate.h): per symbol how it was decoded and its
 * samples placed, then its class table and hottest instructions
 * (render/classes.h), as text and as JSON.
 */
#include <stdint.h>
#include <stdio.h>
#include "../util/err.h"

struct cls_annot;
struct json_out;

/* The table of every symbol, top hottest instructions each; 0, or -1 with err. */
int render__annot_print(FILE *out, const struct cls_annot *a, uint32_t top, struct ap_err *err);
/* A whole JSON report {schema_version, tool, input, functions}, written atomically. */
int render__annot_write_json(const char *path, const char *tool, const char *input,
			     const struct cls_annot *a, uint32_t top, struct ap_err *err);
/* {"functions": [...]} members for one JSON report (caller opens the object); 0, or -1. */
int render__annot_json(struct json_out *j, const struct cls_annot *a, uint32_t top,
		       struct ap_err *err);

#endif
