/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_INTERNAL_H
#define AOTPERF_VIEW_INTERNAL_H
/* Shared inside view/ only: building tables column by column, the diff's groups, the report's parts. */
#include "diff.h"
#include "report.h"
#include "table.h"

#define VCOLS_MAX VT_MAX_COLS

/* Columns being described, then handed to vt_table__new (which copies them). */
struct vcols {
	struct vt_col c[VCOLS_MAX];
	uint32_t n;
};

/* Append a column (prec and json_prec the kind's): its index. */
uint32_t vcols__add(struct vcols *s, const char *key, const char *head, enum vt_kind kind,
		    unsigned flags);
/* The last column's decimals in text/Markdown and in JSON (-1: the kind's). */
void vcols__prec(struct vcols *s, int prec, int json_prec);

/*
 * A share or time group of columns (diff.h's cmp_metric / cmp_tmetric)
 * under a JSON prefix: before.{mean, sd, min, max, samples, ...},
 * after.{...}, change.{delta or points, relative_pct, test, ...}. Which
 * of them text and Markdown show: VG_* bits.
 */
enum {
	VG_MEAN = 1 << 0,	/* before and after means */
	VG_SD = 1 << 1,		/* their spreads */
	VG_DELTA = 1 << 2,	/* the change */
	VG_REL = 1 << 3,	/* relative */
	VG_P = 1 << 4,		/* adjusted p */
	VG_CI = 1 << 5,		/* the interval */
	VG_SIG = 1 << 6,	/* "yes" (Markdown) */
	VG_MARK = 1 << 7,	/* "*" after p (text) */
};

struct vgroup {
	uint32_t first;		/* its first column */
	int time;		/* a time group (else a share group) */
};

/* heads: the text/Markdown headings of the before, after and change columns. */
struct vgroup_heads {
	const char *before, *after, *change;
};

/*
 * Only the change's columns (change.points or change.delta, ...), its
 * heading head: the first column's index. vchange__put fills them.
 */
uint32_t vcols__change(struct vcols *s, const char *prefix, int time, unsigned text,
		       unsigned md, const char *head);
void vchange__put(struct vt_table *t, uint32_t first, const struct cmp_change *ch);

struct vgroup vcols__group(struct vcols *s, const char *prefix, int time, unsigned text,
			   unsigned md, const struct vgroup_heads *h);
/* Fill the current row's cells of the group (m NULL or invalid: absent). */
void vgroup__share(struct vt_table *t, struct vgroup g, const struct cmp_metric *m);
void vgroup__time(struct vt_table *t, struct vgroup g, const struct cmp_tmetric *m);
/* The column of the group's change (delta or points), for sorting. */
uint32_t vgroup__delta_col(struct vgroup g);

/* A p-value in a sentence, as the tables print it: "<1e-9", "0.0022". */
void view__p_words(double p, char *buf, size_t len);

/* "none", "z", "welch", "poisson" */
const char *view__test_key(enum cmp_test t);

/* ---- the diff's parts (view/diff-*.c), each filling its members of v ---- */

int view_diff__funcs(struct view_diff *v);
int view_diff__lists(struct view_diff *v);
int view_diff__classes(struct view_diff *v);
int view_diff__gate(struct view_diff *v);
int view_diff__sides(struct view_diff *v);
int view_diff__offcpu(struct view_diff *v);
/* A function's off_cpu.* columns (JSON only): the first's index; filled by view_diff__oc_put. */
uint32_t view_diff__oc_cols(struct vcols *s);
void view_diff__oc_put(struct vt_table *t, uint32_t first, const struct cmp_oc_func *x);

/* ---- the report's parts (view/report-*.c), each filling its members of v ---- */

/* v->host (with p->host), v->host_samples, v->host_pct; -1 when out of memory */
int view_report__host(struct view_report *v);
/* v->sorted (with opts.sort_keys and p->sorted); -1 when out of memory */
int view_report__sorted(struct view_report *v);
/* v->funcs: the classified functions' tables; 0, or -1 with err */
int view_report__funcs(struct view_report *v, struct ap_err *err);
void view_report__funcs_exit(struct view_report *v);

#endif
