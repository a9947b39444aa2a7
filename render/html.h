/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_HTML_H
#define AOTPERF_RENDER_HTML_H
/*
 * The HTML report: one self-contained file (no network, no external
 * script, style or font; a Content-Security-Policy that allows only the
 * inlined viewer) holding the data document (docs/html-data.md) in a
 * <script type="application/json"> block and the viewer
 * (render/html/viewer.js, viewer.css, inlined at build time).
 *
 * The document is checked on the way in (one JSON object, strings closed,
 * brackets balanced, no stray characters), written without whitespace and
 * with every '<' as \u003c so nothing in it can end the script block. A
 * document that fails the check is an AP_ERR_INPUT error and, for the path
 * variants, no file is left behind.
 */
#include <stddef.h>
#include <stdio.h>
#include "../util/err.h"

struct json_out;

/* Writes the whole document through j (json_init is done); 0 or -1 with err. */
typedef int (*html_emit_fn)(struct json_out *j, void *arg, struct ap_err *err);

/* The page for json[0..len), atomically at path (util/outfile.h). */
int html__write(const char *path, const char *json, size_t len, struct ap_err *err);
/* The page for the document emit() writes, atomically at path. */
int html__write_emit(const char *path, html_emit_fn emit, void *arg, struct ap_err *err);

/* The same into an open stream; name is used in messages. */
int html__fwrite(FILE *f, const char *name, const char *json, size_t len, struct ap_err *err);
int html__fwrite_emit(FILE *f, const char *name, html_emit_fn emit, void *arg,
		      struct ap_err *err);

#endif
