// SPDX-License-Identifier: MIT
/*
 * Format texts read into validated fields, and the text generated from
 * them (tracing_format.h): a strict line reader of the kernel's layout;
 * nothing it read is written back but numbers and identifiers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tracing_format.h"

#define TF_MAX_DECL	128	/* "unsigned long args[6]", "const char * filename" */
#define TF_MAX_FIELDS	64	/* sched_switch has 11, a syscall at most 10 */
#define TF_MAX_NUM	65535	/* offsets and sizes inside one payload */
#define TF_MAX_PAGE	0x7fffffffUL	/* the header page's data size */

struct tracing_format {
	char sys[TRACING_NAME_MAX + 1];
	char name[TRACING_NAME_MAX + 1];
	uint32_t id;
	size_t nfields;
	struct tracing_field fields[];
};

/* The short list's spellings, by enum tracing_type. */
static const char *const type_names[] = {
	[TRACING_U8] = "u8", [TRACING_S8] = "s8", [TRACING_U16] = "u16", [TRACING_S16] = "s16",
	[TRACING_U32] = "u32", [TRACING_S32] = "s32", [TRACING_U64] = "u64",
	[TRACING_S64] = "s64", [TRACING_CHAR] = "char",
};

/* --- lines ------------------------------------------------------------------ */

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

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_ident(char c)
{
	return is_ident_start(c) || is_digit(c);
}

/* Length of the identifier at p (n bytes at most); 0 when none starts there. */
static size_t ident_len(const char *p, size_t n)
{
	size_t i = 0;

	if (n == 0 || !is_ident_start(p[0]))
		return 0;
	while (i < n && is_ident(p[i]))
		i++;
	return i;
}

/* A decimal number <= max ending the line or followed by `stop`; consumed. */
static int eat_num(struct tf_line *l, char stop, unsigned long max, unsigned long *v)
{
	size_t i = 0;

	*v = 0;
	while (i < l->n && is_digit(l->p[i]) && i < 10) {
		*v = *v * 10 + (unsigned long)(l->p[i] - '0');
		i++;
	}
	if (i == 0 || *v > max || (i < l->n && l->p[i] != stop) || (i == l->n && stop))
		return -1;
	l->p += i + (stop ? 1 : 0);
	l->n -= i + (stop ? 1 : 0);
	return 0;
}

/* --- a field's declaration ---------------------------------------------------- */

/* What the words of a declaration say. */
struct tf_decl {
	const char *name;
	size_t name_len;
	int pointer;		/* a star among the type's words */
	int is_char;		/* the type's words hold "char" */
	int is_array;
	unsigned long array_len;
};

/* `__attribute__((tag("text")))` (the kernel's __user on BTF kernels): its length, or 0. */
static size_t attribute_len(const char *w, size_t n)
{
	static const char open[] = "__attribute__((", mid[] = "(\"", close[] = "\")))";
	size_t i = sizeof(open) - 1, k;

	if (n < i || memcmp(w, open, i) || !(k = ident_len(w + i, n - i)))
		return 0;
	i += k;
	if (n - i < sizeof(mid) - 1 || memcmp(w + i, mid, sizeof(mid) - 1))
		return 0;
	i += sizeof(mid) - 1;
	while (i < n && is_ident(w[i]))
		i++;
	if (n - i < sizeof(close) - 1 || memcmp(w + i, close, sizeof(close) - 1))
		return 0;
	return i + sizeof(close) - 1;
}

/*
 * One word of the type: identifiers and stars (`char`, `*`, `char*`,
 * `*const`: execve's `const char *const * argv`), or an attribute.
 */
static int type_word(const char *w, size_t n, struct tf_decl *d, int *idents)
{
	size_t i = 0, k;

	if (attribute_len(w, n) == n)
		return 0;
	while (i < n) {
		if (w[i] == '*') {
			d->pointer = 1;
			i++;
		} else if ((k = ident_len(w + i, n - i))) {
			(*idents)++;
			d->is_char |= k == 4 && !memcmp(w + i, "char", 4);
			i += k;
		} else {
			return -1;
		}
	}
	return 0;
}

/*
 * Words libtraceevent's tokenizer replaces by quoted text wherever they
 * stand (a workaround for an old kernel's mac80211 formats): a field so
 * named is not the field the text declares, and it leaked in its parser
 * (tests/fuzz/regress/tracing).
 */
static int rewritten_word(const char *w, size_t k)
{
	static const char *const words[] = { "LOCAL_PR_FMT", "STA_PR_FMT", "VIF_PR_FMT" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (k == strlen(words[i]) && !memcmp(w, words[i], k))
			return 1;
	return 0;
}

/* The name, last: an identifier, `[N]` (N >= 1) after it or not. */
static int name_word(const char *w, size_t n, struct tf_decl *d)
{
	size_t k = ident_len(w, n), i;

	if (k == 0 || k > TRACING_NAME_MAX || rewritten_word(w, k))
		return -1;
	d->name = w;
	d->name_len = k;
	if (k == n)
		return 0;
	if (w[k] != '[' || w[n - 1] != ']' || n - k < 3 || n - k > 2 + 5)
		return -1;
	d->is_array = 1;
	d->array_len = 0;
	for (i = k + 1; i < n - 1; i++) {
		if (!is_digit(w[i]))
			return -1;
		d->array_len = d->array_len * 10 + (unsigned long)(w[i] - '0');
	}
	return d->array_len ? 0 : -1;
}

/*
 * A declaration: words split by single spaces, the type's words then the
 * name. No `[..]` but the name's (`__data_loc char[] name`, dynamic
 * arrays, are not read: none of the decoded tracepoints has one).
 */
static int decl_read(const char *s, size_t n, struct tf_decl *d)
{
	size_t i = 0;
	int idents = 0;

	memset(d, 0, sizeof(*d));
	if (n == 0 || n > TF_MAX_DECL)
		return -1;
	for (;;) {
		const char *sp = memchr(s + i, ' ', n - i);
		size_t k = sp ? (size_t)(sp - (s + i)) : n - i;

		if (k == 0)
			return -1;
		if (!sp)
			return idents > 0 && !name_word(s + i, k, d) ? 0 : -1;
		if (type_word(s + i, k, d, &idents))
			return -1;
		i += k + 1;
	}
}

/* The type of size bytes (1, 2, 4 or 8); -1 for another size. */
static int int_type(unsigned long size, int is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? TRACING_S8 : TRACING_U8;
	case 2:
		return is_signed ? TRACING_S16 : TRACING_U16;
	case 4:
		return is_signed ? TRACING_S32 : TRACING_U32;
	case 8:
		return is_signed ? TRACING_S64 : TRACING_U64;
	default:
		return -1;
	}
}

/* The field's type from the declaration's shape, its size and sign; -1 when they disagree. */
static int field_type(const struct tf_decl *d, unsigned long size, int is_signed,
		      struct tracing_field *f)
{
	unsigned long elem = size;
	int t;

	if (d->is_array) {
		if (size % d->array_len)
			return -1;
		elem = size / d->array_len;
	}
	if (d->is_array && d->is_char && !d->pointer)
		t = elem == 1 ? TRACING_CHAR : -1;
	else
		t = int_type(elem, is_signed);
	if (t < 0)
		return -1;
	f->type = (enum tracing_type)t;
	f->array_len = d->is_array ? (uint32_t)d->array_len : 0;
	return 0;
}

/*
 * One field line (prefix, the declaration, `;\toffset:N;\tsize:N;\tsigned:0|1;`):
 * its declaration into d, numbers into f (max: the largest offset or size).
 */
static int field_line(struct tf_line l, const char *prefix, unsigned long max,
		      struct tf_decl *d, struct tracing_field *f)
{
	const char *semi;
	unsigned long off, size, sign;

	if (eat(&l, prefix) || !(semi = memchr(l.p, ';', l.n)) ||
	    decl_read(l.p, (size_t)(semi - l.p), d))
		return -1;
	l.n -= (size_t)(semi - l.p) + 1;
	l.p = semi + 1;
	if (eat(&l, "\toffset:") || eat_num(&l, ';', max, &off) ||
	    eat(&l, "\tsize:") || eat_num(&l, ';', max, &size) ||
	    eat(&l, "\tsigned:") || eat_num(&l, ';', 1, &sign) || l.n != 0 ||
	    size == 0 || off + size > max)
		return -1;
	memset(f, 0, sizeof(*f));
	memcpy(f->name, d->name, d->name_len);
	f->offset = (uint32_t)off;
	f->size = (uint32_t)size;
	f->is_signed = (int)sign;
	return 0;
}

/* --- a tracepoint's format ----------------------------------------------------- */

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

static int name_taken(const struct tracing_field *fields, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(fields[i].name, name))
			return 1;
	return 0;
}

/* The two groups of field lines (the common fields, the event's), each ended by a blank line. */
static int read_fields(struct tf_text *t, struct tracing_field *fields, size_t *n)
{
	struct tf_line l;
	struct tf_decl d;
	int group = 0;

	*n = 0;
	while (group < 2) {
		struct tracing_field *f;

		if (next_line(t, &l))
			return -1;
		if (l.n == 0) {
			if (group == 0 && *n == 0)
				return -1;	/* the common fields are never none */
			group++;
			continue;
		}
		if (*n == TF_MAX_FIELDS)
			return -1;
		f = &fields[*n];
		if (field_line(l, "\tfield:", TF_MAX_NUM, &d, f) ||
		    field_type(&d, f->size, f->is_signed, f) || name_taken(fields, *n, f->name))
			return -1;
		f->common = group == 0;
		(*n)++;
	}
	return 0;
}

static enum tracing_format_verdict parse(const char *sys, struct tf_text *t,
					 struct tracing_format **out)
{
	struct tracing_field fields[TF_MAX_FIELDS];
	struct tracing_format *f, *g;
	struct tf_line l;
	unsigned long id;
	size_t nfields, k;

	if (next_line(t, &l) || eat(&l, "name: ") || (k = ident_len(l.p, l.n)) != l.n ||
	    k > TRACING_NAME_MAX || strlen(sys) > TRACING_NAME_MAX ||
	    !tracing_format__wanted(sys, l.p, l.n))
		return TRACING_FORMAT_UNWANTED;
	f = calloc(1, sizeof(*f));
	if (!f)
		return TRACING_FORMAT_NOMEM;
	memcpy(f->name, l.p, k);
	strcpy(f->sys, sys);
	if (next_line(t, &l) || eat(&l, "ID: ") || eat_num(&l, 0, 0x7fffffff, &id) ||
	    next_line(t, &l) || l.n != 7 || memcmp(l.p, "format:", 7) ||
	    read_fields(t, fields, &nfields) || next_line(t, &l) || eat(&l, "print fmt:")) {
		free(f);
		return TRACING_FORMAT_MALFORMED;
	}
	g = realloc(f, sizeof(*f) + nfields * sizeof(fields[0]));
	if (!g) {
		free(f);
		return TRACING_FORMAT_NOMEM;
	}
	g->id = (uint32_t)id;
	g->nfields = nfields;
	memcpy(g->fields, fields, nfields * sizeof(fields[0]));
	*out = g;
	return TRACING_FORMAT_OK;
}

enum tracing_format_verdict tracing_format__parse(const char *sys, const char *text, size_t n,
						  struct tracing_format **out)
{
	struct tf_text t = { text, text + n };

	*out = NULL;
	return parse(sys, &t, out);
}

void tracing_format__name_line(const char *text, size_t n, char *buf)
{
	struct tf_text t = { text, text + n };
	struct tf_line l;
	size_t k;

	buf[0] = 0;
	if (next_line(&t, &l) || eat(&l, "name: ") || (k = ident_len(l.p, l.n)) != l.n ||
	    k > TRACING_NAME_MAX)
		return;
	memcpy(buf, l.p, k);
	buf[k] = 0;
}

void tracing_format__delete(struct tracing_format *f)
{
	free(f);
}

const char *tracing_format__system(const struct tracing_format *f)
{
	return f->sys;
}

const char *tracing_format__name(const struct tracing_format *f)
{
	return f->name;
}

uint32_t tracing_format__id(const struct tracing_format *f)
{
	return f->id;
}

size_t tracing_format__nfields(const struct tracing_format *f)
{
	return f->nfields;
}

const struct tracing_field *tracing_format__field_at(const struct tracing_format *f, size_t idx)
{
	return idx < f->nfields ? &f->fields[idx] : NULL;
}

const struct tracing_field *tracing_format__field(const struct tracing_format *f,
						  const char *name)
{
	for (size_t i = 0; i < f->nfields; i++)
		if (!strcmp(f->fields[i].name, name))
			return &f->fields[i];
	return NULL;
}

/* --- the generated text ------------------------------------------------------ */

/* Longest field line: the declaration, three numbers of 10 digits, the words around them. */
#define TF_LINE_MAX	(8 + 4 + 1 + TRACING_NAME_MAX + 12 + 3 * 10 + 40)

char *tracing_format__text(const struct tracing_format *f, size_t *len)
{
	size_t cap = 2 * TRACING_NAME_MAX + 64 + (f->nfields + 2) * TF_LINE_MAX, n;
	char *buf = malloc(cap);
	char arr[16];
	int common = 1;

	if (!buf)
		return NULL;
	n = (size_t)snprintf(buf, cap, "name: %s\nID: %u\nformat:\n", f->name, (unsigned)f->id);
	for (size_t i = 0; i < f->nfields; i++) {
		const struct tracing_field *fl = &f->fields[i];

		if (common && !fl->common) {
			buf[n++] = '\n';
			common = 0;
		}
		arr[0] = 0;
		if (fl->array_len)
			snprintf(arr, sizeof(arr), "[%u]", (unsigned)fl->array_len);
		n += (size_t)snprintf(buf + n, cap - n,
				      "\tfield:%s %s%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
				      type_names[fl->type], fl->name, arr, (unsigned)fl->offset,
				      (unsigned)fl->size, fl->is_signed);
	}
	n += (size_t)snprintf(buf + n, cap - n, "%s\nprint fmt: \"\"\n", common ? "\n" : "");
	*len = n;
	return buf;
}

/* --- the header page ------------------------------------------------------------ */

int tracing_format__check_header_page(const char *text, size_t n)
{
	struct tf_text t = { text, text + n };
	struct tracing_field f[4];
	struct tf_decl d;
	struct tf_line l;
	size_t k = 0;
	const struct tracing_field *commit = &f[1], *data;

	while (!next_line(&t, &l))
		if (k == 4 || field_line(l, "\tfield: ", TF_MAX_PAGE, &d, &f[k++]) || d.is_array)
			return -1;
	/* the kernel's fields in its order; overwrite (a bit of commit) since 2.6.3x */
	if (k < 3 || strcmp(f[0].name, "timestamp") || strcmp(f[1].name, "commit") ||
	    (k == 4 && strcmp(f[2].name, "overwrite")))
		return -1;
	data = &f[k - 1];
	return !strcmp(data->name, "data") && f[0].offset == 0 && f[0].size == 8 &&
	       (commit->size == 4 || commit->size == 8) && commit->offset >= 8 &&
	       data->offset >= commit->offset + commit->size ? 0 : -1;
}
