// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "markdown.h"

struct md_col {
	char *header;		/* escaped */
	enum md_align align;
	unsigned max_chars;
	size_t width;		/* widest cell, in characters */
};

struct md_table {
	unsigned ncols;
	struct md_col cols[MD_MAX_COLS];
	char **cells;		/* nrows * ncols, escaped */
	size_t nrows, cap;	/* rows stored, rows allocated */
	unsigned cur;		/* cells given in the current row */
	int in_row;
};

/* Characters (UTF-8 code points) in s. */
static size_t u8_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Byte offset of the k-th character of s (or its end). */
static size_t u8_at(const char *s, size_t k)
{
	size_t i = 0;

	while (s[i] && k) {
		i++;
		while (((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		k--;
	}
	return i;
}

/* text with controls as spaces, shortened to max_chars around a middle "…" */
static char *flatten(const char *text, unsigned max_chars)
{
	size_t n = strlen(text), chars;
	char *s = malloc(n + 1), *out;

	if (!s)
		return NULL;
	for (size_t i = 0; i <= n; i++)
		s[i] = (text[i] && (unsigned char)text[i] < 0x20) || text[i] == 0x7f ? ' ' : text[i];
	chars = u8_len(s);
	if (!max_chars || chars <= max_chars)
		return s;
	{
		size_t tail = (max_chars - 1) / 2, head = max_chars - 1 - tail;
		size_t hb = u8_at(s, head), tb = u8_at(s, chars - tail);

		out = malloc(hb + 3 + (n - tb) + 1);
		if (out) {
			memcpy(out, s, hb);
			memcpy(out + hb, "\xe2\x80\xa6", 3);
			memcpy(out + hb + 3, s + tb, n - tb + 1);
		}
	}
	free(s);
	return out;
}

/*
 * ASCII punctuation Markdown could read as syntax inside a cell: emphasis,
 * code, links, HTML, entities, strikethrough, GitHub's $math$, the cell
 * separator. An underscore between two alphanumerics cannot open or close
 * emphasis (local_func_12 stays readable).
 */
static int md_special(const char *s, const char *p)
{
	if (*p == '_')
		return !(p > s && isalnum((unsigned char)p[-1]) && isalnum((unsigned char)p[1]));
	return strchr("\\`*[]<|~&$", *p) != NULL;
}

static char *escape_text(const char *s)
{
	size_t n = 0;
	char *out, *o;

	for (const char *p = s; *p; p++)
		n += md_special(s, p) ? 2 : 1;
	out = malloc(n + 1);
	if (!out)
		return NULL;
	o = out;
	for (const char *p = s; *p; p++) {
		if (md_special(s, p))
			*o++ = '\\';
		*o++ = *p;
	}
	*o = 0;
	return out;
}

/* `text` with a fence longer than any backtick run in it; | as \| (GFM) */
static char *escape_code(const char *s)
{
	size_t run = 0, longest = 0, n = 0, fence;
	char *out, *o;
	int pad;

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
		n += *p == '|' ? 2 : 1;
	}
	if (!*s)
		return strdup("");
	fence = longest + 1;
	/* a space on each side keeps a leading/trailing backtick out of the fence */
	pad = s[0] == '`' || s[strlen(s) - 1] == '`' || (s[0] == ' ' && s[strlen(s) - 1] == ' ');
	out = malloc(2 * fence + 2 * (size_t)pad + n + 1);
	if (!out)
		return NULL;
	o = out;
	memset(o, '`', fence);
	o += fence;
	if (pad)
		*o++ = ' ';
	for (const char *p = s; *p; p++) {
		if (*p == '|')
			*o++ = '\\';
		*o++ = *p;
	}
	if (pad)
		*o++ = ' ';
	memset(o, '`', fence);
	o += fence;
	*o = 0;
	return out;
}

char *md__escape_cell(const char *text, int code, unsigned max_chars)
{
	char *flat = flatten(text ? text : "", max_chars), *out;

	if (!flat)
		return NULL;
	out = code ? escape_code(flat) : escape_text(flat);
	free(flat);
	return out;
}

struct md_table *md_table__new(unsigned ncols, struct ap_err *err)
{
	struct md_table *t;

	if (!ncols || ncols > MD_MAX_COLS) {
		ap_errf(err, "markdown: a table of %u columns", ncols);
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		ap_err_nomem(err);
		return NULL;
	}
	t->ncols = ncols;
	for (unsigned c = 0; c < ncols; c++)
		t->cols[c].width = 3;	/* the alignment row needs "---" */
	return t;
}

void md_table__delete(struct md_table *t)
{
	if (!t)
		return;
	for (unsigned c = 0; c < t->ncols; c++)
		free(t->cols[c].header);
	for (size_t i = 0; i < t->cap * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t);
}

static void widen(struct md_col *col, const char *cell)
{
	size_t w = u8_len(cell);

	if (w > col->width)
		col->width = w;
}

int md_table__column(struct md_table *t, unsigned c, const char *header, enum md_align align,
		     unsigned max_chars, struct ap_err *err)
{
	char *h;

	if (c >= t->ncols)
		return ap_errf(err, "markdown: column %u of a %u-column table", c, t->ncols);
	if (max_chars && max_chars < 5)
		return ap_errf(err, "markdown: column %u capped at %u characters", c, max_chars);
	h = md__escape_cell(header, 0, max_chars);
	if (!h)
		return ap_err_nomem(err);
	free(t->cols[c].header);
	t->cols[c].header = h;
	t->cols[c].align = align;
	t->cols[c].max_chars = max_chars;
	widen(&t->cols[c], h);
	return 0;
}

static int add_cell(struct md_table *t, const char *text, int code, struct ap_err *err)
{
	char *cell;

	if (!t->in_row) {
		if (t->nrows == t->cap) {
			size_t ncap = t->cap ? t->cap * 2 : 16;
			char **nc = realloc(t->cells, ncap * t->ncols * sizeof(*nc));

			if (!nc)
				return ap_err_nomem(err);
			memset(nc + t->cap * t->ncols, 0, (ncap - t->cap) * t->ncols * sizeof(*nc));
			t->cells = nc;
			t->cap = ncap;
		}
		t->in_row = 1;
		t->cur = 0;
	}
	if (t->cur >= t->ncols)
		return ap_errf(err, "markdown: more than %u cells in row %zu", t->ncols,
			       t->nrows + 1);
	cell = md__escape_cell(text, code, t->cols[t->cur].max_chars);
	if (!cell)
		return ap_err_nomem(err);
	widen(&t->cols[t->cur], cell);
	t->cells[t->nrows * t->ncols + t->cur++] = cell;
	return 0;
}

int md_table__cell(struct md_table *t, const char *text, struct ap_err *err)
{
	return add_cell(t, text, 0, err);
}

int md_table__cell_code(struct md_table *t, const char *text, struct ap_err *err)
{
	return add_cell(t, text, 1, err);
}

int md_table__cellf(struct md_table *t, struct ap_err *err, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return add_cell(t, buf, 0, err);
}

int md_table__end_row(struct md_table *t, struct ap_err *err)
{
	if (!t->in_row && add_cell(t, "", 0, err))	/* an empty row */
		return -1;
	t->in_row = 0;
	t->nrows++;
	return 0;
}

/* One cell padded to its column's width. */
static void put_cell(FILE *f, const struct md_col *col, const char *s)
{
	size_t pad = col->width - u8_len(s), left = 0;

	if (col->align == MD_RIGHT)
		left = pad;
	else if (col->align == MD_CENTER)
		left = pad / 2;
	fprintf(f, " %*s%s%*s |", (int)left, "", s, (int)(pad - left), "");
}

int md_table__write(struct md_table *t, FILE *f, const char *name, struct ap_err *err)
{
	if (t->in_row && md_table__end_row(t, err))
		return -1;
	fputc('|', f);
	for (unsigned c = 0; c < t->ncols; c++)
		put_cell(f, &t->cols[c], t->cols[c].header ? t->cols[c].header : "");
	fputs("\n|", f);
	for (unsigned c = 0; c < t->ncols; c++) {
		const struct md_col *col = &t->cols[c];
		size_t dashes = col->width;

		fputc(col->align == MD_CENTER ? ':' : '-', f);
		for (size_t i = 0; i < dashes; i++)
			fputc('-', f);
		fputs(col->align == MD_LEFT ? "-|" : ":|", f);
	}
	fputc('\n', f);
	for (size_t r = 0; r < t->nrows; r++) {
		fputc('|', f);
		for (unsigned c = 0; c < t->ncols; c++) {
			const char *s = t->cells[r * t->ncols + c];

			put_cell(f, &t->cols[c], s ? s : "");
		}
		fputc('\n', f);
	}
	if (ferror(f))
		return ap_errk(err, AP_ERR_IO, "%s: write failed", name);
	return 0;
}

struct md_table *md_table__new_cols(const struct md_coldef *cols, unsigned n, struct ap_err *err)
{
	struct md_table *t = md_table__new(n, err);

	for (unsigned c = 0; t && c < n; c++)
		if (md_table__column(t, c, cols[c].header, cols[c].align, cols[c].max_chars,
				     err)) {
			md_table__delete(t);
			return NULL;
		}
	return t;
}

int md_table__flush(struct md_table *t, FILE *f, const char *name, struct ap_err *err)
{
	int rc;

	if (!t)
		return -1;
	rc = md_table__write(t, f, name, err);
	md_table__delete(t);
	fputc('\n', f);
	return rc;
}

void md__fputs(FILE *f, const char *text)
{
	char *e = md__escape_cell(text, 0, 0);

	fputs(e ? e : "", f);
	free(e);
}
