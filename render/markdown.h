/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_MARKDOWN_H
#define AOTPERF_RENDER_MARKDOWN_H
/*
 * GitHub-flavoured Markdown tables for pasting results into issues: a
 * header row, the alignment row, then the rows, columns padded so the
 * source reads as a table too. Cell text is escaped (every character
 * Markdown could take as syntax: | ` * _ [ ] < > ~ & \ and so on),
 * newlines become spaces, and a column can be capped to a width with a
 * middle ellipsis for long wasm names. Code cells are inline code spans
 * (a fence longer than any backtick run inside, pipes still escaped as
 * GFM requires inside tables).
 */
#include <stddef.h>
#include <stdio.h>
#include "../util/err.h"

enum md_align { MD_LEFT, MD_RIGHT, MD_CENTER };

struct md_table;

/* A table of ncols columns (at most MD_MAX_COLS). */
#define MD_MAX_COLS 32
struct md_table *md_table__new(unsigned ncols, struct ap_err *err);
void md_table__delete(struct md_table *t);

/* Column c's header and alignment; max_chars 0: no limit (else >= 5). */
int md_table__column(struct md_table *t, unsigned c, const char *header, enum md_align align,
		     unsigned max_chars, struct ap_err *err);

/*
 * Cells of the current row, left to right; md_table__end_row() finishes it
 * (missing cells are empty). A NULL text is an empty cell.
 */
int md_table__cell(struct md_table *t, const char *text, struct ap_err *err);
int md_table__cell_code(struct md_table *t, const char *text, struct ap_err *err);
int md_table__cellf(struct md_table *t, struct ap_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int md_table__end_row(struct md_table *t, struct ap_err *err);

/* The table into f (a row in progress is ended first); name for messages. */
int md_table__write(struct md_table *t, FILE *f, const char *name, struct ap_err *err);

/*
 * Escape text for a table cell into a malloc()ed string (NULL: out of
 * memory); max_chars as md_table__column. code: as an inline code span.
 */
char *md__escape_cell(const char *text, int code, unsigned max_chars);

/* A column's definition for md_table__new_cols(): header, alignment, cap (0: none). */
struct md_coldef {
	const char *header;
	enum md_align align;
	unsigned max_chars;
};
/* A table with its columns set from cols[0..n); NULL with err on failure. */
struct md_table *md_table__new_cols(const struct md_coldef *cols, unsigned n, struct ap_err *err);
/*
 * Write t into f followed by a blank line and delete it (t NULL: a table
 * that failed to build, -1); name for messages.
 */
int md_table__flush(struct md_table *t, FILE *f, const char *name, struct ap_err *err);
/* Escaped plain text (not in a table) into f. */
void md__fputs(FILE *f, const char *text);

#endif
