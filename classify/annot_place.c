// SPDX-License-Identifier: MIT
/* Which instruction a perf annotate line's samples belong to (annot_place.h). */
#include <stdlib.h>
#include <string.h>
#include "annot_place.h"
#include "../util/search.h"

/* The first entry starting at or after addr (f->ninsns if none). */
static uint32_t first_from(const struct cls_func *f, uint64_t addr)
{
	return (uint32_t)ap_search__lower(f->insns, f->ninsns, AP_SEARCH_FIELD(f->insns, addr), addr);
}

/* Instructions (not data) starting in [a, b): how many, the first in *first. */
static uint32_t starts_in(const struct cls_func *f, uint64_t a, uint64_t b, uint32_t *first)
{
	uint32_t n = 0;

	*first = UINT32_MAX;
	for (uint32_t i = first_from(f, a); i < f->ninsns && f->insns[i].addr < b; i++) {
		if (f->insns[i].cls == CLS_DATA)
			continue;
		if (!n++)
			*first = i;
	}
	return n;
}

static int add_span(struct cls_annot_func *fn, uint64_t a, uint64_t b, uint64_t s)
{
	struct cls_annot_span *v = realloc(fn->spans, (fn->nspans + 1) * sizeof(*v));

	if (!v)
		return -1;
	fn->spans = v;
	v[fn->nspans++] = (struct cls_annot_span){ .addr = a, .end = b, .samples = s };
	fn->ambiguous += s;
	return 0;
}

int cls_annot__place_line(struct cls_annot_func *fn, uint64_t a, uint64_t b, uint64_t s)
{
	uint32_t first, n = starts_in(&fn->func, a, b, &first);
	int64_t k;

	if (n == 1) {
		fn->samples[first] += s;
		if (fn->func.insns[first].addr != a) {
			fn->realigned += s;
			fn->nrealigned++;
		}
		return 0;
	}
	if (n > 1)
		return add_span(fn, a, b, s);
	k = cls__insn_at(&fn->func, a);
	if (k < 0)
		fn->unplaced += s;
	else
		fn->samples[k] += s;
	return 0;
}

/* The block of exact listing the same symbol in the same file, or NULL. */
static const struct cls_annot_func *same_symbol(const struct cls_annot *exact,
						const struct cls_annot_func *fn)
{
	for (uint32_t i = 0; i < exact->n; i++) {
		const struct cls_annot_func *e = &exact->funcs[i];

		if (e->byte_samples && !strcmp(e->symbol, fn->symbol) &&
		    (!e->dso[0] || !fn->dso[0] || !strcmp(e->dso, fn->dso)))
			return e;
	}
	return NULL;
}

/* The recording's samples in [a, b), when e lists all of those bytes; else UINT64_MAX. */
static uint64_t bytes_sum(const struct cls_annot_func *e, uint64_t a, uint64_t b)
{
	uint64_t n = 0;

	if (a < e->byte_addr || b > e->byte_addr + e->byte_len || b < a)
		return UINT64_MAX;
	for (uint64_t x = a; x < b; x++)
		n += e->byte_samples[x - e->byte_addr];
	return n;
}

uint64_t cls_annot__resolve(struct cls_annot *a, const struct cls_annot *exact)
{
	uint64_t left = 0;

	for (uint32_t i = 0; i < a->n; i++) {
		struct cls_annot_func *fn = &a->funcs[i];
		const struct cls_annot_func *e = fn->nspans ? same_symbol(exact, fn) : NULL;
		int placed = 0;

		for (uint32_t k = 0; e && k < fn->nspans; k++) {
			struct cls_annot_span *sp = &fn->spans[k];

			if (sp->resolved || bytes_sum(e, sp->addr, sp->end) != sp->samples)
				continue;
			for (uint64_t x = sp->addr; x < sp->end; x++) {
				uint64_t n = e->byte_samples[x - e->byte_addr];
				int64_t at = n ? cls__insn_at(&fn->func, x) : -1;

				if (at >= 0)
					fn->samples[at] += n;
				else
					fn->unplaced += n;
			}
			sp->resolved = 1;
			fn->ambiguous -= sp->samples;
			fn->resolved += sp->samples;
			placed = 1;
		}
		if (placed) {
			int pct = fn->table.percent_only;

			cls__tabulate(&fn->func, fn->samples, &fn->table);
			fn->table.percent_only = pct;
		}
		left += fn->ambiguous;
	}
	return left;
}
