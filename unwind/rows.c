// SPDX-License-Identifier: MIT
/*
 * What the rule finders (rules_x86.c, rules_a64.c) and table.c share
 * (internal.h): the row buffer and a function's instruction starts.
 */
#include <stdlib.h>

#include "internal.h"
#include "../util/search.h"

const struct unwind_row unwind_row_unknown = { .known = 0 };

int unwind_row__same(const struct unwind_row *a, const struct unwind_row *b)
{
	if (a->known != b->known)
		return 0;
	if (!a->known)
		return 1;
	return a->cfa_reg == b->cfa_reg && a->cfa_off == b->cfa_off &&
	       a->ra_where == b->ra_where && a->fp_where == b->fp_where &&
	       (a->ra_where != UNWIND_AT_CFA || a->ra_off == b->ra_off) &&
	       (a->fp_where != UNWIND_AT_CFA || a->fp_off == b->fp_off);
}

void rowbuf__put(struct rowbuf *rb, uint32_t off, const struct unwind_row *r)
{
	struct unwind_row *last = rb->n > rb->base ? &rb->v[rb->n - 1] : NULL;

	if (rb->oom || (last && off < last->off))
		return;
	if (last && last->off == off) {
		*last = *r;
		last->off = off;
		if (rb->n - 1 > rb->base && unwind_row__same(&rb->v[rb->n - 2], last))
			rb->n--;
		return;
	}
	if (last && unwind_row__same(last, r))
		return;
	if (rb->n == rb->cap) {
		uint32_t cap = rb->cap ? rb->cap * 2 : 1024;
		struct unwind_row *v = realloc(rb->v, (size_t)cap * sizeof(*v));

		if (!v) {
			rb->oom = 1;
			return;
		}
		rb->v = v;
		rb->cap = cap;
	}
	rb->v[rb->n] = *r;
	rb->v[rb->n].off = off;
	rb->n++;
}

int insn_starts__has(const struct insn_starts *is, uint32_t off, uint32_t *idx)
{
	uint32_t lo;

	if (!is->insn) {
		*idx = off;
		return 1;
	}
	/* insn[i] - bias < off: every start is at or past bias, its function's */
	lo = (uint32_t)ap_search__lower(is->insn, is->n, AP_SEARCH_ITEMS(is->insn),
					(uint64_t)off + is->bias);
	*idx = lo;
	return lo < is->n && insn_at(is, lo) == off;
}

uint32_t insn_starts__next(const struct insn_starts *is, uint32_t idx, uint32_t end)
{
	if (!is->insn)
		return idx + 1 < end ? idx + 1 : end;
	return idx + 1 < is->n && insn_at(is, idx + 1) < end ? insn_at(is, idx + 1) : end;
}
