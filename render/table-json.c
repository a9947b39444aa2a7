// SPDX-License-Identifier: MIT
/*
 * A view's table as JSON (table.h): a row is an object whose keys nest at
 * the dots of the columns' keys; a group whose cells are all absent is
 * null; "key[]" columns in a row make an array.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "table.h"
#include "../util/json_out.h"

static void value(struct json_out *j, const struct vt_col *col, const struct vt_cell *x)
{
	int prec = col->json_prec;

	if (!x->present) {
		json_null(j);
		return;
	}
	switch (col->kind) {
	case VT_TEXT: json_str(j, x->v.s); return;
	case VT_COUNT: json_u64(j, x->v.u); return;
	case VT_INT: json_i64(j, x->v.i); return;
	case VT_BOOL: json_bool(j, (int)x->v.i); return;
	case VT_NS:
		if (prec < 0) {
			/* to the nearest, halves away from zero (llround, without libm: the dlfilter) */
			json_i64(j, (int64_t)(x->v.d < 0 ? x->v.d - 0.5 : x->v.d + 0.5));
			return;
		}
		break;
	case VT_REL: prec = prec < 0 ? 2 : prec; break;
	case VT_PVALUE:
		/* as it reads back: 5.1e-07 where six decimals would say 1e-06 */
		if (prec < 0) {
			json_pyfloat(j, x->v.d);
			return;
		}
		break;
	case VT_PERCENT: case VT_POINTS: case VT_RATIO: break;
	}
	json_dbl(j, x->v.d, prec < 0 ? 4 : prec);
}

/*
 * The length of key's segment at depth d ("a.b.c", 1: "b") and whether it
 * is the last; SIZE_MAX when the key has no segment there (shallower).
 */
static size_t segment(const char *key, unsigned d, const char **at, int *last)
{
	const char *s = key, *dot;

	for (unsigned k = 0; k < d; k++) {
		if (!(dot = strchr(s, '.'))) {
			*at = "";
			*last = 1;
			return SIZE_MAX;
		}
		s = dot + 1;
	}
	dot = strchr(s, '.');
	*at = s;
	*last = !dot;
	return dot ? (size_t)(dot - s) : strlen(s);
}

static int in_json(const struct vt_col *col)
{
	return col->key != NULL;
}

/* The columns' full keys (prefix.key), for one row's walk. */
#define KEY_LEN 128
struct keys {
	const struct vt_table *t;
	char (*k)[KEY_LEN];
};

/* columns [c, end) sharing key segment `seg` (len n) at depth d: end */
static uint32_t group_end(const struct keys *ks, uint32_t c, unsigned d, const char *seg,
			  size_t n)
{
	uint32_t e = c + 1;

	for (; e < vt_table__ncols(ks->t); e++) {
		const char *at;
		int last;

		if (!in_json(vt_table__col(ks->t, e)))
			continue;
		if (segment(ks->k[e], d, &at, &last) != n || strncmp(at, seg, n))
			break;
	}
	return e;
}

static int all_absent(const struct vt_table *t, uint32_t i, uint32_t c, uint32_t e)
{
	for (; c < e; c++)
		if (in_json(vt_table__col(t, c)) && vt_table__cell(t, i, c)->present)
			return 0;
	return 1;
}

/* the members of columns [c, e) at depth d */
static void members(struct json_out *j, const struct keys *ks, uint32_t i, uint32_t c,
		    uint32_t e, unsigned d)
{
	const struct vt_table *t = ks->t;

	while (c < e) {
		const struct vt_col *col = vt_table__col(t, c);
		const char *seg;
		char key[128];
		uint32_t g;
		size_t n;
		int last;

		if (!in_json(col)) {
			c++;
			continue;
		}
		n = segment(ks->k[c], d, &seg, &last);
		g = group_end(ks, c, d, seg, n);
		if (g > e)
			g = e;
		snprintf(key, sizeof(key), "%.*s", (int)n, seg);
		if (last && n > 2 && !strcmp(key + n - 2, "[]")) {
			key[n - 2] = '\0';
			json_key(j, key);
			if (all_absent(t, i, c, g)) {
				json_null(j);
			} else {
				json_begin_arr(j);
				for (uint32_t k = c; k < g; k++)
					if (in_json(vt_table__col(t, k)))
						value(j, vt_table__col(t, k), vt_table__cell(t, i, k));
				json_end_arr(j);
			}
		} else if (last) {
			json_key(j, key);
			value(j, col, vt_table__cell(t, i, c));
			g = c + 1;
		} else {
			json_key(j, key);
			if (all_absent(t, i, c, g)) {
				json_null(j);
			} else {
				json_begin_obj(j);
				members(j, ks, i, c, g, d + 1);
				json_end_obj(j);
			}
		}
		c = g;
	}
}

void render__table_json_members(struct json_out *j, const struct vt_table *t, uint32_t i)
{
	uint32_t nc = vt_table__ncols(t);
	char k[VT_MAX_COLS][KEY_LEN];
	struct keys ks = { t, k };

	for (uint32_t c = 0; c < nc; c++) {
		const struct vt_col *col = vt_table__col(t, c);

		if (in_json(col))
			snprintf(ks.k[c], KEY_LEN, "%s%s%s", col->prefix ? col->prefix : "",
				 col->prefix ? "." : "", col->key);
	}
	members(j, &ks, i, 0, nc, 0);
}

void render__table_json_group(struct json_out *j, const struct vt_table *t, uint32_t i,
			       const char *prefix)
{
	uint32_t nc = vt_table__ncols(t), c, e;
	char k[VT_MAX_COLS][KEY_LEN];
	struct keys ks = { t, k };
	size_t n = strlen(prefix);
	unsigned d = 1;

	for (const char *p = prefix; *p; p++)
		d += *p == '.';
	for (c = 0; c < nc; c++) {
		const struct vt_col *col = vt_table__col(t, c);

		k[c][0] = '\0';
		if (in_json(col))
			snprintf(k[c], KEY_LEN, "%s%s%s", col->prefix ? col->prefix : "",
				 col->prefix ? "." : "", col->key);
	}
	for (c = 0; c < nc && !(strncmp(k[c], prefix, n) == 0 && k[c][n] == '.'); c++)
		;
	for (e = c; e < nc && (!in_json(vt_table__col(t, e)) ||
			       (strncmp(k[e], prefix, n) == 0 && k[e][n] == '.')); e++)
		;
	if (c == nc || all_absent(t, i, c, e)) {
		json_null(j);
		return;
	}
	json_begin_obj(j);
	members(j, &ks, i, c, e, d);
	json_end_obj(j);
}

void render__table_json_rows(struct json_out *j, const struct vt_table *t)
{
	json_begin_arr(j);
	for (uint32_t i = 0; i < vt_table__nrows(t); i++) {
		json_begin_obj(j);
		render__table_json_members(j, t, i);
		json_end_obj(j);
	}
	json_end_arr(j);
}
