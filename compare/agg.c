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
	in = 0;
	for (uint32_t k = 0; c->self_period && k < s->ncores; k++)
		for (uint32_t f = 0; c->self_period[k] && f < s->mods[k]->nfuncs; f++)
			in += c->self_period[k][f];
	if (in > c->total_period)
		return ap_errf(err, "%s: more time in functions (%" PRIu64 ") than in the run "
			       "(%" PRIu64 ")", l, in, c->total_period);
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

/* time from per-capture periods[k] of samples[k] samples */
static void time_of(uint32_t n, const uint64_t *periods, const uint64_t *samples,
		    double *scratch, struct cmp_time *out)
{
	memset(out, 0, sizeof(*out));
	out->n = n;
	for (uint32_t k = 0; k < n; k++) {
		scratch[k] = (double)periods[k];
		out->samples += samples[k];
		out->period += periods[k];
	}
	stats__describe(scratch, n, &out->mean, &out->sd, &out->min, &out->max);
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

/* every capture has its periods (and, with incl, the inclusive ones) for every core */
static int side_has_time(const struct cmp_side *s, int incl)
{
	for (uint32_t k = 0; k < s->ncaptures; k++) {
		const struct cmp_capture *c = &s->captures[k];

		if (!c->total_period || !c->self_period || (incl && !c->incl_period))
			return 0;
		for (uint32_t m = 0; m < s->ncores; m++)
			if (!c->self_period[m] || (incl && !c->incl_period[m]))
				return 0;
	}
	return 1;
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

/* Per-capture scratch rows of one side's aggregation. */
struct agg_scratch {
	uint64_t *counts, *periods, *in_core, *in_core_period;
	double *v;
};

/* function f of core c: its time (self, or inclusive) */
static void func_time(const struct cmp_side *s, uint32_t c, uint32_t f, int incl,
		      struct agg_scratch *x, struct cmp_time *out)
{
	for (uint32_t k = 0; k < s->ncaptures; k++) {
		const struct cmp_capture *cp = &s->captures[k];

		x->counts[k] = incl ? cp->incl[c][f] : cp->self[c][f];
		x->periods[k] = incl ? cp->incl_period[c][f] : cp->self_period[c][f];
	}
	time_of(s->ncaptures, x->periods, x->counts, x->v, out);
}

static int fill_core(const struct cmp_side *s, uint32_t c, int incl, int time, int incl_time,
		     struct agg_scratch *x, struct cmp_agg_core *ac)
{
	uint32_t nf = s->mods[c]->nfuncs;

	ac->mod = s->mods[c];
	ac->self = calloc(nf ? nf : 1, sizeof(*ac->self));
	if (incl)
		ac->incl = calloc(nf ? nf : 1, sizeof(*ac->incl));
	if (time)
		ac->self_time = calloc(nf ? nf : 1, sizeof(*ac->self_time));
	if (incl_time)
		ac->incl_time = calloc(nf ? nf : 1, sizeof(*ac->incl_time));
	if (!ac->self || (incl && !ac->incl) || (time && !ac->self_time) ||
	    (incl_time && !ac->incl_time))
		return -1;
	memset(x->in_core, 0, s->ncaptures * sizeof(*x->in_core));
	memset(x->in_core_period, 0, s->ncaptures * sizeof(*x->in_core_period));
	for (uint32_t f = 0; f < nf; f++) {
		for (uint32_t k = 0; k < s->ncaptures; k++) {
			x->counts[k] = s->captures[k].self[c][f];
			x->in_core[k] += x->counts[k];
			if (time)
				x->in_core_period[k] += s->captures[k].self_period[c][f];
		}
		share_of(s, x->counts, x->v, &ac->self[f]);
		if (time)
			func_time(s, c, f, 0, x, &ac->self_time[f]);
		if (incl_time)
			func_time(s, c, f, 1, x, &ac->incl_time[f]);
		if (!incl)
			continue;
		for (uint32_t k = 0; k < s->ncaptures; k++)
			x->counts[k] = s->captures[k].incl[c][f];
		share_of(s, x->counts, x->v, &ac->incl[f]);
	}
	share_of(s, x->in_core, x->v, &ac->core);
	if (time)
		time_of(s->ncaptures, x->in_core_period, x->in_core, x->v, &ac->core_time);
	return rank_core(ac);
}

static void scratch_exit(struct agg_scratch *x)
{
	free(x->counts);
	free(x->periods);
	free(x->in_core);
	free(x->in_core_period);
	free(x->v);
}

/* the wasm and run totals, from the cores' (x->counts, x->periods as scratch) */
static void side_totals(const struct cmp_side *s, struct cmp_agg *a, struct agg_scratch *x)
{
	uint32_t n = s->ncaptures;

	/* summed per capture over the cores' functions */
	memset(x->counts, 0, n * sizeof(*x->counts));
	memset(x->periods, 0, n * sizeof(*x->periods));
	for (uint32_t k = 0; k < n; k++)
		for (uint32_t c = 0; c < s->ncores; c++)
			for (uint32_t f = 0; f < s->mods[c]->nfuncs; f++) {
				x->counts[k] += s->captures[k].self[c][f];
				if (a->has_time)
					x->periods[k] += s->captures[k].self_period[c][f];
			}
	share_of(s, x->counts, x->v, &a->wasm);
	if (!a->has_time)
		return;
	time_of(n, x->periods, x->counts, x->v, &a->wasm_time);
	for (uint32_t k = 0; k < n; k++) {
		x->counts[k] = s->captures[k].total;
		x->periods[k] = s->captures[k].total_period;
	}
	time_of(n, x->periods, x->counts, x->v, &a->run_time);
}

int cmp_agg__new(const struct cmp_side *s, struct cmp_agg **out, struct ap_err *err)
{
	const char *l = s->label ? s->label : "profile";
	struct agg_scratch x = { 0 };
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
	a->has_time = side_has_time(s, 0);
	a->cores = calloc(s->ncores, sizeof(*a->cores));
	x.counts = calloc(s->ncaptures, sizeof(*x.counts));
	x.periods = calloc(s->ncaptures, sizeof(*x.periods));
	x.in_core = calloc(s->ncaptures, sizeof(*x.in_core));
	x.in_core_period = calloc(s->ncaptures, sizeof(*x.in_core_period));
	x.v = calloc(s->ncaptures, sizeof(*x.v));
	if (!a->cores || !x.counts || !x.periods || !x.in_core || !x.in_core_period || !x.v)
		goto nomem;
	for (uint32_t c = 0; c < s->ncores; c++)
		if (fill_core(s, c, a->has_incl, a->has_time,
			      a->has_incl && a->has_time && side_has_time(s, 1), &x,
			      &a->cores[c]) < 0)
			goto nomem;
	side_totals(s, a, &x);
	scratch_exit(&x);
	*out = a;
	return 0;
nomem:
	scratch_exit(&x);
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
		free(a->cores[c].self_time);
		free(a->cores[c].incl_time);
		free(a->cores[c].rank);
	}
	free(a->cores);
	free(a);
}
