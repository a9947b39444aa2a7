// SPDX-License-Identifier: MIT
/* What the compare renderers share (compare.h). */
#include <stdlib.h>
#include "compare.h"

const char *render__compare_engine(const struct render_compare *r)
{
	return eng_engine__name(r->oc->code->name.engine);
}

const char *render__compare_tier(const struct render_compare *r, char *buf, size_t len)
{
	const struct eng_code *c = r->oc->code;

	if (c->name.tier_name)
		snprintf(buf, len, "%s (%s)", eng_tier__name(c->name.tier), c->name.tier_name);
	else
		snprintf(buf, len, "%s", eng_tier__name(c->name.tier));
	return buf;
}

int render__compare_has_row(const struct render_compare *r, int k)
{
	const struct cls_table *w = r->wamr_table, *o = &r->oc->table;

	return w->static_count[k] || w->samples[k] || o->static_count[k] || o->samples[k];
}

uint64_t render__compare_wamr_samples(const struct render_compare *r, uint32_t f)
{
	const struct cmp_side *s = r->wamr;
	uint64_t n = 0;

	if (f >= s->mods[r->core]->nfuncs)
		return 0;
	for (uint32_t k = 0; k < s->ncaptures; k++)
		n += s->captures[k].self[r->core][f];
	return n;
}

struct row {
	uint64_t wamr, other;
	uint32_t idx;
};

static int by_samples(const void *x, const void *y)
{
	const struct row *a = x, *b = y;

	if (a->wamr != b->wamr)
		return a->wamr > b->wamr ? -1 : 1;
	if (a->other != b->other)
		return a->other > b->other ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

uint32_t render__compare_funcs(const struct render_compare *r, uint32_t *idx, uint32_t n)
{
	uint32_t nf = engines__nfuncs(r->other), m = 0;
	struct row *rows = malloc((nf ? nf : 1) * sizeof(*rows));

	if (!rows)
		return 0;
	for (uint32_t i = 0; i < nf; i++) {
		const struct eng_func *f = engines__func(r->other, i);

		if (f->kind != ENG_KIND_FUNCTION || f->local_func < 0 ||
		    f->module != r->oc->func->module)
			continue;
		rows[m++] = (struct row){ render__compare_wamr_samples(r, (uint32_t)f->local_func),
					  f->samples, i };
	}
	qsort(rows, m, sizeof(*rows), by_samples);
	if (m > n)
		m = n;
	for (uint32_t i = 0; i < m; i++)
		idx[i] = rows[i].idx;
	free(rows);
	return m;
}
