/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_TABLE_H
#define AOTPERF_VIEW_TABLE_H
/*
 * A view's table (docs/views.md): column descriptors, rows of typed cells
 * holding raw values (counts, ns, percent, p-values, words), and the cut
 * (sort, percent limit, top N) applied once. The formats only format it:
 * render/table-text.c (terminal width aware), table-md.c and table-json.c
 * walk the same descriptors, so a number is computed in the view and
 * nowhere else, and every format shows the same rows.
 *
 * A column says what its cells hold (enum vt_kind), its JSON key and its
 * heading. A JSON key may nest with dots ("self.before.mean": the
 * columns sharing "self." become one object, written null when all its
 * cells are absent) and end in "[]" (consecutive columns with the same
 * key form an array). Columns sharing a prefix must be adjacent. A column
 * without a key is for the eye only (text, Markdown); flags keep a column
 * out of some formats.
 *
 * A cell is absent (JSON null; text and Markdown show the column's
 * `absent` word) or holds a value; a word set on a cell replaces the
 * value in text and Markdown ("new" for a relative change with nothing
 * before, "*" for a significant row) while JSON keeps the value.
 */
#include <stddef.h>
#include <stdint.h>
#include "../util/err.h"

enum vt_kind {
	VT_TEXT,	/* a string */
	VT_COUNT,	/* uint64_t: samples, instructions, functions */
	VT_INT,		/* int64_t: a signed count (a change of counts, an index) */
	VT_PERCENT,	/* double: percent, 0..100 (a share) */
	VT_POINTS,	/* double: percentage points (a change of shares) */
	VT_NS,		/* double: nanoseconds (JSON, rounded) shown as milliseconds */
	VT_REL,		/* double: a relative change in percent ("+12%") */
	VT_PVALUE,	/* double: a p-value ("0.0022", "<1e-9") */
	VT_RATIO,	/* double: a plain number (a statistic, degrees of freedom) */
	VT_BOOL,	/* int: JSON true/false; text and Markdown "yes" or "" */
};

enum vt_flags {
	VT_SIGNED = 1 << 0,	/* numbers with their sign: +1.20 */
	VT_FLEX = 1 << 1,	/* text: the column that takes the width left (one a table) */
	VT_CODE = 1 << 2,	/* Markdown: an inline code span */
	VT_NO_TEXT = 1 << 3,	/* not in the text table */
	VT_NO_MD = 1 << 4,	/* not in the Markdown table */
	VT_LEFT = 1 << 5,	/* left-aligned (text cells are, numbers are not) */
	VT_TIGHT = 1 << 6,	/* text: no space before it (a marker: "0.002 *") */
	VT_TAIL = 1 << 7,	/* text, VT_FLEX: a cut keeps the end ("...dir/run.data") */
	VT_PCT = 1 << 8,	/* text and Markdown: a "%" after the number (26.33%) */
	VT_SUFFIX = 1 << 9,	/* text: right after the VT_FLEX column before it, its gap apart
				 * (that cell cut shorter for it): a tag ("(trap block)") */
};

struct vt_col {
	const char *prefix;	/* JSON: the key is prefix.key ("self" + "before.mean"); NULL: key */
	const char *key;	/* JSON key ("a.b.c", "ci[]"); NULL: text and Markdown only */
	const char *head;	/* heading in text (and Markdown) */
	const char *md_head;	/* heading in Markdown; NULL: head */
	enum vt_kind kind;
	unsigned flags;		/* enum vt_flags */
	int prec;		/* decimals in text and Markdown; -1: the kind's */
	int json_prec;		/* decimals in JSON; -1: the kind's */
	const char *absent;	/* text and Markdown for an absent cell; NULL: "" */
	unsigned max_chars;	/* text, VT_FLEX: the width it grows to; 0: its widest cell */
	unsigned md_max_chars;	/* Markdown: cut longer cells in the middle; 0: none */
	unsigned width;		/* text: at least this wide (a layout people know); 0: its cells' */
	unsigned gap;		/* text: spaces before it; 0: one */
};

struct vt_cell {
	int present;
	union {
		uint64_t u;
		int64_t i;
		double d;
		const char *s;	/* owned by the table, or static */
	} v;
	const char *word;	/* text and Markdown say this instead; NULL: the value */
};

struct vt_table;

#define VT_MAX_COLS 160

/* The cut, applied once (vt_table__cut). */
struct vt_cut {
	int sort_col;		/* -1: keep the rows' order */
	int sort_abs;		/* by |value| */
	int descending;
	int pct_col;		/* -1: no percent limit; else rows whose value there ... */
	double min_pct;		/* ... is below min_pct leave (perf report --percent-limit) */
	int show_col;		/* -1: every row kept is shown; else only rows with a
				 * non-zero value there (the others go last, kept for JSON) */
	uint64_t top;		/* rows shown at most; 0: all */
};

/*
 * A table of ncols columns, copied (the strings they point to must outlive
 * the table: static, or the view's); at most VT_MAX_COLS. NULL when out of
 * memory or too many.
 */
struct vt_table *vt_table__new(const struct vt_col *cols, uint32_t ncols);
void vt_table__delete(struct vt_table *t);

/* Start a row (every cell absent); 0, or -1 when out of memory. */
int vt_table__add_row(struct vt_table *t);
/* Cell c of the row being filled. */
void vt_table__u64(struct vt_table *t, uint32_t c, uint64_t v);
void vt_table__i64(struct vt_table *t, uint32_t c, int64_t v);
void vt_table__dbl(struct vt_table *t, uint32_t c, double v);
void vt_table__bool(struct vt_table *t, uint32_t c, int v);
/* A string the caller keeps alive (a name from a module, a static word). */
void vt_table__str(struct vt_table *t, uint32_t c, const char *s);
/* A string the table copies; 0, or -1 when out of memory. */
int vt_table__strf(struct vt_table *t, uint32_t c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The word text and Markdown show for cell c (a static string). */
void vt_table__word(struct vt_table *t, uint32_t c, const char *word);
/* The same, a string the table copies; 0, or -1 when out of memory. */
int vt_table__wordf(struct vt_table *t, uint32_t c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Sort, limit and cut (c NULL: all rows, as added); 0, or -1 when out of memory. */
int vt_table__cut(struct vt_table *t, const struct vt_cut *c);

/*
 * A footer row, after the cut (a total, "3 more"): text and Markdown show
 * it under the shown rows unless flags (VT_NO_TEXT, VT_NO_MD) say not;
 * JSON never writes it. Filled with the setters above, as a row is. 0, or
 * -1 when out of memory. No row is added after a footer.
 */
int vt_table__add_footer(struct vt_table *t, unsigned flags);

/* ---- reading it (the emitters) ---- */

uint32_t vt_table__ncols(const struct vt_table *t);
const struct vt_col *vt_table__col(const struct vt_table *t, uint32_t c);
/* Rows in order after the cut; vt_table__shown of them are shown (text, Markdown). */
uint32_t vt_table__nrows(const struct vt_table *t);
uint32_t vt_table__shown(const struct vt_table *t);
/* The i-th row in the cut's order: which row it was as added (0, 1, ...). */
uint32_t vt_table__row(const struct vt_table *t, uint32_t i);
/* Cell c of the i-th row in the cut's order. */
const struct vt_cell *vt_table__cell(const struct vt_table *t, uint32_t i, uint32_t c);
/* Footer rows: how many, their flags, cell c of the k-th. */
uint32_t vt_table__nfooters(const struct vt_table *t);
unsigned vt_table__footer_flags(const struct vt_table *t, uint32_t k);
const struct vt_cell *vt_table__footer_cell(const struct vt_table *t, uint32_t k, uint32_t c);
/* The column whose key is key, or -1. */
int vt_table__find(const struct vt_table *t, const char *key);

#endif
