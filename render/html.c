// SPDX-License-Identifier: MIT
/*
 * The report page: head with a Content-Security-Policy that admits exactly
 * the inlined style and script (by their SHA-256), the data document, the
 * viewer. The assets come from render/html/ as C arrays generated at build
 * time (render/html/bin2c.sh, see render/render.mk).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "html.h"
#include "html_json.h"
#include "../util/json_out.h"
#include "../util/outfile.h"
#include "../util/sha256.h"

/* render/html/viewer.js and viewer.css (generated: html_assets.c) */
extern const unsigned char html_viewer_js[], html_viewer_css[];
extern const size_t html_viewer_js_len, html_viewer_css_len;

static const char page_head[] =
	"<!DOCTYPE html>\n"
	"<html lang=\"en\">\n"
	"<head>\n"
	"<meta charset=\"utf-8\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	"script-src 'sha256-%s'; style-src 'sha256-%s'; base-uri 'none'; form-action 'none'\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<meta name=\"generator\" content=\"aotperf\">\n"
	"<title>aotperf report</title>\n"
	"<style>";

static const char page_body[] =
	"</style>\n"
	"</head>\n"
	"<body>\n"
	"<noscript><p>This report is drawn by JavaScript inlined in this file; "
	"the data is the JSON block at its end.</p></noscript>\n"
	"<main id=\"app\"><p class=\"loading\">Loading the report&hellip;</p></main>\n"
	"<script type=\"application/json\" id=\"aotperf-data\">";

static const char page_viewer[] = "</script>\n<script>";
static const char page_tail[] = "</script>\n</body>\n</html>\n";

/* base64 of a SHA-256 digest, as CSP hash sources spell it */
static void csp_hash(const unsigned char *data, size_t len, char out[45])
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint8_t d[33];
	size_t o = 0;

	ap_sha256(data, len, d);
	d[32] = 0;
	for (size_t i = 0; i < 33; i += 3) {
		uint32_t v = (uint32_t)d[i] << 16 | (uint32_t)d[i + 1] << 8 | d[i + 2];

		out[o++] = b64[v >> 18 & 63];
		out[o++] = b64[v >> 12 & 63];
		out[o++] = i + 1 < 32 ? b64[v >> 6 & 63] : '=';
		out[o++] = i + 2 < 32 ? b64[v & 63] : '=';
	}
	out[o] = 0;
}

static int put(FILE *f, const char *name, const void *data, size_t len, struct ap_err *err)
{
	if (len && fwrite(data, 1, len, f) != len)
		return ap_errk(err, AP_ERR_IO, "%s: write failed", name);
	return 0;
}

static int write_head(FILE *f, const char *name, struct ap_err *err)
{
	char js[45], css[45];

	csp_hash(html_viewer_js, html_viewer_js_len, js);
	csp_hash(html_viewer_css, html_viewer_css_len, css);
	if (fprintf(f, page_head, js, css) < 0)
		return ap_errk(err, AP_ERR_IO, "%s: write failed", name);
	if (put(f, name, html_viewer_css, html_viewer_css_len, err))
		return -1;
	return put(f, name, page_body, sizeof(page_body) - 1, err);
}

static int write_tail(FILE *f, const char *name, struct ap_err *err)
{
	if (put(f, name, page_viewer, sizeof(page_viewer) - 1, err) ||
	    put(f, name, html_viewer_js, html_viewer_js_len, err) ||
	    put(f, name, page_tail, sizeof(page_tail) - 1, err))
		return -1;
	if (fflush(f) != 0 || ferror(f))
		return ap_errk(err, AP_ERR_IO, "%s: write failed", name);
	return 0;
}

int html__fwrite(FILE *f, const char *name, const char *json, size_t len, struct ap_err *err)
{
	struct html_json *h;
	int rc = -1;

	h = malloc(sizeof(*h));
	if (!h)
		return ap_err_nomem(err);
	html_json__init(h, f, name);
	if (!write_head(f, name, err) && !html_json__feed(h, json, len, err) &&
	    !html_json__finish(h, err) && !write_tail(f, name, err))
		rc = 0;
	free(h);
	return rc;
}

/*
 * The emit variant: json_out writes to a stdio stream, so the checker sits
 * behind a cookie stream; its first error is kept and the stream fails.
 */
struct emit_sink {
	struct html_json h;
	struct ap_err err;
	int failed;
};

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
	struct emit_sink *s = cookie;

	if (s->failed)
		return -1;
	if (html_json__feed(&s->h, buf, n, &s->err)) {
		s->failed = 1;
		return -1;
	}
	return (ssize_t)n;
}

int html__fwrite_emit(FILE *f, const char *name, html_emit_fn emit, void *arg,
		      struct ap_err *err)
{
	cookie_io_functions_t io = { .write = sink_write };
	struct emit_sink *s;
	struct json_out j;
	FILE *doc;
	int rc = -1, emit_rc, close_rc;

	s = calloc(1, sizeof(*s));
	if (!s)
		return ap_err_nomem(err);
	html_json__init(&s->h, f, name);
	if (write_head(f, name, err))
		goto out;
	doc = fopencookie(s, "w", io);
	if (!doc) {
		ap_err_nomem(err);
		goto out;
	}
	json_init(&j, doc);
	emit_rc = emit(&j, arg, err);
	close_rc = fclose(doc);
	if (emit_rc)
		goto out;
	if (s->failed) {
		*err = s->err;
		goto out;
	}
	if (close_rc) {
		ap_errk(err, AP_ERR_IO, "%s: write failed", name);
		goto out;
	}
	if (html_json__finish(&s->h, err) || write_tail(f, name, err))
		goto out;
	rc = 0;
out:
	free(s);
	return rc;
}

int html__write(const char *path, const char *json, size_t len, struct ap_err *err)
{
	struct outfile o;

	if (outfile__open(&o, path, err))
		return -1;
	if (html__fwrite(o.f, path, json, len, err)) {
		outfile__abort(&o);
		return -1;
	}
	return outfile__commit(&o, err);
}

int html__write_emit(const char *path, html_emit_fn emit, void *arg, struct ap_err *err)
{
	struct outfile o;

	if (outfile__open(&o, path, err))
		return -1;
	if (html__fwrite_emit(o.f, path, emit, arg, err)) {
		outfile__abort(&o);
		return -1;
	}
	return outfile__commit(&o, err);
}
