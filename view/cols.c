// SPDX-License-Identifier: MIT
/*
 * Building a view's columns (internal.h): one column at a time, and the
 * groups of a share or a time before, after and its change, whose JSON
 * keys are the diff's (docs/compare.md "JSON").
 */
#include <stdio.h>
#include "internal.h"

uint32_t vcols__add(struct vcols *s, const char *key, const char *head, enum vt_kind kind,
		    unsigned flags)
{
	uint32_t i = s->n < VCOLS_MAX ? s->n++ : VCOLS_MAX - 1;

	s->c[i] = (struct vt_col){ .key = key, .head = head, .kind = kind, .flags = flags,
				   .prec = -1, .json_prec = -1 };
	return i;
}

void vcols__prec(struct vcols *s, int prec, int json_prec)
{
	s->c[s->n - 1].prec = prec;
	s->c[s->n - 1].json_prec = json_prec;
}

void view__p_words(double p, char *buf, size_t len)
{
	if (p < 1e-9)
		snprintf(buf, len, "<1e-9");
	else
		snprintf(buf, len, "%.2g", p);
}

const char *view__test_key(enum cmp_test t)
{
	switch (t) {
	case CMP_TEST_Z: return "z";
	case CMP_TEST_WELCH: return "welch";
	case CMP_TEST_POISSON: return "poisson";
	case CMP_TEST_NONE: break;
	}
	return "none";
}

/*
 * Offsets inside a group: a side's members (share: 7, time: 6), then the
 * change's. The layout is fixed; vgroup__share/time fill it by these.
 */
enum { S_SIDE = 7, T_SIDE = 6 };
enum { C_DELTA, C_REL, C_TEST, C_STAT, C_DF, C_P, C_PADJ, C_MARK, C_LO, C_HI, C_SIG };

/* flags: shown in text when bit is in text, in Markdown when in md */
static unsigned vis(unsigned bit, unsigned text, unsigned md)
{
	return (text & bit ? 0 : VT_NO_TEXT) | (md & bit ? 0 : VT_NO_MD);
}

static const char *const before_keys[] = { "before.mean", "before.sd", "before.min",
					   "before.max", "before.samples",
					   "before.total_samples", "before.captures" };
static const char *const after_keys[] = { "after.mean", "after.sd", "after.min", "after.max",
					  "after.samples", "after.total_samples",
					  "after.captures" };
static const char *const change_share[] = { "change.points", "change.relative_pct",
					    "change.test", "change.statistic", "change.df",
					    "change.p", "change.p_adjusted", NULL,
					    "change.ci_points[]", "change.ci_points[]",
					    "change.significant" };
static const char *const change_time[] = { "change.delta", "change.relative_pct",
					   "change.test", "change.statistic", "change.df",
					   "change.p", "change.p_adjusted", NULL, "change.ci[]",
					   "change.ci[]", "change.significant" };

static void side_cols(struct vcols *s, const char *prefix, const char *const *k, int time,
		      const char *head, unsigned text, unsigned md)
{
	enum vt_kind kind = time ? VT_NS : VT_PERCENT;
	unsigned hide = VT_NO_TEXT | VT_NO_MD;

	vcols__add(s, k[0], head, kind, vis(VG_MEAN, text, md));
	vcols__add(s, k[1], "sd", kind, vis(VG_SD, text, md));
	vcols__add(s, k[2], "min", kind, hide);
	vcols__add(s, k[3], "max", kind, hide);
	vcols__add(s, k[4], "samples", VT_COUNT, hide);
	if (!time)
		vcols__add(s, k[5], "total", VT_COUNT, hide);
	vcols__add(s, k[6], "captures", VT_COUNT, hide);
	for (uint32_t i = s->n - (time ? T_SIDE : S_SIDE); i < s->n; i++)
		s->c[i].prefix = prefix;
}

uint32_t vcols__change(struct vcols *s, const char *prefix, int time, unsigned text,
		       unsigned md, const char *head)
{
	const char *const *k = time ? change_time : change_share;
	enum vt_kind kind = time ? VT_NS : VT_POINTS;
	unsigned hide = VT_NO_TEXT | VT_NO_MD;
	uint32_t first = s->n;

	vcols__add(s, k[C_DELTA], head, kind, VT_SIGNED | vis(VG_DELTA, text, md));
	vcols__add(s, k[C_REL], "rel", VT_REL, vis(VG_REL, text, md));
	s->c[s->n - 1].md_head = "relative";
	vcols__add(s, k[C_TEST], "test", VT_TEXT, hide);
	vcols__add(s, k[C_STAT], "statistic", VT_RATIO, hide);
	vcols__add(s, k[C_DF], "df", VT_RATIO, hide);
	vcols__prec(s, -1, 2);
	vcols__add(s, k[C_P], "p", VT_PVALUE, hide);
	vcols__add(s, k[C_PADJ], "p(adj)", VT_PVALUE, vis(VG_P, text, md));
	s->c[s->n - 1].md_head = "p (adj.)";
	s->c[s->n - 1].absent = "-";
	vcols__add(s, NULL, "", VT_TEXT, VT_TIGHT | VT_NO_MD | (text & VG_MARK ? 0 : VT_NO_TEXT));
	vcols__add(s, k[C_LO], "CI low", kind, VT_SIGNED | vis(VG_CI, text, md));
	vcols__add(s, k[C_HI], "CI high", kind, VT_SIGNED | vis(VG_CI, text, md));
	vcols__add(s, k[C_SIG], "significant", VT_BOOL, vis(VG_SIG, text, md));
	for (uint32_t i = first; i < s->n; i++)
		s->c[i].prefix = prefix;
	return first;
}

struct vgroup vcols__group(struct vcols *s, const char *prefix, int time, unsigned text,
			   unsigned md, const struct vgroup_heads *h)
{
	struct vgroup g = { s->n, time };

	side_cols(s, prefix, before_keys, time, h->before, text, md);
	side_cols(s, prefix, after_keys, time, h->after, text, md);
	vcols__change(s, prefix, time, text, md, h->change);
	return g;
}

uint32_t vgroup__delta_col(struct vgroup g)
{
	return g.first + 2 * (g.time ? T_SIDE : S_SIDE) + C_DELTA;
}

void vchange__put(struct vt_table *t, uint32_t at, const struct cmp_change *ch)
{
	vt_table__dbl(t, at + C_DELTA, ch->delta);
	if (ch->has_rel)
		vt_table__dbl(t, at + C_REL, ch->rel_pct);
	else if (ch->delta > 0)
		vt_table__word(t, at + C_REL, "new");
	vt_table__str(t, at + C_TEST, view__test_key(ch->test));
	vt_table__dbl(t, at + C_STAT, ch->stat);
	if (ch->test == CMP_TEST_WELCH)
		vt_table__dbl(t, at + C_DF, ch->df);
	vt_table__dbl(t, at + C_P, ch->p);
	vt_table__dbl(t, at + C_PADJ, ch->p_adj);
	if (ch->test == CMP_TEST_NONE)
		vt_table__word(t, at + C_PADJ, "-");
	else
		vt_table__str(t, at + C_MARK, ch->significant ? " *" : "");
	if (ch->test != CMP_TEST_NONE) {
		vt_table__dbl(t, at + C_LO, ch->ci_lo);
		vt_table__dbl(t, at + C_HI, ch->ci_hi);
	}
	vt_table__bool(t, at + C_SIG, ch->significant);
}

/* one side's cells of a group at `at` (share: with its total, S_SIDE cells; time: T_SIDE) */
static void side_put(struct vt_table *t, uint32_t at, double mean, double sd, double min,
		     double max, uint64_t samples, const uint64_t *total, uint32_t n)
{
	vt_table__dbl(t, at, mean);
	vt_table__dbl(t, at + 1, sd);
	vt_table__dbl(t, at + 2, min);
	vt_table__dbl(t, at + 3, max);
	vt_table__u64(t, at + 4, samples);
	if (total)
		vt_table__u64(t, at++ + 5, *total);
	vt_table__u64(t, at + 5, n);
}

void vgroup__share(struct vt_table *t, struct vgroup g, const struct cmp_metric *m)
{
	const struct cmp_share *sd[2];

	if (!m || !m->valid)
		return;
	sd[0] = &m->before;
	sd[1] = &m->after;
	for (int k = 0; k < 2; k++)
		side_put(t, g.first + (uint32_t)k * S_SIDE, sd[k]->mean, sd[k]->sd, sd[k]->min,
			 sd[k]->max, sd[k]->samples, &sd[k]->total, sd[k]->n);
	vchange__put(t, g.first + 2 * S_SIDE, &m->ch);
}

void vgroup__time(struct vt_table *t, struct vgroup g, const struct cmp_tmetric *m)
{
	const struct cmp_time *sd[2];

	if (!m || !m->valid)
		return;
	sd[0] = &m->before;
	sd[1] = &m->after;
	for (int k = 0; k < 2; k++)
		side_put(t, g.first + (uint32_t)k * T_SIDE, sd[k]->mean, sd[k]->sd, sd[k]->min,
			 sd[k]->max, sd[k]->samples, NULL, sd[k]->n);
	vchange__put(t, g.first + 2 * T_SIDE, &m->ch);
}
