// SPDX-License-Identifier: MIT
/*
 * One side's captures (repeated runs of one build) aggregated per core and
 * function: the mean of the per-capture shares, their spread and range.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "stats.h"

static int check_capture(const struct cmp_side *s, const struct cmp_capture *c,
			 struct ap_err *err)
{
	const char *l = c->label ? c->label : s->label ? s->label : "capture";
	uint64_t in = 0;

	if (c->total == 0)
		return ap_errf(err, "%s: no samples", l);
	if (!c->self)
		return ap_errf(err, "%s: no per-function samples", l);
	for (uint32_t k = 0; k < s->ncores; k++) {
		const struct cwasm_module *m = s->mods[k];

		if (!c->self[k])
			return ap_errf(err, "%s: no per-function samples for %s", l,
				       cmp__core_label(m));
		for (uint32_t f = 0; f < m->nfuncs; f++) {
			in += c->self[k][f];
			if (c->incl && c->incl[k] && c->incl[k][f] > c->total)
				return ap_errf(err, "%s: %s local_func_%" PRIu32 " has more "
					       "inclusive samples (%" PRIu64 ") than the run (%"
					       PRIu64 ")", l, cmp__core_label(m), f,
					       c->incl[k][f], c->total);
		}
	}
	if (in > c->total)
		return ap_errf(err, "%s: more samples in functions (%" PRIu64 ") than in "
			       "the run (%" PRIu64 ")", l, in, c->total);
	return 0;
}

/* share from per-capture counts: counts[k] of caps[k].total */
static void share_of(const struct cmp_side *s, const uint64_t *counts, double *scratch,
		     struct cmp_share *out)
{
	memset(out, 0, sizeof(*out));
	out->n = s->ncaptures;
	for (uint32_t k = 0; k < s->ncaptures; k++) {
		scratch[k] = 100.0 * (double)counts[k] / (double)s->captures[k].total;
		out->samples += counts[k];
		out->total += s->captures[k].total;
	}
	stats__describe(scratch, s->ncaptures, &out->mean, &out->sd, &out->min, &out->max);
}

struct rank_ent {
	double mean;
	uint32_t f;
};

static int cmp_rank(const void *a, const void *b)
{
	const struct rank_ent *x = a, *y = b;

	if (x->mean != y->mean)
		return x->mean > y->mean ? -1 : 1;
	return x->f < y->f ? -1 : x->f > y->f;
}

static int rank_core(struct cmp_agg_core *c)
{
	uint32_t n = 0, nf = c->mod->nfuncs;
	struct rank_ent *r;

	for (uint32_t f = 0; f < nf; f++)
		n += c->self[f].samples > 0;
	c->rank = malloc((n ? n : 1) * sizeof(*c->rank));
	r = malloc((n ? n : 1) * sizeof(*r));
	if (!c->rank || !r) {
		free(r);
		return -1;
	}
	n = 0;
	for (uint32_t f = 0; f < nf; f++)
		if (c->self[f].samples > 0)
			r[n++] = (struct rank_ent){ c->self[f].mean, f };
	qsort(r, n, sizeof(*r), cmp_rank);
	for (uint32_t i = 0; i < n; i++)
		c->rank[i] = r[i].f;
	c->nranked = n;
	free(r);
	return 0;
}

/* every capture has inclusive counts for every core */
static int side_has_incl(const struct cmp_side *s)
{
	for (uint32_t k = 0; k < s->ncaptures; k++) {
		if (!s->captures[k].incl)
			return 0;
		for (uint32_t c = 0; c < s->ncores; c++)
			if (!s->captures[k].incl[c])
				return 0;
	}
	return 1;
}

static int fill_core(const struct cmp_side *s, uint32_t c, int incl, uint64_t *counts,
		     uint64_t *in_core, double *scratch, struct cmp_agg_core *ac)
{
	uint32_t nf = s->mods[c]->nfuncs;

	ac->mod = s->mods[c];
	ac->self = calloc(nf ? nf : 1, sizeof(*ac->self));
	if (incl)
		ac->incl = calloc(nf ? nf : 1, sizeof(*ac->incl));
	if (!ac->self || (incl && !ac->incl))
		return -1;
	memset(in_core, 0, s->ncaptures * sizeof(*in_core));
	for (uint32_t f = 0; f < nf; f++) {
		for (uint32_t k = 0; k < s->ncaptures; k++) {
			counts[k] = s->captures[k].self[c][f];
			in_core[k] += counts[k];
		}
		share_of(s, counts, scratch, &ac->self[f]);
		if (!incl)
			continue;
		for (uint32_t k = 0; k < s->ncaptures; k++)
			counts[k] = s->captures[k].incl[c][f];
		share_of(s, counts, scratch, &ac->incl[f]);
	}
	share_of(s, in_core, scratch, &ac->core);
	return rank_core(ac);
}

int cmp_agg__new(const struct cmp_side *s, struct cmp_agg **out, struct ap_err *err)
{
	const char *l = s->label ? s->label : "profile";
	uint64_t *counts = NULL, *in_core = NULL, *in_wasm = NULL;
	double *scratch = NULL;
	struct cmp_agg *a;

	*out = NULL;
	if (s->ncaptures == 0 || !s->captures)
		return ap_errf(err, "%s: no recordings", l);
	if (s->ncores == 0 || !s->mods)
		return ap_errf(err, "%s: no cores", l);
	for (uint32_t k = 0; k < s->ncaptures; k++)
		if (check_capture(s, &s->captures[k], err) < 0)
			return -1;
	a = calloc(1, sizeof(*a));
	if (!a)
		return ap_err_nomem(err);
	a->ncaptures = s->ncaptures;
	a->ncores = s->ncores;
	a->has_incl = side_has_incl(s);
	a->cores = calloc(s->ncores, sizeof(*a->cores));
	counts = calloc(s->ncaptures, sizeof(*counts));
	in_core = calloc(s->ncaptures, sizeof(*in_core));
	in_wasm = calloc(s->ncaptures, sizeof(*in_wasm));
	scratch = calloc(s->ncaptures, sizeof(*scratch));
	if (!a->cores || !counts || !in_core || !in_wasm || !scratch)
		goto nomem;
	for (uint32_t c = 0; c < s->ncores; c++) {
		if (fill_core(s, c, a->has_incl, counts, in_core, scratch, &a->cores[c]) < 0)
			goto nomem;
		for (uint32_t k = 0; k < s->ncaptures; k++)
			in_wasm[k] += in_core[k];
	}
	share_of(s, in_wasm, scratch, &a->wasm);
	free(counts);
	free(in_core);
	free(in_wasm);
	free(scratch);
	*out = a;
	return 0;
nomem:
	free(counts);
	free(in_core);
	free(in_wasm);
	free(scratch);
	cmp_agg__delete(a);
	return ap_err_nomem(err);
}

void cmp_agg__delete(struct cmp_agg *a)
{
	if (!a)
		return;
	for (uint32_t c = 0; a->cores && c < a->ncores; c++) {
		free(a->cores[c].self);
		free(a->cores[c].incl);
		free(a->cores[c].rank);
	}
	free(a->cores);
	free(a);
}
