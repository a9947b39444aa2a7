// SPDX-License-Identifier: MIT
#include <string.h>
#include "html_json.h"

void html_json__init(struct html_json *h, FILE *out, const char *name)
{
	memset(h, 0, sizeof(*h));
	h->out = out;
	h->name = name;
}

static int flush(struct html_json *h, struct ap_err *err)
{
	if (h->nbuf && fwrite(h->buf, 1, h->nbuf, h->out) != h->nbuf)
		return ap_errk(err, AP_ERR_IO, "%s: write failed", h->name);
	h->written += h->nbuf;
	h->nbuf = 0;
	return 0;
}

static int put(struct html_json *h, const char *s, size_t n, struct ap_err *err)
{
	if (h->nbuf + n > sizeof(h->buf) && flush(h, err))
		return -1;
	memcpy(h->buf + h->nbuf, s, n);
	h->nbuf += n;
	return 0;
}

static int bad(struct html_json *h, struct ap_err *err, const char *what, unsigned char c)
{
	if (c >= 0x20 && c < 0x7f)
		return ap_errf(err, "%s: data document, byte %llu: %s '%c'", h->name,
			       (unsigned long long)h->pos, what, c);
	return ap_errf(err, "%s: data document, byte %llu: %s (0x%02x)", h->name,
		       (unsigned long long)h->pos, what, c);
}

/* One byte inside a string. */
static int in_string(struct html_json *h, unsigned char c, struct ap_err *err)
{
	if (c < 0x20)
		return bad(h, err, "control character in a string", c);
	if (h->hex) {
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
			return bad(h, err, "bad \\u escape", c);
		h->hex--;
	} else if (h->esc) {
		if (!strchr("\"\\/bfnrtu", c))
			return bad(h, err, "bad escape", c);
		h->esc = 0;
		if (c == 'u')
			h->hex = 4;
	} else if (c == '\\') {
		h->esc = 1;
	} else if (c == '"') {
		h->in_str = 0;
	} else if (c == '<') {
		/* "</script" cannot appear, nor "<!--" */
		return put(h, "\\u003c", 6, err);
	}
	return put(h, (const char *)&c, 1, err);
}

static int open_bracket(struct html_json *h, unsigned char c, struct ap_err *err)
{
	if (h->depth >= HTML_JSON_MAX_DEPTH)
		return bad(h, err, "nested too deep at", c);
	if (c == '[')
		h->is_arr[h->depth / 8] |= (uint8_t)(1u << (h->depth % 8));
	else
		h->is_arr[h->depth / 8] &= (uint8_t)~(1u << (h->depth % 8));
	h->depth++;
	return 0;
}

static int close_bracket(struct html_json *h, unsigned char c, struct ap_err *err)
{
	int arr;

	if (!h->depth)
		return bad(h, err, "unmatched", c);
	h->depth--;
	arr = (h->is_arr[h->depth / 8] >> (h->depth % 8)) & 1;
	if (arr != (c == ']'))
		return bad(h, err, "mismatched", c);
	if (!h->depth)
		h->ended = 1;
	return 0;
}

static int feed_byte(struct html_json *h, unsigned char c, struct ap_err *err)
{
	if (h->in_str)
		return in_string(h, c, err);
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
		return 0;
	if (h->ended)
		return bad(h, err, "text after the document:", c);
	if (!h->started) {
		if (c != '{')
			return bad(h, err, "the document is not a JSON object: starts with", c);
		h->started = 1;
	}
	switch (c) {
	case '"':
		h->in_str = 1;
		break;
	case '{':
	case '[':
		if (open_bracket(h, c, err))
			return -1;
		break;
	case '}':
	case ']':
		if (close_bracket(h, c, err))
			return -1;
		break;
	default:
		/* numbers, true, false, null and the separators */
		if (!strchr(",:-+.0123456789eEtrufalsn", c) || c == 0)
			return bad(h, err, "unexpected", c);
	}
	return put(h, (const char *)&c, 1, err);
}

int html_json__feed(struct html_json *h, const char *data, size_t n, struct ap_err *err)
{
	for (size_t i = 0; i < n; i++) {
		if (feed_byte(h, (unsigned char)data[i], err))
			return -1;
		h->pos++;
	}
	return 0;
}

int html_json__finish(struct html_json *h, struct ap_err *err)
{
	if (!h->started)
		return ap_errf(err, "%s: empty data document", h->name);
	if (h->in_str)
		return ap_errf(err, "%s: data document, byte %llu: unterminated string", h->name,
			       (unsigned long long)h->pos);
	if (!h->ended)
		return ap_errf(err, "%s: data document, byte %llu: ends inside %u bracket(s)",
			       h->name, (unsigned long long)h->pos, h->depth);
	return flush(h, err);
}
