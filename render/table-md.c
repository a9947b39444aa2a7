// SPDX-License-Identifier: MIT
/* A view's table as a GitHub Markdown table (table.h, render/markdown.h). */
#include "markdown.h"
#include "table.h"

int render__table_md(FILE *f, const char *path, const struct vt_table *t, struct ap_err *err)
{
	struct md_coldef defs[MD_MAX_COLS];
	uint32_t map[MD_MAX_COLS], n = 0;
	struct md_table *mt;

	for (uint32_t c = 0; c < vt_table__ncols(t) && n < MD_MAX_COLS; c++) {
		const struct vt_col *col = vt_table__col(t, c);

		if (col->flags & VT_NO_MD)
			continue;
		defs[n] = (struct md_coldef){
			col->md_head ? col->md_head : col->head ? col->head : "",
			col->kind == VT_BOOL ? MD_CENTER
			: col->kind == VT_TEXT || (col->flags & VT_LEFT) ? MD_LEFT : MD_RIGHT,
			col->md_max_chars,
		};
		map[n++] = c;
	}
	mt = md_table__new_cols(defs, n, err);
	for (uint32_t i = 0; mt && i < vt_table__shown(t) + vt_table__nfooters(t); i++) {
		uint32_t foot = i - vt_table__shown(t);

		if (i >= vt_table__shown(t) && (vt_table__footer_flags(t, foot) & VT_NO_MD))
			continue;
		for (uint32_t k = 0; k < n; k++) {
			const struct vt_col *col = vt_table__col(t, map[k]);
			const struct vt_cell *x = i < vt_table__shown(t) ? vt_table__cell(t, i, map[k])
						  : vt_table__footer_cell(t, foot, map[k]);
			char buf[128];
			const char *v = render__cell(col, x, buf, sizeof(buf));
			int bad = (col->flags & VT_CODE) && x->present && !x->word
				  ? md_table__cell_code(mt, v, err) : md_table__cell(mt, v, err);

			if (bad) {
				md_table__delete(mt);
				return -1;
			}
		}
		if (md_table__end_row(mt, err)) {
			md_table__delete(mt);
			return -1;
		}
	}
	return md_table__flush(mt, f, path, err);
}
