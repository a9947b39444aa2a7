// SPDX-License-Identifier: MIT
/*
 * Recursive-descent JSON reader. The recursion is bounded by JR_MAX_DEPTH so
 * hostile nesting cannot exhaust the stack.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_read.h"
#include "../util/file.h"

struct jp {
	const char *s;
	size_t len, pos;
	struct ap_err *err;
	int failed;
	int nomem;
};

static int jp_fail(struct jp *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Report the first error only, with the line and column where it was met. */
static int jp_fail(struct jp *p, const char *fmt, ...)
{
	unsigned long line = 1, col = 1;
	char what[256];
	va_list ap;
	size_t i;

	if (p->failed)
		return -1;
	p->failed = 1;
	for (i = 0; i < p->pos && i < p->len; i++) {
		if (p->s[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return ap_errk(p->err, p->nomem ? AP_ERR_NOMEM : AP_ERR_INPUT, "line %lu column %lu: %s",
		       line, col, what);
}

static int jp_nomem(struct jp *p)
{
	p->nomem = 1;
	return jp_fail(p, "out of memory");
}

static int jp_peek(const struct jp *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static void jp_ws(struct jp *p)
{
	while (p->pos < p->len) {
		char c = p->s[p->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

static int jp_lit(struct jp *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n))
		return jp_fail(p, "invalid literal (expected %s)", word);
	p->pos += n;
	return 0;
}

struct sbuf {
	char *p;
	size_t len, cap;
};

static int sb_put(struct sbuf *b, const char *s, size_t n)
{
	if (b->cap - b->len <= n) {
		size_t cap = b->cap ? b->cap : 32;
		char *np;

		while (cap - b->len <= n) {
			if (cap > SIZE_MAX / 2)
				return -1;
			cap *= 2;
		}
		np = realloc(b->p, cap);
		if (!np)
			return -1;
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

static int hex4(struct jp *p, unsigned int *v)
{
	unsigned int i, r = 0;

	if (p->len - p->pos < 4)
		return jp_fail(p, "truncated \\u escape");
	for (i = 0; i < 4; i++) {
		char c = p->s[p->pos + i];

		r <<= 4;
		if (c >= '0' && c <= '9')
			r |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			r |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			r |= (unsigned int)(c - 'A' + 10);
		else
			return jp_fail(p, "bad hex digit in \\u escape");
	}
	p->pos += 4;
	*v = r;
	return 0;
}

static size_t utf8_put(unsigned int cp, char *o)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* \uXXXX, with UTF-16 surrogate pairs joined; p->pos is just past the 'u'. */
static int jp_unicode(struct jp *p, struct sbuf *b)
{
	unsigned int cp, lo;
	char o[4];

	if (hex4(p, &cp))
		return -1;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return jp_fail(p, "lone low surrogate in \\u escape");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (p->len - p->pos < 2 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
			return jp_fail(p, "high surrogate without a low one");
		p->pos += 2;
		if (hex4(p, &lo))
			return -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			return jp_fail(p, "high surrogate without a low one");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (sb_put(b, o, utf8_put(cp, o)))
		return jp_nomem(p);
	return 0;
}

static int jp_escape(struct jp *p, struct sbuf *b)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	int c = jp_peek(p);

	if (c < 0)
		return jp_fail(p, "unterminated string");
	p->pos++;
	if (c == 'u')
		return jp_unicode(p, b);
	e = c ? strchr(from, c) : NULL;
	if (!e)
		return jp_fail(p, "invalid escape \\%c", c >= 0x20 && c < 0x7f ? c : '?');
	if (sb_put(b, &to[e - from], 1))
		return jp_nomem(p);
	return 0;
}

/* A string; p->pos is at the opening quote. */
static int jp_string(struct jp *p, char **out, size_t *out_len)
{
	struct sbuf b = { 0 };
	size_t start;

	p->pos++;
	if (sb_put(&b, "", 0))
		return jp_nomem(p);
	for (;;) {
		int c;

		/* copy a run of plain bytes at once */
		start = p->pos;
		while (p->pos < p->len && p->s[p->pos] != '"' && p->s[p->pos] != '\\' &&
		       (unsigned char)p->s[p->pos] >= 0x20)
			p->pos++;
		if (sb_put(&b, p->s + start, p->pos - start))
			goto nomem;
		c = jp_peek(p);
		if (c < 0) {
			jp_fail(p, "unterminated string");
			goto fail;
		}
		if (c == '"')
			break;
		if (c != '\\') {
			jp_fail(p, "control character 0x%02x in a string", c);
			goto fail;
		}
		p->pos++;
		if (jp_escape(p, &b))
			goto fail;
	}
	p->pos++;
	*out = b.p;
	*out_len = b.len;
	return 0;
nomem:
	jp_nomem(p);
fail:
	free(b.p);
	return -1;
}

static int digits(struct jp *p)
{
	size_t start = p->pos;

	while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9')
		p->pos++;
	return p->pos > start;
}

static int jp_number(struct jp *p, struct jr_node *n)
{
	size_t start = p->pos, i;
	int integral = 1, neg = 0;
	uint64_t mag = 0;
	char small[64], *copy;

	if (jp_peek(p) == '-') {
		neg = 1;
		p->pos++;
	}
	if (jp_peek(p) == '0')
		p->pos++;
	else if (!digits(p))
		return jp_fail(p, "invalid number");
	if (jp_peek(p) == '.') {
		p->pos++;
		integral = 0;
		if (!digits(p))
			return jp_fail(p, "invalid number (no digits after '.')");
	}
	if (jp_peek(p) == 'e' || jp_peek(p) == 'E') {
		p->pos++;
		integral = 0;
		if (jp_peek(p) == '+' || jp_peek(p) == '-')
			p->pos++;
		if (!digits(p))
			return jp_fail(p, "invalid number (no digits in the exponent)");
	}
	n->type = JR_NUMBER;
	/* strtod needs a NUL-terminated copy: the input need not be. */
	copy = p->pos - start < sizeof(small) ? small : malloc(p->pos - start + 1);
	if (!copy)
		return jp_nomem(p);
	memcpy(copy, p->s + start, p->pos - start);
	copy[p->pos - start] = '\0';
	n->number = strtod(copy, NULL);
	if (copy != small)
		free(copy);
	if (!integral)
		return 0;
	for (i = start + (size_t)neg; i < p->pos; i++) {
		unsigned int d = (unsigned int)(p->s[i] - '0');

		if (mag > (UINT64_MAX - d) / 10)
			return 0;
		mag = mag * 10 + d;
	}
	if (!neg && mag <= INT64_MAX) {
		n->is_int = 1;
		n->integer = (int64_t)mag;
	} else if (neg && mag <= (uint64_t)INT64_MAX + 1) {
		n->is_int = 1;
		n->integer = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
	}
	return 0;
}

static int jp_value(struct jp *p, struct jr_node *n, int depth);

/* Make room for one more element of an array or object. */
static int grow(struct jp *p, struct jr_node *n, size_t *cap, int with_keys)
{
	size_t ncap;
	void *np;

	if (n->n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 4;
	if (ncap > SIZE_MAX / sizeof(struct jr_node))
		return jp_nomem(p);
	np = realloc(n->items, ncap * sizeof(*n->items));
	if (!np)
		return jp_nomem(p);
	n->items = np;
	if (with_keys) {
		np = realloc(n->keys, ncap * sizeof(*n->keys));
		if (!np)
			return jp_nomem(p);
		n->keys = np;
		np = realloc(n->key_lens, ncap * sizeof(*n->key_lens));
		if (!np)
			return jp_nomem(p);
		n->key_lens = np;
	}
	*cap = ncap;
	return 0;
}

static int jp_array(struct jp *p, struct jr_node *n, int depth)
{
	size_t cap = 0;

	n->type = JR_ARRAY;
	p->pos++;
	jp_ws(p);
	if (jp_peek(p) == ']') {
		p->pos++;
		return 0;
	}
	for (;;) {
		if (grow(p, n, &cap, 0))
			return -1;
		memset(&n->items[n->n], 0, sizeof(n->items[0]));
		n->n++;
		if (jp_value(p, &n->items[n->n - 1], depth + 1))
			return -1;
		jp_ws(p);
		if (jp_peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (jp_peek(p) == ']') {
			p->pos++;
			return 0;
		}
		return jp_fail(p, "expected ',' or ']' in an array");
	}
}

static int jp_object(struct jp *p, struct jr_node *n, int depth)
{
	size_t cap = 0;

	n->type = JR_OBJECT;
	p->pos++;
	jp_ws(p);
	if (jp_peek(p) == '}') {
		p->pos++;
		return 0;
	}
	for (;;) {
		size_t i;

		jp_ws(p);
		if (jp_peek(p) != '"')
			return jp_fail(p, "expected a string key in an object");
		if (grow(p, n, &cap, 1))
			return -1;
		i = n->n;
		memset(&n->items[i], 0, sizeof(n->items[0]));
		if (jp_string(p, &n->keys[i], &n->key_lens[i]))
			return -1;
		n->n++;
		jp_ws(p);
		if (jp_peek(p) != ':')
			return jp_fail(p, "expected ':' after an object key");
		p->pos++;
		if (jp_value(p, &n->items[i], depth + 1))
			return -1;
		jp_ws(p);
		if (jp_peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (jp_peek(p) == '}') {
			p->pos++;
			return 0;
		}
		return jp_fail(p, "expected ',' or '}' in an object");
	}
}

static int jp_value(struct jp *p, struct jr_node *n, int depth)
{
	int c;

	if (depth > JR_MAX_DEPTH)
		return jp_fail(p, "nested deeper than %d levels", JR_MAX_DEPTH);
	jp_ws(p);
	c = jp_peek(p);
	switch (c) {
	case '{':
		return jp_object(p, n, depth);
	case '[':
		return jp_array(p, n, depth);
	case '"':
		n->type = JR_STRING;
		return jp_string(p, &n->str, &n->str_len);
	case 't':
		n->type = JR_BOOL;
		n->boolean = 1;
		return jp_lit(p, "true");
	case 'f':
		n->type = JR_BOOL;
		return jp_lit(p, "false");
	case 'n':
		n->type = JR_NULL;
		return jp_lit(p, "null");
	case -1:
		return jp_fail(p, "unexpected end of input");
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return jp_number(p, n);
		if (c >= 0x20 && c < 0x7f)
			return jp_fail(p, "unexpected character '%c'", c);
		return jp_fail(p, "unexpected byte 0x%02x", c);
	}
}

static void jr_free_inner(struct jr_node *n)
{
	size_t i;

	for (i = 0; i < n->n; i++) {
		jr_free_inner(&n->items[i]);
		if (n->keys)
			free(n->keys[i]);
	}
	free(n->items);
	free(n->keys);
	free(n->key_lens);
	free(n->str);
}

void jr__delete(struct jr_node *node)
{
	if (!node)
		return;
	jr_free_inner(node);
	free(node);
}

int jr__parse(const char *text, size_t len, struct jr_node **out, struct ap_err *err)
{
	struct jp p = { .s = text, .len = len, .err = err };
	struct jr_node *root;

	*out = NULL;
	if (!text && len)
		return jp_fail(&p, "no input");
	root = calloc(1, sizeof(*root));
	if (!root)
		return jp_nomem(&p);
	if (jp_value(&p, root, 0))
		goto fail;
	jp_ws(&p);
	if (p.pos != p.len) {
		jp_fail(&p, "trailing data after the JSON value");
		goto fail;
	}
	*out = root;
	return 0;
fail:
	jr__delete(root);
	return -1;
}

int jr__parse_file(const char *path, size_t max, struct jr_node **out, struct ap_err *err)
{
	struct ap_err perr;
	size_t len = 0;
	char *buf = NULL;
	int ret;

	*out = NULL;
	if (ap_file__read_all(path, 0, max, &buf, &len, NULL, err))
		return -1;
	ret = jr__parse(buf, len, out, &perr);
	free(buf);
	if (ret)
		return ap_errk(err, perr.kind, "%s: invalid JSON: %s", path, perr.msg);
	return 0;
}

const struct jr_node *jr__get(const struct jr_node *obj, const char *key, size_t *count)
{
	const struct jr_node *found = NULL;
	size_t i, klen = strlen(key), c = 0;

	if (obj && obj->type == JR_OBJECT) {
		for (i = 0; i < obj->n; i++) {
			if (obj->key_lens[i] != klen || memcmp(obj->keys[i], key, klen))
				continue;
			if (!found)
				found = &obj->items[i];
			c++;
		}
	}
	if (count)
		*count = c;
	return found;
}

const char *jr__type_name(enum jr_type type)
{
	switch (type) {
	case JR_NULL: return "null";
	case JR_BOOL: return "a boolean";
	case JR_NUMBER: return "a number";
	case JR_STRING: return "a string";
	case JR_ARRAY: return "an array";
	case JR_OBJECT: return "an object";
	}
	return "unknown";
}
