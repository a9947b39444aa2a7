/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_TABLE_H
#define AOTPERF_RENDER_TABLE_H
/*
 * The generic emitters of a view's table (view/table.h, docs/views.md):
 * text (table-text.c), Markdown (table-md.c) and JSON (table-json.c).
 * They format what the view holds and compute nothing: a cell's words
 * come from its kind and precision (table-cell.c), the rows and their
 * order from the view's cut.
 */
#include <stddef.h>
#include <stdio.h>
#include "../util/err.h"
#include "../view/table.h"

struct json_out;

/* A cell as text and Markdown show it (its word, the absent word, or its value). */
const char *render__cell(const struct vt_col *col, const struct vt_cell *x, char *buf,
			 size_t len);

/*
 * The shown rows under a heading line, every column as wide as its
 * widest cell, indented by indent; the VT_FLEX column takes what is left
 * of `columns` (0: 80) up to its max_chars, its cells cut with "...". No
 * trailing spaces.
 */
enum { RT_NO_HEAD = 1 };	/* render__table_text: rows only */
void render__table_text(FILE *out, const struct vt_table *t, unsigned columns, unsigned indent,
			unsigned flags);

/* The shown rows as a GitHub table followed by a blank line; 0, or -1 with err. */
int render__table_md(FILE *f, const char *path, const struct vt_table *t, struct ap_err *err);

/* Row i's members into the object being written (nested keys, null groups, arrays). */
void render__table_json_members(struct json_out *j, const struct vt_table *t, uint32_t i);
/* Row i's group under prefix ("self", "a.b") as an object, or null when all absent. */
void render__table_json_group(struct json_out *j, const struct vt_table *t, uint32_t i,
			      const char *prefix);
/* Every row kept by the cut (not only the shown ones) as an array of objects. */
void render__table_json_rows(struct json_out *j, const struct vt_table *t);

#endif
