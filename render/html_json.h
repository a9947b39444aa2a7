/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_HTML_JSON_H
#define AOTPERF_RENDER_HTML_JSON_H
/*
 * The data document on its way into the page (render/html.c): a streaming
 * check of its shape (one object, strings closed and escaped, brackets
 * balanced, only JSON's characters between tokens), whitespace between
 * tokens dropped, '<' written as \u003c. Not a full JSON parser: a missing
 * comma passes here and is caught by the viewer's JSON.parse, which shows
 * the error on the page.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../util/err.h"

#define HTML_JSON_MAX_DEPTH 4096

struct html_json {
	FILE *out;
	const char *name;	/* for messages */
	uint64_t pos;		/* bytes read so far */
	uint64_t written;	/* bytes written */
	int started, ended;	/* the top-level object opened / closed */
	int in_str, esc, hex;	/* inside a string; after a backslash; \u digits left */
	uint32_t depth;
	uint8_t is_arr[HTML_JSON_MAX_DEPTH / 8];	/* one bit per open bracket */
	char buf[4096];
	size_t nbuf;
};

void html_json__init(struct html_json *h, FILE *out, const char *name);
/* Check and copy n more bytes of the document. */
int html_json__feed(struct html_json *h, const char *data, size_t n, struct ap_err *err);
/* The document must be complete here. Flushes what is buffered. */
int html_json__finish(struct html_json *h, struct ap_err *err);

#endif
