// SPDX-License-Identifier: MIT
/* Words and orderings the diff renderers share (diff.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff.h"
#include "../cwasm/coreset.h"

static const struct cwasm_module *pair_mod(const struct render_diff *r, const struct cmp_pair *p,
					   int after)
{
	int c = after ? p->after : p->before;

	return c < 0 ? NULL : (after ? r->after : r->before)->mods[c];
}

const char *render__diff_pair_label(const struct render_diff *r, uint32_t pair, char *buf,
				    size_t len)
{
	const struct cmp_pair *p = &r->d->pairs[pair];
	const struct cwasm_module *b = pair_mod(r, p, 0), *a = pair_mod(r, p, 1);
	const char *lb = b ? core_set__core_name(b) : NULL, *la = a ? core_set__core_name(a) : NULL;

	if (lb && la && strcmp(lb, la))
		snprintf(buf, len, "%s -> %s", lb, la);
	else
		snprintf(buf, len, "%s", la ? la : lb ? lb : "?");
	return buf;
}

const char *render__diff_func_label(const struct render_diff *r, const struct cmp_func *f,
				    char *buf, size_t len)
{
	const char *name = f->name_after ? f->name_after : f->name_before;
	const struct cmp_pair *p = &r->d->pairs[f->pair];
	const struct cwasm_module *m = pair_mod(r, p, f->local_after >= 0);
	char local[32];

	if (!name) {
		snprintf(local, sizeof(local), "local_func_%lld",
			 (long long)(f->local_after >= 0 ? f->local_after : f->local_before));
		name = local;
	}
	if (r->d->npairs > 1 && m && m->core_label)
		snprintf(buf, len, "%s:%s", m->core_label, name);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}

const char *render__diff_test_words(const struct cmp_diff *d)
{
	uint32_t kb = d->before->ncaptures, ka = d->after->ncaptures;

	if (kb >= 2 && ka >= 2)
		return "Welch's t-test on the per-capture shares";
	if (kb >= 2 || ka >= 2)
		return "Welch's t-test, binomial variance for the single capture";
	return "two-proportion z-test on the sample counts";
}

const char *render__diff_adjust_words(enum cmp_adjust a)
{
	switch (a) {
	case CMP_ADJ_HOLM: return "Holm";
	case CMP_ADJ_BONFERRONI: return "Bonferroni";
	case CMP_ADJ_NONE: break;
	}
	return "no";
}

const char *render__diff_p(const struct cmp_change *ch, char *buf, size_t len)
{
	if (ch->test == CMP_TEST_NONE)
		snprintf(buf, len, "-");
	else if (ch->p_adj < 1e-9)
		snprintf(buf, len, "<1e-9");
	else
		snprintf(buf, len, "%.2g", ch->p_adj);
	return buf;
}

const char *render__diff_rel(const struct cmp_change *ch, char *buf, size_t len)
{
	if (!ch->has_rel)
		snprintf(buf, len, ch->points > 0 ? "new" : "");
	else if (fabs(ch->rel_pct) >= 9999.5)
		snprintf(buf, len, "%s", ch->rel_pct > 0 ? ">+9999%" : "<-9999%");
	else
		snprintf(buf, len, "%+.0f%%", ch->rel_pct);
	return buf;
}

static int by_incl(const void *x, const void *y, void *arg)
{
	const struct cmp_diff *d = arg;
	const struct cmp_func *a = &d->funcs[*(const uint32_t *)x];
	const struct cmp_func *b = &d->funcs[*(const uint32_t *)y];
	double da = fabs(a->incl.ch.points), db = fabs(b->incl.ch.points);

	if (da != db)
		return da > db ? -1 : 1;
	return *(const uint32_t *)x < *(const uint32_t *)y ? -1 : 1;
}

uint32_t render__diff_rows(const struct render_diff *r, int incl, uint32_t *rows)
{
	const struct cmp_diff *d = r->d;
	uint32_t n = 0;

	for (uint32_t i = 0; i < d->nfuncs; i++) {
		const struct cmp_func *f = &d->funcs[i];
		const struct cmp_metric *m = incl ? &f->incl : &f->self;

		if (!m->valid || (m->before.samples == 0 && m->after.samples == 0))
			continue;
		rows[n++] = i;
	}
	if (incl && n)
		qsort_r(rows, n, sizeof(*rows), by_incl, (void *)d);
	return n;
}

uint32_t render__diff_shown(const struct render_diff *r, uint32_t nrows)
{
	return r->top && r->top < nrows ? (uint32_t)r->top : nrows;
}

const char *render__tail(const char *s, size_t width, char *buf, size_t len)
{
	size_t n = strlen(s);

	if (n <= width || width < 4)
		return s;
	snprintf(buf, len, "...%s", s + n - (width - 3));
	return buf;
}
