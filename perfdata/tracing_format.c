// SPDX-License-Identifier: MIT
/*
 * The format pre-check (tracing_format.h): a strict line reader of the
 * kernel's format layout that writes the same layout back, field by field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tracing_format.h"

#define TF_MAX_NAME	64	/* tracepoint names; the kernel's are < 40 */
#define TF_MAX_DECL	128	/* "unsigned long args[6]", "__data_loc char[] name" */
#define TF_MAX_FIELDS	64	/* sched_switch has 11, a syscall at most 10 */
#define TF_MAX_NUM	65535	/* offsets and sizes inside one payload */

struct tf_line {
	const char *p;
	size_t n;
};

struct tf_text {
	const char *p, *end;
};

static int next_line(struct tf_text *t, struct tf_line *l)
{
	const char *nl;

	if (t->p >= t->end)
		return -1;
	nl = memchr(t->p, '\n', (size_t)(t->end - t->p));
	l->p = t->p;
	l->n = nl ? (size_t)(nl - t->p) : (size_t)(t->end - t->p);
	t->p = nl ? nl + 1 : t->end;
	return 0;
}

/* Consume prefix from l; 0 when it was there. */
static int eat(struct tf_line *l, const char *prefix)
{
	size_t k = strlen(prefix);

	if (l->n < k || memcmp(l->p, prefix, k))
		return -1;
	l->p += k;
	l->n -= k;
	return 0;
}

static int is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* A decimal number <= max ending the line or followed by `stop`; consumed. */
static int eat_num(struct tf_line *l, char stop, unsigned long max, unsigned long *v)
{
	size_t i = 0;

	*v = 0;
	while (i < l->n && l->p[i] >= '0' && l->p[i] <= '9' && i < 10) {
		*v = *v * 10 + (unsigned long)(l->p[i] - '0');
		i++;
	}
	if (i == 0 || *v > max || (i < l->n && l->p[i] != stop) || (i == l->n && stop))
		return -1;
	l->p += i + (stop ? 1 : 0);
	l->n -= i + (stop ? 1 : 0);
	return 0;
}

/*
 * A field declaration: words split by single spaces, each an identifier
 * (a `[N]` or `[]` may end it), or stars; a type before the name, the
 * name an identifier last. One `[..]` at most, on the name or on the
 * word before it (`__data_loc char[] name`): libtraceevent 1.7.1 leaks
 * on a type that goes on after one (`char[16] short x`, found by
 * fuzzing, tests/fuzz/regress/tracing).
 */
static int decl_ok(const char *d, size_t n)
{
	size_t i = 0, words = 0, bracketed = 0;
	int last_ident = 0;

	if (n == 0 || n > TF_MAX_DECL)
		return 0;
	while (i < n) {
		if (d[i] == '*') {
			while (i < n && d[i] == '*')
				i++;
			last_ident = 0;
		} else if (is_ident_start(d[i])) {
			while (i < n && is_ident(d[i]))
				i++;
			if (i < n && d[i] == '[') {
				i++;
				while (i < n && d[i] >= '0' && d[i] <= '9')
					i++;
				if (i >= n || d[i] != ']' || bracketed)
					return 0;
				i++;
				bracketed = words + 1;
			}
			last_ident = 1;
		} else {
			return 0;
		}
		words++;
		if (i < n) {
			if (d[i] != ' ' || i + 1 >= n)
				return 0;
			i++;
		}
	}
	return words >= 2 && last_ident && (!bracketed || words - bracketed <= 1);
}

struct tf_out {
	char *buf;
	size_t len, cap;
	int nomem;
};

static void put(struct tf_out *o, const char *s, size_t n)
{
	if (o->nomem)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = (o->len + n + 1) * 2;
		char *b = realloc(o->buf, cap);

		if (!b) {
			o->nomem = 1;
			return;
		}
		o->buf = b;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = 0;
}

static void puts_(struct tf_out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* One field line after its tab; written back into o. */
static int field_line(struct tf_line l, struct tf_out *o)
{
	const char *semi;
	unsigned long off, size, sign;
	char num[64];

	if (eat(&l, "field:") || !(semi = memchr(l.p, ';', l.n)) ||
	    !decl_ok(l.p, (size_t)(semi - l.p)))
		return -1;
	puts_(o, "\tfield:");
	put(o, l.p, (size_t)(semi - l.p));
	l.n -= (size_t)(semi - l.p) + 1;
	l.p = semi + 1;
	if (eat(&l, "\toffset:") || eat_num(&l, ';', TF_MAX_NUM, &off) ||
	    eat(&l, "\tsize:") || eat_num(&l, ';', TF_MAX_NUM, &size) ||
	    eat(&l, "\tsigned:") || eat_num(&l, ';', 1, &sign) || l.n != 0)
		return -1;
	snprintf(num, sizeof(num), ";\toffset:%lu;\tsize:%lu;\tsigned:%lu;\n", off, size, sign);
	puts_(o, num);
	return 0;
}

int tracing_format__wanted(const char *sys, const char *name, size_t n)
{
#define NAME_IS(s) (n == strlen(s) && !memcmp(name, s, n))
#define NAME_STARTS(s) (n > strlen(s) && !memcmp(name, s, strlen(s)))
	if (!strcmp(sys, "sched"))
		return NAME_IS("sched_switch");
	if (!strcmp(sys, "raw_syscalls"))
		return NAME_IS("sys_enter") || NAME_IS("sys_exit");
	if (!strcmp(sys, "syscalls"))
		return NAME_STARTS("sys_enter_") || NAME_STARTS("sys_exit_");
	return 0;
#undef NAME_IS
#undef NAME_STARTS
}

static enum tracing_format_verdict clean(const char *sys, struct tf_text *t, struct tf_out *o)
{
	struct tf_line l;
	unsigned long id;
	char num[32];
	int groups = 0, fields = 0, in_group = 0;

	if (next_line(t, &l) || eat(&l, "name: ") || l.n == 0 || l.n > TF_MAX_NAME)
		return TRACING_FORMAT_MALFORMED;
	for (size_t i = 0; i < l.n; i++)
		if (!is_ident(l.p[i]))
			return TRACING_FORMAT_MALFORMED;
	if (!tracing_format__wanted(sys, l.p, l.n))
		return TRACING_FORMAT_UNWANTED;
	puts_(o, "name: ");
	put(o, l.p, l.n);
	if (next_line(t, &l) || eat(&l, "ID: ") || eat_num(&l, 0, 0x7fffffff, &id))
		return TRACING_FORMAT_MALFORMED;
	snprintf(num, sizeof(num), "\nID: %lu\nformat:\n", id);
	puts_(o, num);
	if (next_line(t, &l) || l.n != 7 || memcmp(l.p, "format:", 7))
		return TRACING_FORMAT_MALFORMED;
	/* the common fields, a blank line, the event's fields, a blank line */
	while (groups < 2) {
		if (next_line(t, &l))
			return TRACING_FORMAT_MALFORMED;
		if (l.n == 0) {
			if (!in_group && groups == 0)
				return TRACING_FORMAT_MALFORMED;
			puts_(o, "\n");
			groups++;
			in_group = 0;
			continue;
		}
		if (eat(&l, "\t") || ++fields > TF_MAX_FIELDS || field_line(l, o))
			return TRACING_FORMAT_MALFORMED;
		in_group = 1;
	}
	if (next_line(t, &l) || eat(&l, "print fmt:"))
		return TRACING_FORMAT_MALFORMED;
	puts_(o, "print fmt: \"\"\n");
	return o->nomem ? TRACING_FORMAT_NOMEM : TRACING_FORMAT_OK;
}

enum tracing_format_verdict tracing_format__clean(const char *sys, const char *text, size_t n,
						  char **out, size_t *out_len)
{
	struct tf_text t = { text, text + n };
	struct tf_out o = { 0 };
	enum tracing_format_verdict v = clean(sys, &t, &o);

	if (v == TRACING_FORMAT_OK && o.nomem)
		v = TRACING_FORMAT_NOMEM;
	if (v != TRACING_FORMAT_OK) {
		free(o.buf);
		return v;
	}
	*out = o.buf;
	*out_len = o.len;
	return v;
}
