// SPDX-License-Identifier: MIT
/*
 * Which core of one build is which core of the other, and names that sit
 * at another wasm index (docs/compare.md "Matching"). Functions themselves
 * are matched by wasm index in diff.c; names never decide a match.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

const char *cmp__core_label(const struct cwasm_module *m)
{
	if (m->core_label)
		return m->core_label;
	return m->path ? m->path : "core";
}

static int mods_have_idx(const struct cwasm_module *const *mods, uint32_t n)
{
	for (uint32_t c = 0; c < n; c++)
		if (mods[c]->manifest_idx < 0)
			return 0;
	return 1;
}

static int all_have_idx(const struct cmp_side *s)
{
	return mods_have_idx(s->mods, s->ncores);
}

int cmp_core__paired(const struct cwasm_module *const *from, uint32_t nfrom,
		     const struct cwasm_module *const *to, uint32_t nto, uint32_t core)
{
	if (core >= nfrom)
		return -1;
	if (!mods_have_idx(from, nfrom) || !mods_have_idx(to, nto))
		return core < nto ? (int)core : -1;
	for (uint32_t k = 0; k < nto; k++)
		if (to[k]->manifest_idx == from[core]->manifest_idx)
			return (int)k;
	return -1;
}

static int dup_idx(const struct cmp_side *s, struct ap_err *err)
{
	for (uint32_t i = 0; i < s->ncores; i++)
		for (uint32_t j = i + 1; j < s->ncores; j++)
			if (s->mods[i]->manifest_idx == s->mods[j]->manifest_idx)
				return ap_errf(err, "%s: two cores with manifest idx %d (%s, %s)",
					       s->label ? s->label : "profile",
					       s->mods[i]->manifest_idx,
					       s->mods[i]->path ? s->mods[i]->path : "?",
					       s->mods[j]->path ? s->mods[j]->path : "?");
	return 0;
}

int cmp__pair_cores(const struct cmp_side *b, const struct cmp_side *a, struct cmp_pair **out,
		    uint32_t *npairs, struct ap_err *err)
{
	int by_idx = all_have_idx(b) && all_have_idx(a);
	struct cmp_pair *p = calloc((size_t)b->ncores + a->ncores, sizeof(*p));
	uint32_t n = 0;

	*out = NULL;
	*npairs = 0;
	if (!p)
		return ap_err_nomem(err);
	if (by_idx && (dup_idx(b, err) < 0 || dup_idx(a, err) < 0)) {
		free(p);
		return -1;
	}
	for (uint32_t i = 0; i < b->ncores; i++) {
		int j = -1;

		if (by_idx) {
			for (uint32_t k = 0; k < a->ncores; k++)
				if (a->mods[k]->manifest_idx == b->mods[i]->manifest_idx)
					j = (int)k;
		} else if (i < a->ncores) {
			j = (int)i;
		}
		p[n].before = (int)i;
		p[n].after = j;
		p[n].manifest_idx = by_idx ? b->mods[i]->manifest_idx : -1;
		n++;
	}
	/* cores only the after side has, in its order */
	for (uint32_t k = 0; k < a->ncores; k++) {
		int seen = 0;

		for (uint32_t i = 0; i < n; i++)
			seen |= p[i].after == (int)k;
		if (seen)
			continue;
		p[n].before = -1;
		p[n].after = (int)k;
		p[n].manifest_idx = by_idx ? a->mods[k]->manifest_idx : -1;
		n++;
	}
	*out = p;
	*npairs = n;
	return 0;
}

struct named {
	const char *name;
	uint32_t wasm;
};

static int cmp_named(const void *x, const void *y)
{
	const struct named *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a->wasm < b->wasm ? -1 : a->wasm > b->wasm;
}

/* The names of m's local functions that occur once, sorted; *n of them. */
static struct named *unique_names(const struct cwasm_module *m, uint32_t *n)
{
	struct named *v = malloc((m->nfuncs ? m->nfuncs : 1) * sizeof(*v));
	uint32_t k = 0, w = 0;

	*n = 0;
	if (!v)
		return NULL;
	for (uint32_t f = 0; f < m->nfuncs; f++)
		if (m->funcs[f].name)
			v[k++] = (struct named){ m->funcs[f].name, cwasm__wasm_index(m, f) };
	qsort(v, k, sizeof(*v), cmp_named);
	for (uint32_t i = 0; i < k;) {
		uint32_t j = i + 1;

		while (j < k && !strcmp(v[j].name, v[i].name))
			j++;
		if (j == i + 1)
			v[w++] = v[i];
		i = j;
	}
	*n = w;
	return v;
}

static int cmp_move_wasm(const void *x, const void *y)
{
	const struct cmp_move *a = x, *b = y;

	if (a->wasm_before != b->wasm_before)
		return a->wasm_before < b->wasm_before ? -1 : 1;
	return 0;
}

int cmp__find_moves(uint32_t pair, const struct cwasm_module *b, const struct cwasm_module *a,
		    struct cmp_move **moves, uint32_t *nmoves, size_t *cap)
{
	uint32_t nb, na, i = 0, j = 0, first = *nmoves;
	struct named *vb = unique_names(b, &nb), *va = unique_names(a, &na);
	int rc = 0;

	if (!vb || !va) {
		rc = -1;
		goto out;
	}
	while (i < nb && j < na) {
		int c = strcmp(vb[i].name, va[j].name);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			if (vb[i].wasm != va[j].wasm) {
				if (cmp__grow((void **)moves, cap, *nmoves + 1, sizeof(**moves)) < 0) {
					rc = -1;
					goto out;
				}
				(*moves)[(*nmoves)++] = (struct cmp_move){
					pair, vb[i].name, vb[i].wasm, va[j].wasm };
			}
			i++;
			j++;
		}
	}
	if (*nmoves > first)
		qsort(*moves + first, *nmoves - first, sizeof(**moves), cmp_move_wasm);
out:
	free(vb);
	free(va);
	return rc;
}
