// SPDX-License-Identifier: MIT
/*
 * The tracing-data section read into libtraceevent (tracing.h has the
 * layout). Every length is checked against the section before it is used;
 * the formats aotperf decodes are read into validated fields and
 * libtraceevent parses only the text generated from those
 * (tracing_format.h), into a handle of this section's own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "internal.h"
#include "tracing.h"
#include "tracing_format.h"

#define TRACING_MAGIC		"\x17\x08\x44tracing"
#define TRACING_MAGIC_LEN	10
#define TRACING_MAX_FORMAT	(1u << 20)	/* one format file; real ones are < 8 KiB */

struct pd_tracing {
	struct tep_handle *tep;
	int big;
	struct tracing_format **formats;	/* by id, each parsed into tep */
	size_t nevents, cap;
	char why[2 * TRACING_NAME_MAX + 64];	/* what is wrong with a format */
};

struct tcur {
	const uint8_t *p, *end;
	int big;
};

static int take(struct tcur *c, void *out, size_t n)
{
	if ((size_t)(c->end - c->p) < n)
		return -1;
	if (out)
		memcpy(out, c->p, n);
	c->p += n;
	return 0;
}

static int take_u32(struct tcur *c, uint32_t *v)
{
	if (take(c, v, 4))
		return -1;
	if (c->big)
		*v = __builtin_bswap32(*v);
	return 0;
}

static int take_u64(struct tcur *c, uint64_t *v)
{
	if (take(c, v, 8))
		return -1;
	if (c->big)
		*v = __builtin_bswap64(*v);
	return 0;
}

/* A NUL-terminated string in place. */
static const char *take_str(struct tcur *c)
{
	const uint8_t *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
	const char *s = (const char *)c->p;

	if (!nul)
		return NULL;
	c->p = nul + 1;
	return s;
}

/* "header_page" / "header_event": the tag, a u64 size, that many bytes; *text: them. */
static int take_header(struct tcur *c, const char *tag, const char **text, uint64_t *n)
{
	const char *s = take_str(c);

	if (!s || strcmp(s, tag) || take_u64(c, n) || *n > (uint64_t)(c->end - c->p))
		return -1;
	*text = (const char *)c->p;
	c->p += *n;
	return 0;
}

/* Is a format with this id among t's? 1 and *at its index, or 0 and *at where it would go. */
static int format_find(const struct pd_tracing *t, uint32_t id, size_t *at)
{
	size_t lo = 0, hi = t->nevents;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t m = tracing_format__id(t->formats[mid]);

		if (m == id) {
			*at = mid;
			return 1;
		}
		if (m < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return 0;
}

/*
 * f (owned from here) into tep from its generated text, and among t's
 * formats; -1 (what says why) or -2 when out of memory.
 */
static int add_format(struct pd_tracing *t, struct tracing_format *f, const char **what)
{
	size_t at, len;
	char *text;
	int r;

	if (format_find(t, tracing_format__id(f), &at)) {
		tracing_format__delete(f);
		*what = "two tracepoint formats with one id";
		return -1;
	}
	if (t->nevents == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 8;
		struct tracing_format **p = realloc(t->formats, cap * sizeof(*p));

		if (!p) {
			tracing_format__delete(f);
			return -2;
		}
		t->formats = p;
		t->cap = cap;
	}
	if (!(text = tracing_format__text(f, &len))) {
		tracing_format__delete(f);
		return -2;
	}
	r = tep_parse_event(t->tep, text, (unsigned long)len, tracing_format__system(f));
	free(text);
	if (r) {	/* never seen: the fuzz targets check it parses every generated text */
		snprintf(t->why, sizeof(t->why), "libtraceevent refused the format aotperf"
			 " made of %s:%s", tracing_format__system(f), tracing_format__name(f));
		*what = t->why;
		tracing_format__delete(f);
		return -1;
	}
	memmove(t->formats + at + 1, t->formats + at, (t->nevents - at) * sizeof(*t->formats));
	t->formats[at] = f;
	t->nevents++;
	return 0;
}

/*
 * One format text: u64 size, then the text; read and parsed into tep
 * under sys (NULL: skipped) when aotperf decodes that tracepoint. -1 when
 * cut short, off the kernel's layout or two share an id (t->why says),
 * -2 when out of memory.
 */
static int take_format(struct pd_tracing *t, struct tcur *c, const char *sys, const char **what)
{
	struct tracing_format *f;
	uint64_t n;
	const char *text;
	char name[TRACING_NAME_MAX + 1];

	if (take_u64(c, &n) || n > (uint64_t)(c->end - c->p) || n > TRACING_MAX_FORMAT)
		return -1;
	text = (const char *)c->p;
	c->p += n;
	if (!sys)
		return 0;
	switch (tracing_format__parse(sys, text, (size_t)n, &f)) {
	case TRACING_FORMAT_OK:
		return add_format(t, f, what);
	case TRACING_FORMAT_NOMEM:
		return -2;
	case TRACING_FORMAT_MALFORMED:
		tracing_format__name_line(text, (size_t)n, name);
		snprintf(t->why, sizeof(t->why), "the format of %.*s:%s is not in the kernel's"
			 " layout", TRACING_NAME_MAX, sys, name);
		*what = t->why;
		return -1;
	default:
		return 0;
	}
}

static int parse(struct pd_tracing *t, struct tcur *c, const char **what)
{
	char magic[TRACING_MAGIC_LEN];
	uint8_t big, long_size;
	uint32_t page_size, n, nsys;
	const char *version, *page, *event;
	uint64_t page_len, event_len;	/* the header event's layout is not needed */

	*what = "bad magic";
	if (take(c, magic, sizeof(magic)) || memcmp(magic, TRACING_MAGIC, sizeof(magic)))
		return -1;
	*what = "cut short in its header";
	if (!(version = take_str(c)) || take(c, &big, 1) || take(c, &long_size, 1))
		return -1;
	c->big = t->big = big != 0;
	if (take_u32(c, &page_size))
		return -1;
	*what = "bad long size";
	if (long_size != 4 && long_size != 8)
		return -1;
	tep_set_file_bigendian(t->tep, c->big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(t->tep, long_size);
	tep_set_page_size(t->tep, (int)page_size);
	*what = "bad header_page or header_event";
	if (take_header(c, "header_page", &page, &page_len) ||
	    take_header(c, "header_event", &event, &event_len))
		return -1;
	*what = "header_page not in the kernel's layout";
	if (tracing_format__check_header_page(page, (size_t)page_len))
		return -1;
	*what = "cut short in the ftrace formats";
	if (take_u32(c, &n))
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if (take_format(t, c, NULL, what))
			return -1;
	*what = "cut short in the event formats";
	if (take_u32(c, &nsys))
		return -1;
	for (uint32_t s = 0; s < nsys; s++) {
		const char *sys = take_str(c);

		if (!sys || take_u32(c, &n))
			return -1;
		for (uint32_t i = 0; i < n; i++) {
			int r = take_format(t, c, sys, what);

			if (r == -2)
				*what = NULL;	/* out of memory */
			if (r)
				return -1;
		}
	}
	(void)version;
	(void)event;
	(void)event_len;
	return 0;
}

int pd_tracing__parse(const void *buf, size_t len, const char *name, struct pd_tracing **out,
		      struct ap_err *err)
{
	struct pd_tracing *t = calloc(1, sizeof(*t));
	struct tcur c = { buf, (const uint8_t *)buf + len, 0 };
	const char *what = NULL;

	*out = NULL;
	if (!t || !(t->tep = tep_alloc())) {
		free(t);
		return ap_err_nomem(err);
	}
	/* its messages would go to stderr; failures are ours to report */
	tep_set_loglevel(TEP_LOG_NONE);
	if (parse(t, &c, &what)) {
		/* what may be t->why: the message before t goes */
		int r = what ? ap_errf(err, "%s: tracing data: %s", name, what) : ap_err_nomem(err);

		pd_tracing__delete(t);
		return r;
	}
	*out = t;
	return 0;
}

void pd_tracing__delete(struct pd_tracing *t)
{
	if (!t)
		return;
	if (t->tep)
		tep_free(t->tep);
	for (size_t i = 0; i < t->nevents; i++)
		tracing_format__delete(t->formats[i]);
	free(t->formats);
	free(t);
}
/* A pipe's HEADER_TRACING_DATA record and the bytes after it (reader.c kept them). */
static int pipe_tracing(struct perfdata *pd, struct pd_tracing **out, struct ap_err *err)
{
	if (!pd->has_tracing)
		return 0;
	if (!pd->tracing)
		return ap_errf(err, "%s: tracing data record of %llu bytes, over the"
			       " %u MiB limit", pd->path, (unsigned long long)pd->tracing_size,
			       PD_MAX_FEATURE >> 20);
	if (pd->tracing_got < pd->tracing_size)
		return ap_errf(err, "%s: tracing data cut short: %llu of %llu bytes",
			       pd->path, (unsigned long long)pd->tracing_got,
			       (unsigned long long)pd->tracing_size);
	return pd_tracing__parse(pd->tracing, (size_t)pd->tracing_size, pd->path, out, err);
}

int perfdata__tracing(struct perfdata *pd, struct pd_tracing **out, struct ap_err *err)
{
	size_t len = 0;
	char *buf;
	int r;

	*out = NULL;
	if (pd->pipe)
		return pipe_tracing(pd, out, err);
	buf = pd__feature(pd, PD_FEAT_TRACING_DATA, &len);
	if (!buf)
		return 0;
	r = pd_tracing__parse(buf, len, pd->path, out, err);
	free(buf);
	return r;
}

size_t pd_tracing__nevents(const struct pd_tracing *t)
{
	return t->nevents;
}

uint64_t pd_tracing__event_id(const struct pd_tracing *t, size_t idx)
{
	return idx < t->nevents ? tracing_format__id(t->formats[idx]) : UINT64_MAX;
}

const struct tracing_format *pd_tracing__format(const struct pd_tracing *t, uint64_t id)
{
	size_t at;

	if (id > UINT32_MAX || !format_find(t, (uint32_t)id, &at))
		return NULL;
	return t->formats[at];
}

int pd_tracing__big_endian(const struct pd_tracing *t)
{
	return t->big;
}

int pd_tracing__has_event(const struct pd_tracing *t, uint64_t id)
{
	return pd_tracing__format(t, id) != NULL;
}

int pd_tracing__event_name(const struct pd_tracing *t, uint64_t id, char *buf, size_t size)
{
	const struct tracing_format *f = pd_tracing__format(t, id);

	if (!f)
		return -1;
	snprintf(buf, size, "%s:%s", tracing_format__system(f), tracing_format__name(f));
	return 0;
}

const struct pd_tp_field *pd_tracing__field(const struct pd_tracing *t, uint64_t id,
					    const char *name)
{
	const struct tracing_format *f = pd_tracing__format(t, id);
	struct tep_event *e = f ? tep_find_event(t->tep, (int)tracing_format__id(f)) : NULL;

	return e ? (const struct pd_tp_field *)tep_find_field(e, name) : NULL;
}

int pd_tracing__num(const struct pd_tracing *t, uint64_t id, const char *name,
		    struct pd_tp_num *out)
{
	const struct tracing_format *f = t ? pd_tracing__format(t, id) : NULL;
	const struct tracing_field *fl = f ? tracing_format__field(f, name) : NULL;

	memset(out, 0, sizeof(*out));
	/* the event's own fields, as libtraceevent's lookup by name */
	if (!fl || fl->common || fl->array_len ||
	    (fl->size != 1 && fl->size != 2 && fl->size != 4 && fl->size != 8))
		return -1;
	out->offset = fl->offset;
	out->size = (uint8_t)fl->size;
	out->is_signed = !!fl->is_signed;
	out->big_endian = !!t->big;
	return 0;
}

int pd_tp_field__read(const struct pd_tracing *t, const struct pd_tp_field *f,
		      const void *raw, size_t raw_size, int64_t *val)
{
	struct tep_format_field *ff = (struct tep_format_field *)f;
	unsigned long long v;

	(void)t;
	if (!ff || ff->offset < 0 || (ff->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
	    (ff->size != 1 && ff->size != 2 && ff->size != 4 && ff->size != 8) ||
	    (size_t)ff->offset > raw_size || (size_t)ff->size > raw_size - (size_t)ff->offset ||
	    tep_read_number_field(ff, raw, &v))
		return -1;
	if ((ff->flags & TEP_FIELD_IS_SIGNED) && ff->size < 8 &&
	    (v & (1ULL << (ff->size * 8 - 1))))
		v |= ~0ULL << (ff->size * 8);
	*val = (int64_t)v;
	return 0;
}
