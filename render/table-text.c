// SPDX-License-Identifier: MIT
/* A view's table as text: fixed columns, the flexible one fitted to the width (table.h). */
#include <stdint.h>
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

static int left(const struct vt_col *c)
{
	return c->kind == VT_TEXT || (c->flags & VT_LEFT);
}

/*
 * widths of the shown columns (0 for hidden ones); the flexible one fitted.
 * The width taken by the others: *used.
 */
static uint32_t widths_once(const struct vt_table *t, unsigned indent, const uint8_t *hide,
			    size_t *w, size_t *used_out)
{
	uint32_t nc = vt_table__ncols(t), flex = nc, nshown = 0;
	size_t used = indent;
	char buf[128];

	for (uint32_t c = 0; c < nc; c++) {
		const struct vt_col *col = vt_table__col(t, c);

		w[c] = 0;
		if (!shown_col(col) || hide[c])
			continue;
		/* a separator before every column but the first and the tight ones */
		used += nshown++ && !(col->flags & VT_TIGHT);
		w[c] = cols_of(col->head ? col->head : "");
		for (uint32_t i = 0; i < vt_table__shown(t); i++) {
			size_t n = cols_of(render__cell(col, vt_table__cell(t, i, c), buf, sizeof(buf)));

			if (n > w[c])
				w[c] = n;
		}
		if (col->flags & VT_FLEX)
			flex = c;
		else
			used += w[c] = col->max_chars && w[c] > col->max_chars ? col->max_chars : w[c];
	}
	*used_out = used;
	return flex;
}

/* Hide the columns of the highest drop level still shown; 0 when none is left to drop. */
static int drop_some(const struct vt_table *t, uint8_t *hide)
{
	unsigned level = 0;

	for (uint32_t c = 0; c < vt_table__ncols(t); c++)
		if (!hide[c] && vt_table__col(t, c)->drop > level)
			level = vt_table__col(t, c)->drop;
	for (uint32_t c = 0; level && c < vt_table__ncols(t); c++)
		if (vt_table__col(t, c)->drop == level)
			hide[c] = 1;
	return level != 0;
}

/* widths, the columns that give way (vt_col.drop) hidden until the line fits */
static void widths(const struct vt_table *t, unsigned columns, unsigned indent, uint8_t *hide,
		   size_t *w)
{
	uint32_t nc = vt_table__ncols(t), flex;
	size_t used, room, max, width = columns ? columns : AP_TERM_DEFAULT_COLUMNS;

	for (;;) {
		flex = widths_once(t, indent, hide, w, &used);
		if (used + (flex < nc ? FLEX_MIN : 0) <= width || !drop_some(t, hide))
			break;
	}
	if (flex == nc)
		return;
	room = width;
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

/* one line: cells (or headings when i is UINT32_MAX), trailing spaces dropped */
static void line(FILE *out, const struct vt_table *t, const uint8_t *hide, const size_t *w,
		 unsigned indent, uint32_t i)
{
	uint32_t nc = vt_table__ncols(t);
	size_t cap = 64;
	char *s = malloc(cap), buf[128], cut[512];
	size_t n = 0, first = 1;

	if (!s)
		return;
	for (unsigned k = 0; k < indent; k++)
		s[n++] = ' ';
	for (uint32_t c = 0; c < nc; c++) {
		const struct vt_col *col = vt_table__col(t, c);
		const char *v;
		size_t vw, need;

		if (!shown_col(col) || hide[c])
			continue;
		v = i == UINT32_MAX ? (col->head ? col->head : "")
				    : render__cell(col, vt_table__cell(t, i, c), buf, sizeof(buf));
		if ((col->flags & VT_FLEX) && (col->flags & VT_TAIL) && cols_of(v) > w[c] && w[c] > 3)
			v = tail(v, w[c], cut, sizeof(cut));
		else if ((col->flags & VT_FLEX) || col->max_chars)
			v = ap_term__fit(cut, sizeof(cut), v, w[c]);
		vw = cols_of(v);
		need = n + strlen(v) + w[c] + 2;
		if (need > cap) {
			char *g = realloc(s, need * 2);

			if (!g) {
				free(s);
				return;
			}
			s = g;
			cap = need * 2;
		}
		if (!first && !(col->flags & VT_TIGHT))
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
	uint8_t *hide = calloc(vt_table__ncols(t) + 1, 1);

	if (w && hide) {
		widths(t, columns, indent, hide, w);
		if (!(flags & RT_NO_HEAD))
			line(out, t, hide, w, indent, UINT32_MAX);
		for (uint32_t i = 0; i < vt_table__shown(t); i++)
			line(out, t, hide, w, indent, i);
	}
	free(hide);
	free(w);
}
