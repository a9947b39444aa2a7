// SPDX-License-Identifier: MIT
/* A view's table: descriptors, typed cells, the cut (table.h, docs/views.md). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "table.h"
#include "../util/array.h"

struct vt_table {
	struct vt_col *cols;
	uint32_t ncols;
	struct vt_cell *cells;		/* nrows * ncols, in the order added */
	uint32_t nrows;
	size_t cap_cells;
	uint32_t *order;		/* after the cut: rows kept, in order */
	uint32_t nkept, shown;
	struct vt_cell *foot;		/* nfoot * ncols: the footer rows */
	unsigned *foot_flags;
	uint32_t nfoot;
	size_t cap_foot, cap_foot_flags;
	int in_footer;			/* the row being filled is the last footer */
	char **strs;			/* strings the table owns */
	uint32_t nstrs;
	size_t cap_strs;
};

struct vt_table *vt_table__new(const struct vt_col *cols, uint32_t ncols)
{
	struct vt_table *t = ncols <= VT_MAX_COLS ? calloc(1, sizeof(*t)) : NULL;

	if (!t)
		return NULL;
	t->cols = malloc((ncols ? ncols : 1) * sizeof(*cols));
	if (!t->cols) {
		free(t);
		return NULL;
	}
	memcpy(t->cols, cols, ncols * sizeof(*cols));
	t->ncols = ncols;
	return t;
}

void vt_table__delete(struct vt_table *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->nstrs; i++)
		free(t->strs[i]);
	free(t->strs);
	free(t->cols);
	free(t->cells);
	free(t->foot);
	free(t->foot_flags);
	free(t->order);
	free(t);
}

int vt_table__add_row(struct vt_table *t)
{
	size_t at = (size_t)t->nrows * t->ncols;

	if (ap_grow(&t->cells, &t->cap_cells, at + t->ncols, sizeof(*t->cells)))
		return -1;
	memset(&t->cells[at], 0, t->ncols * sizeof(*t->cells));
	t->nrows++;
	/* a new row undoes a cut: all rows, as added */
	free(t->order);
	t->order = NULL;
	t->nkept = t->shown = t->nrows;
	return 0;
}

int vt_table__add_footer(struct vt_table *t, unsigned flags)
{
	size_t at = (size_t)t->nfoot * t->ncols;

	if (ap_grow(&t->foot, &t->cap_foot, at + t->ncols, sizeof(*t->foot)) ||
	    ap_grow(&t->foot_flags, &t->cap_foot_flags, (size_t)t->nfoot + 1,
		    sizeof(*t->foot_flags)))
		return -1;
	memset(&t->foot[at], 0, t->ncols * sizeof(*t->foot));
	t->foot_flags[t->nfoot++] = flags;
	t->in_footer = 1;
	return 0;
}

/* cell c of the row being filled */
static struct vt_cell *fill_cell(struct vt_table *t, uint32_t c)
{
	if (t->in_footer)
		return &t->foot[(size_t)(t->nfoot - 1) * t->ncols + c];
	return &t->cells[(size_t)(t->nrows - 1) * t->ncols + c];
}

static struct vt_cell *cur(struct vt_table *t, uint32_t c)
{
	struct vt_cell *x = fill_cell(t, c);

	x->present = 1;
	return x;
}

void vt_table__u64(struct vt_table *t, uint32_t c, uint64_t v)
{
	cur(t, c)->v.u = v;
}

void vt_table__i64(struct vt_table *t, uint32_t c, int64_t v)
{
	cur(t, c)->v.i = v;
}

void vt_table__dbl(struct vt_table *t, uint32_t c, double v)
{
	/* no NAN or infinity reaches a format: an undefined value is absent */
	if (isfinite(v))
		cur(t, c)->v.d = v;
}

void vt_table__bool(struct vt_table *t, uint32_t c, int v)
{
	cur(t, c)->v.i = !!v;
}

void vt_table__str(struct vt_table *t, uint32_t c, const char *s)
{
	if (s)
		cur(t, c)->v.s = s;
}

/* a string the table owns, printed from fmt; NULL when out of memory */
static char *own(struct vt_table *t, const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		return NULL;
	if (ap_grow(&t->strs, &t->cap_strs, (size_t)t->nstrs + 1, sizeof(*t->strs))) {
		free(s);
		return NULL;
	}
	t->strs[t->nstrs++] = s;
	return s;
}

int vt_table__strf(struct vt_table *t, uint32_t c, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = own(t, fmt, ap);
	va_end(ap);
	if (!s)
		return -1;
	cur(t, c)->v.s = s;
	return 0;
}

int vt_table__wordf(struct vt_table *t, uint32_t c, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = own(t, fmt, ap);
	va_end(ap);
	if (!s)
		return -1;
	fill_cell(t, c)->word = s;
	return 0;
}

void vt_table__word(struct vt_table *t, uint32_t c, const char *word)
{
	fill_cell(t, c)->word = word;
}

/* ---- the cut ---- */

static double sort_value(const struct vt_table *t, uint32_t row, uint32_t c)
{
	const struct vt_cell *x = &t->cells[(size_t)row * t->ncols + c];

	if (!x->present)
		return -INFINITY;
	switch (t->cols[c].kind) {
	case VT_COUNT: return (double)x->v.u;
	case VT_INT: case VT_BOOL: return (double)x->v.i;
	case VT_TEXT: return 0.0;
	default: return x->v.d;
	}
}

struct sort_ctx {
	const struct vt_table *t;
	const struct vt_cut *c;
};

static int by_key(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *sc = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	double vx = sort_value(sc->t, x, (uint32_t)sc->c->sort_col);
	double vy = sort_value(sc->t, y, (uint32_t)sc->c->sort_col);

	if (sc->c->sort_abs) {
		vx = fabs(vx);
		vy = fabs(vy);
	}
	if (vx != vy)
		return (vx < vy) == !!sc->c->descending ? 1 : -1;
	return x < y ? -1 : 1;	/* ties: the order added */
}

/* row r can be shown (vt_cut.show_col) */
static int showable(const struct vt_table *t, const struct vt_cut *c, uint32_t r)
{
	return !c || c->show_col < 0 || (uint32_t)c->show_col >= t->ncols ||
	       sort_value(t, r, (uint32_t)c->show_col) > 0;
}

int vt_table__cut(struct vt_table *t, const struct vt_cut *c)
{
	uint32_t n = 0, nshow = 0;

	free(t->order);
	t->order = malloc((t->nrows ? t->nrows : 1) * sizeof(*t->order));
	if (!t->order)
		return -1;
	for (uint32_t r = 0; r < t->nrows; r++) {
		if (c && c->pct_col >= 0 && (uint32_t)c->pct_col < t->ncols &&
		    sort_value(t, r, (uint32_t)c->pct_col) < c->min_pct)
			continue;
		t->order[n++] = r;
	}
	if (c && c->sort_col >= 0 && (uint32_t)c->sort_col < t->ncols && n > 1) {
		struct sort_ctx sc = { t, c };

		qsort_r(t->order, n, sizeof(*t->order), by_key, &sc);
	}
	/* the rows that can be shown first, each part in its order */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = t->order[i];

		if (!showable(t, c, r))
			continue;
		memmove(&t->order[nshow + 1], &t->order[nshow], (i - nshow) * sizeof(*t->order));
		t->order[nshow++] = r;
	}
	t->nkept = n;
	t->shown = c && c->top && c->top < nshow ? (uint32_t)c->top : nshow;
	return 0;
}

/* ---- reading ---- */

uint32_t vt_table__ncols(const struct vt_table *t)
{
	return t->ncols;
}

const struct vt_col *vt_table__col(const struct vt_table *t, uint32_t c)
{
	return &t->cols[c];
}

uint32_t vt_table__nrows(const struct vt_table *t)
{
	return t->nkept;
}

uint32_t vt_table__shown(const struct vt_table *t)
{
	return t->shown;
}

uint32_t vt_table__row(const struct vt_table *t, uint32_t i)
{
	return t->order ? t->order[i] : i;
}

const struct vt_cell *vt_table__cell(const struct vt_table *t, uint32_t i, uint32_t c)
{
	uint32_t row = t->order ? t->order[i] : i;

	return &t->cells[(size_t)row * t->ncols + c];
}

uint32_t vt_table__nfooters(const struct vt_table *t)
{
	return t->nfoot;
}

unsigned vt_table__footer_flags(const struct vt_table *t, uint32_t k)
{
	return t->foot_flags[k];
}

const struct vt_cell *vt_table__footer_cell(const struct vt_table *t, uint32_t k, uint32_t c)
{
	return &t->foot[(size_t)k * t->ncols + c];
}

int vt_table__find(const struct vt_table *t, const char *key)
{
	for (uint32_t c = 0; c < t->ncols; c++)
		if (t->cols[c].key && !strcmp(t->cols[c].key, key))
			return (int)c;
	return -1;
}
