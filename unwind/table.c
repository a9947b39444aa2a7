// SPDX-License-Identifier: MIT
/*
 * unwind_table: the rows of every function of a core in one array,
 * function f's rows at [first[f], first[f + 1]).
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"
#include "../util/search.h"

struct unwind_table {
	enum unwind_arch arch;
	uint32_t nfuncs;
	uint32_t *start;	/* nfuncs + 1: text offsets, start[nfuncs] = text size */
	uint32_t *first;	/* nfuncs + 1: row indexes */
	struct unwind_row *rows;
};

static int check_args(enum unwind_arch arch, const uint8_t *text, uint32_t text_size,
		      const uint32_t *offsets, uint32_t nfuncs, const uint32_t *insns,
		      size_t ninsns)
{
	if (arch != UNWIND_ARCH_X86_64 && arch != UNWIND_ARCH_AARCH64)
		return -EINVAL;
	if ((text_size && !text) || (nfuncs && !offsets) || (ninsns && !insns))
		return -EINVAL;
	for (uint32_t i = 0; i < nfuncs; i++)
		if (offsets[i] > text_size || (i && offsets[i] < offsets[i - 1]))
			return -EINVAL;
	for (size_t i = 1; i < ninsns; i++)
		if (insns[i] <= insns[i - 1])
			return -EINVAL;
	return 0;
}

static void table_free(struct unwind_table *t)
{
	if (!t)
		return;
	free(t->start);
	free(t->first);
	free(t->rows);
	free(t);
}

struct unwind_table *unwind_table__new(enum unwind_arch arch, const uint8_t *text,
				       uint32_t text_size, const uint32_t *offsets,
				       uint32_t nfuncs, const uint32_t *insns,
				       size_t ninsns, int *err)
{
	struct unwind_table *t;
	struct rowbuf rb = { 0 };
	size_t k = 0;
	int e = check_args(arch, text, text_size, offsets, nfuncs, insns, ninsns);

	if (e) {
		if (err)
			*err = e;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (t) {
		t->start = malloc(((size_t)nfuncs + 1) * sizeof(*t->start));
		t->first = malloc(((size_t)nfuncs + 1) * sizeof(*t->first));
	}
	if (!t || !t->start || !t->first)
		goto oom;
	t->arch = arch;
	t->nfuncs = nfuncs;
	for (uint32_t f = 0; f < nfuncs; f++)
		t->start[f] = offsets[f];
	t->start[nfuncs] = text_size;

	for (uint32_t f = 0; f < nfuncs; f++) {
		uint32_t s = t->start[f], end = t->start[f + 1];
		struct insn_starts is = { .bias = s };

		t->first[f] = rb.n;
		if (end == s)
			continue;
		if (insns) {
			while (k < ninsns && insns[k] < s)
				k++;
			is.insn = insns + k;
			while (k + is.n < ninsns && insns[k + is.n] < end)
				is.n++;
			if (!is.n)
				is.insn = NULL;	/* not decoded: from the bytes */
		}
		rb.base = rb.n;
		if (arch == UNWIND_ARCH_X86_64)
			unwind_rules__x86(text + s, end - s, &is, &rb);
		else
			unwind_rules__a64(text + s, end - s, &is, &rb);
		if (rb.oom)
			goto oom;
	}
	t->first[nfuncs] = rb.n;
	t->rows = rb.v;
	return t;
oom:
	free(rb.v);
	table_free(t);
	if (err)
		*err = -ENOMEM;
	return NULL;
}

void unwind_table__delete(struct unwind_table *t)
{
	table_free(t);
}

enum unwind_arch unwind_table__arch(const struct unwind_table *t)
{
	return t->arch;
}

uint32_t unwind_table__nfuncs(const struct unwind_table *t)
{
	return t->nfuncs;
}

int unwind_table__func(const struct unwind_table *t, uint32_t func,
		       const struct unwind_row **rows, uint32_t *nrows,
		       uint32_t *start, uint32_t *size)
{
	if (func >= t->nfuncs)
		return -1;
	if (rows)
		*rows = t->first[func + 1] > t->first[func] ? t->rows + t->first[func] : NULL;
	if (nrows)
		*nrows = t->first[func + 1] - t->first[func];
	if (start)
		*start = t->start[func];
	if (size)
		*size = t->start[func + 1] - t->start[func];
	return 0;
}

int unwind_table__func_known(const struct unwind_table *t, uint32_t func)
{
	if (func >= t->nfuncs || t->first[func + 1] == t->first[func])
		return 0;
	for (uint32_t r = t->first[func]; r < t->first[func + 1]; r++)
		if (!t->rows[r].known)
			return 0;
	return 1;
}

const struct unwind_row *unwind_table__row(const struct unwind_table *t, uint32_t text_off,
					   uint32_t *func)
{
	uint32_t f, rel, k;

	if (!t->nfuncs || text_off < t->start[0] || text_off >= t->start[t->nfuncs])
		return NULL;
	/* the last function starting at or before text_off (a non-empty one) */
	f = (uint32_t)ap_search__upper(t->start, t->nfuncs, AP_SEARCH_ITEMS(t->start), text_off) - 1;
	while (f + 1 < t->nfuncs && t->start[f + 1] <= text_off)
		f++;
	if (t->first[f + 1] == t->first[f])
		return NULL;
	rel = text_off - t->start[f];
	/* its last row at or before rel; the first when none is (it starts at 0) */
	k = (uint32_t)ap_search__upper(t->rows + t->first[f], t->first[f + 1] - t->first[f],
				       AP_SEARCH_FIELD(t->rows, off), rel);
	if (func)
		*func = f;
	return &t->rows[t->first[f] + (k ? k - 1 : 0)];
}
