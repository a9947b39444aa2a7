// SPDX-License-Identifier: MIT
/* A view's table as text: fixed columns, the flexible one fitted to the width (table.h). */
#include <stdlib.h>
#include <string.h>
#include "table.h"
#include "../util/term.h"

#define FLEX_MIN 12

/* Columns counted one a UTF-8 character, as ap_term__fit counts them. */
static size_t cols_of(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static int shown_col(const struct vt_col *c)
{
	return !(c->flags & VT_NO_TEXT);
}

/* a column of its own (a suffix is part of the flexible column before it) */
static int own_col(const struct vt_col *c)
{
	return shown_col(c) && !(c->flags & VT_SUFFIX);
}

static int left(const struct vt_col *c)
{
	return c->kind == VT_TEXT || (c->flags & VT_LEFT);
}

/* spaces before column col, the first shown one or not */
static size_t gap(const struct vt_col *col, int first)
{
	if (first || (col->flags & VT_TIGHT))
		return 0;
	return col->gap ? col->gap : 1;
}

/* the footer rows text shows */
static int footer_shown(const struct vt_table *t, uint32_t k)
{
	return !(vt_table__footer_flags(t, k) & VT_NO_TEXT);
}

/* the widest of column c's shown cells and footers */
static size_t widest(const struct vt_table *t, uint32_t c)
{
	const struct vt_col *col = vt_table__col(t, c);
	size_t w = 0, n;
	char buf[128];

	for (uint32_t i = 0; i < vt_table__shown(t); i++)
		if ((n = cols_of(render__cell(col, vt_table__cell(t, i, c), buf, sizeof(buf)))) > w)
			w = n;
	for (uint32_t k = 0; k < vt_table__nfooters(t); k++)
		if (footer_shown(t, k) &&
		    (n = cols_of(render__cell(col, vt_table__footer_cell(t, k, c), buf,
					      sizeof(buf)))) > w)
			w = n;
	return w;
}

/* widths of the shown columns (0 for hidden ones); the flexible one fitted */
static void widths(const struct vt_table *t, unsigned columns, unsigned indent, size_t *w)
{
	uint32_t nc = vt_table__ncols(t), flex = nc, nshown = 0;
	size_t used = indent, room, max;

	for (uint32_t c = 0; c < nc; c++) {
		const struct vt_col *col = vt_table__col(t, c);

		w[c] = 0;
		if (!own_col(col))
			continue;
		used += gap(col, !nshown++);
		w[c] = cols_of(col->head ? col->head : "");
		if (widest(t, c) > w[c])
			w[c] = widest(t, c);
		if (col->width > w[c])
			w[c] = col->width;
		if (col->flags & VT_FLEX)
			flex = c;
		else
			used += w[c];
	}
	if (flex == nc)
		return;
	room = columns ? columns : AP_TERM_DEFAULT_COLUMNS;
	room = room > used ? room - used : 0;
	/*
	 * with max_chars the column fills the room up to it (a wider terminal,
	 * longer names), else it is as wide as its widest cell
	 */
	max = vt_table__col(t, flex)->max_chars;
	if (!max)
		max = w[flex];
	w[flex] = room < max ? room : max;
	if (w[flex] < FLEX_MIN && max >= FLEX_MIN)
		w[flex] = FLEX_MIN;
}

/* "..." and the last cols - 3 columns of s */
static const char *tail(const char *s, size_t cols, char *buf, size_t len)
{
	size_t skip = cols_of(s) - (cols - 3);

	for (; skip; s++)
		skip -= ((unsigned char)s[1] & 0xc0) != 0x80;
	snprintf(buf, len, "...%s", s);
	return buf;
}

/* row i's cell c: a shown row, a footer (i >= shown), or the heading (i UINT32_MAX) */
static const char *cell_text(const struct vt_table *t, uint32_t i, uint32_t c, char *buf,
			     size_t len)
{
	const struct vt_col *col = vt_table__col(t, c);

	if (i == UINT32_MAX)
		return col->head ? col->head : "";
	if (i >= vt_table__shown(t))
		return render__cell(col, vt_table__footer_cell(t, i - vt_table__shown(t), c), buf,
				    len);
	return render__cell(col, vt_table__cell(t, i, c), buf, len);
}

/* one line: cells (or headings when i is UINT32_MAX), trailing spaces dropped */
static void line(FILE *out, const struct vt_table *t, const size_t *w, unsigned indent,
		 uint32_t i)
{
	uint32_t nc = vt_table__ncols(t);
	size_t cap = 64;
	char *s = malloc(cap), buf[128], cut[512], sbuf[128], joined[700];
	size_t n = 0, first = 1;

	if (!s)
		return;
	for (unsigned k = 0; k < indent; k++)
		s[n++] = ' ';
	for (uint32_t c = 0; c < nc; c++) {
		const struct vt_col *col = vt_table__col(t, c);
		const char *v, *sfx = NULL;
		size_t vw, need, room = w[c];

		if (!own_col(col))
			continue;
		v = cell_text(t, i, c, buf, sizeof(buf));
		/* a suffix after this cell: the cell cut to leave it room */
		if ((col->flags & VT_FLEX) && c + 1 < nc && shown_col(vt_table__col(t, c + 1)) &&
		    (vt_table__col(t, c + 1)->flags & VT_SUFFIX) && i != UINT32_MAX &&
		    *(sfx = cell_text(t, i, c + 1, sbuf, sizeof(sbuf))))
			room = room > cols_of(sfx) + gap(vt_table__col(t, c + 1), 0) + 3 ?
			       room - cols_of(sfx) - gap(vt_table__col(t, c + 1), 0) : 3;
		else
			sfx = NULL;
		if ((col->flags & VT_FLEX) && (col->flags & VT_TAIL) && cols_of(v) > room && room > 3)
			v = tail(v, room, cut, sizeof(cut));
		else if (col->flags & VT_FLEX)
			v = ap_term__fit(cut, sizeof(cut), v, room);
		if (sfx) {
			snprintf(joined, sizeof(joined), "%s%*s%s", v,
				 (int)gap(vt_table__col(t, c + 1), 0), "", sfx);
			v = joined;
		}
		vw = cols_of(v);
		need = n + strlen(v) + w[c] + 2 + gap(col, first);
		if (need > cap) {
			char *g = realloc(s, need * 2);

			if (!g) {
				free(s);
				return;
			}
			s = g;
			cap = need * 2;
		}
		for (size_t k = gap(col, first); k; k--)
			s[n++] = ' ';
		first = 0;
		if (!left(col))
			for (size_t k = vw; k < w[c]; k++)
				s[n++] = ' ';
		memcpy(s + n, v, strlen(v));
		n += strlen(v);
		if (left(col))
			for (size_t k = vw; k < w[c]; k++)
				s[n++] = ' ';
	}
	while (n > 0 && s[n - 1] == ' ')
		n--;
	fwrite(s, 1, n, out);
	fputc('\n', out);
	free(s);
}

void render__table_text(FILE *out, const struct vt_table *t, unsigned columns, unsigned indent,
			unsigned flags)
{
	size_t *w = calloc(vt_table__ncols(t) + 1, sizeof(*w));

	if (!w)
		return;
	widths(t, columns, indent, w);
	if (!(flags & RT_NO_HEAD))
		line(out, t, w, indent, UINT32_MAX);
	for (uint32_t i = 0; i < vt_table__shown(t); i++)
		line(out, t, w, indent, i);
	for (uint32_t k = 0; k < vt_table__nfooters(t); k++)
		if (footer_shown(t, k))
			line(out, t, w, indent, vt_table__shown(t) + k);
	free(w);
}
