// SPDX-License-Identifier: MIT
/* The off-CPU part of a diff (offcpu_diff.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "offcpu_diff.h"
#include "stats.h"

static int by_row(const void *x, const void *y)
{
	const struct cmp_oc_row *a = x, *b = y;

	if (a->core != b->core)
		return a->core < b->core ? -1 : 1;
	return a->func < b->func ? -1 : a->func > b->func;
}

int cmp_oc_side__add(struct cmp_oc_side *s, const struct cmp_oc_row *rows, size_t n)
{
	size_t k = 0;

	if (!n)
		return 0;
	if (cmp__grow((void **)&s->rows, &s->cap, s->nrows + n, sizeof(*s->rows)))
		return -1;
	memcpy(s->rows + s->nrows, rows, n * sizeof(*rows));
	s->nrows += n;
	qsort(s->rows, s->nrows, sizeof(*s->rows), by_row);
	/* one row per (core, func): the recordings' rows summed */
	for (size_t i = 0; i < s->nrows; i++) {
		const struct cmp_oc_row *r = &s->rows[i];
		struct cmp_oc_row *x = k ? &s->rows[k - 1] : NULL;

		if (x && !by_row(x, r)) {
			x->on_ns += r->on_ns;
			x->on_incl_ns += r->on_incl_ns;
			x->off_ns += r->off_ns;
			x->off_incl_ns += r->off_incl_ns;
			x->intervals += r->intervals;
			x->off_sq += r->off_sq;
		} else {
			s->rows[k++] = *r;
		}
	}
	s->nrows = k;
	return 0;
}

void cmp_oc_side__exit(struct cmp_oc_side *s)
{
	free(s->rows);
	s->rows = NULL;
	s->nrows = s->cap = 0;
}

const char *cmp_offcpu__one_sided(const struct cmp_oc_side *b, const struct cmp_oc_side *a,
				  char *buf, size_t len)
{
	const struct cmp_oc_side *other = b->has ? a : b;

	if (b->has && a->has)
		return NULL;
	if (!b->has && !a->has) {
		if (!b->nwith && !a->nwith)
			return NULL;
		/* some recordings of each side have it: still not comparable */
		snprintf(buf, len, "off-CPU: only %u of %u before and %u of %u after recordings have"
			 " off-CPU data: on-CPU samples compared only", b->nwith, b->ncaptures,
			 a->nwith, a->ncaptures);
		return buf;
	}
	snprintf(buf, len, "off-CPU: only the %s recordings have off-CPU data (%u of %u %s ones"
		 " do): on-CPU samples compared only", b->has ? "before" : "after", other->nwith,
		 other->ncaptures, b->has ? "after" : "before");
	return buf;
}

/* A side's row as a function's values, means per recording. */
static void val_of(struct cmp_oc_val *v, const struct cmp_oc_row *r, uint32_t n)
{
	double k = n ? n : 1;

	memset(v, 0, sizeof(*v));
	if (!r)
		return;
	v->on_ns = r->on_ns / k;
	v->on_incl_ns = r->on_incl_ns / k;
	v->off_ns = r->off_ns / k;
	v->off_incl_ns = r->off_incl_ns / k;
	v->wall_ns = v->on_ns + v->off_ns;
	v->intervals = r->intervals;
	v->mean_interval_ns = r->intervals ? (double)r->off_ns / (double)r->intervals : 0;
}

/* One side of the test: the mean interval, its variance (s^2 / n) and n - 1. */
static int est_of(const struct cmp_oc_row *r, struct stats_est *e)
{
	double n, mean, var;

	if (!r || r->intervals < 2)
		return -1;
	n = (double)r->intervals;
	mean = (double)r->off_ns / n;
	/* sum of squares minus n mean^2, never below 0 for rounding */
	var = (r->off_sq - n * mean * mean) / (n - 1);
	e->mean = mean;
	e->var = (var > 0 ? var : 0) / n;
	e->df = n - 1;
	return 0;
}

static void test(struct cmp_oc_func *f, const struct cmp_oc_row *rb, const struct cmp_oc_row *ra,
		 double level)
{
	struct stats_est eb, ea;
	struct stats_test t;

	f->p = f->p_adj = 1;
	if (est_of(rb, &eb) || est_of(ra, &ea))
		return;
	stats__welch(&eb, &ea, level, &t);
	if (isnan(t.p))		/* no spread on either side: cannot be tested */
		return;
	f->tested = 1;
	f->stat = t.stat;
	f->df = t.df;
	f->p = f->p_adj = t.p;
}

struct key {
	uint32_t pair, wasm;
	int64_t row[2];			/* index into each side's rows, -1 */
};

static int by_key(const void *x, const void *y)
{
	const struct key *a = x, *b = y;

	if (a->pair != b->pair)
		return a->pair < b->pair ? -1 : 1;
	return a->wasm < b->wasm ? -1 : a->wasm > b->wasm;
}

static int by_change(const void *x, const void *y)
{
	const struct cmp_oc_func *a = x, *b = y;
	double da = fabs(a->change_ns), db = fabs(b->change_ns);

	if (da != db)
		return da < db ? 1 : -1;
	if (a->pair != b->pair)
		return a->pair < b->pair ? -1 : 1;
	return a->wasm_index < b->wasm_index ? -1 : a->wasm_index > b->wasm_index;
}

/* Every row of both sides keyed by (pair, wasm index), merged. */
static struct key *keys_of(const struct cmp_diff *d, const struct cmp_oc_side *s[2], size_t *nk)
{
	size_t n = 0, tot = s[0]->nrows + s[1]->nrows;
	struct key *k = calloc(tot ? tot : 1, sizeof(*k)), *out;

	if (!k)
		return NULL;
	for (int side = 0; side < 2; side++) {
		const struct cmp_agg *agg = side ? d->after : d->before;

		for (size_t i = 0; i < s[side]->nrows; i++) {
			const struct cmp_oc_row *r = &s[side]->rows[i];
			int pair = r->core < agg->ncores ? cmp_diff__pair_of(d, side, r->core) : -1;

			if (pair < 0 || r->func >= agg->cores[r->core].mod->nfuncs)
				continue;
			k[n].pair = (uint32_t)pair;
			k[n].wasm = cwasm__wasm_index(agg->cores[r->core].mod, r->func);
			k[n].row[side] = (int64_t)i;
			k[n].row[!side] = -1;
			n++;
		}
	}
	if (n > 1)
		qsort(k, n, sizeof(*k), by_key);
	out = k;
	*nk = 0;
	for (size_t i = 0; i < n; i++) {
		if (*nk && !by_key(&out[*nk - 1], &k[i])) {
			for (int side = 0; side < 2; side++)
				if (k[i].row[side] >= 0)
					out[*nk - 1].row[side] = k[i].row[side];
			continue;
		}
		out[(*nk)++] = k[i];
	}
	return k;
}

/* Names and local indices of (pair, wasm) on both sides. */
static void place(const struct cmp_diff *d, struct cmp_oc_func *f)
{
	const struct cmp_pair *p = &d->pairs[f->pair];
	const struct cmp_agg *agg[2] = { d->before, d->after };
	int core[2] = { p->before, p->after };
	int64_t *local[2] = { &f->local_before, &f->local_after };
	const char **name[2] = { &f->name_before, &f->name_after };

	for (int s = 0; s < 2; s++) {
		const struct cwasm_module *m = core[s] >= 0 ? agg[s]->cores[core[s]].mod : NULL;

		*local[s] = -1;
		*name[s] = NULL;
		if (!m || f->wasm_index < m->import_func_count ||
		    f->wasm_index - m->import_func_count >= m->nfuncs)
			continue;
		*local[s] = f->wasm_index - m->import_func_count;
		*name[s] = m->funcs[*local[s]].name;
	}
	f->func = cmp_diff__find(d, f->pair, f->wasm_index);
}

static int adjust(struct cmp_offcpu *oc)
{
	double *p;
	uint32_t m = 0;

	for (uint32_t i = 0; i < oc->nfuncs; i++)
		m += oc->funcs[i].tested;
	oc->ntested = m;
	if (!m)
		return 0;
	p = malloc(m * sizeof(*p));
	if (!p)
		return -1;
	m = 0;
	for (uint32_t i = 0; i < oc->nfuncs; i++)
		if (oc->funcs[i].tested)
			p[m++] = oc->funcs[i].p;
	if (oc->adjust == CMP_ADJ_HOLM) {
		if (stats__holm(p, m, p) < 0) {
			free(p);
			return -1;
		}
	} else if (oc->adjust == CMP_ADJ_BONFERRONI) {
		stats__bonferroni(p, m, p);
	}
	m = 0;
	for (uint32_t i = 0; i < oc->nfuncs; i++) {
		struct cmp_oc_func *f = &oc->funcs[i];

		if (!f->tested)
			continue;
		f->p_adj = p[m++];
		f->significant = f->p_adj < 1.0 - oc->level;
	}
	free(p);
	return 0;
}

static void run_of(struct cmp_oc_run *r, const struct cmp_oc_side *s)
{
	double k = s->ncaptures ? s->ncaptures : 1;

	r->on_ns = s->on_ns / k;
	r->off_ns = s->off_ns / k;
	r->wall_ns = r->on_ns + r->off_ns;
	r->intervals = s->intervals;
}

int cmp_offcpu__new(const struct cmp_diff *d, const struct cmp_oc_side *b,
		    const struct cmp_oc_side *a, struct cmp_offcpu **out, struct ap_err *err)
{
	const struct cmp_oc_side *s[2] = { b, a };
	struct cmp_offcpu *oc = calloc(1, sizeof(*oc));
	struct key *k = NULL;
	size_t nk = 0;

	*out = NULL;
	if (!oc || !(k = keys_of(d, s, &nk)) ||
	    !(oc->funcs = calloc(nk ? nk : 1, sizeof(*oc->funcs))))
		goto nomem;
	oc->level = d->level;
	oc->adjust = d->adjust;
	run_of(&oc->before, b);
	run_of(&oc->after, a);
	for (size_t i = 0; i < nk; i++) {
		const struct cmp_oc_row *rb = k[i].row[0] >= 0 ? &b->rows[k[i].row[0]] : NULL;
		const struct cmp_oc_row *ra = k[i].row[1] >= 0 ? &a->rows[k[i].row[1]] : NULL;
		struct cmp_oc_func *f = &oc->funcs[oc->nfuncs];

		/* rows with on-CPU time only stay in the on-CPU table */
		if (!(rb && (rb->off_ns || rb->off_incl_ns)) && !(ra && (ra->off_ns || ra->off_incl_ns)))
			continue;
		oc->nfuncs++;
		f->pair = k[i].pair;
		f->wasm_index = k[i].wasm;
		place(d, f);
		val_of(&f->before, rb, b->ncaptures);
		val_of(&f->after, ra, a->ncaptures);
		f->change_ns = f->after.off_ns - f->before.off_ns;
		f->change_incl_ns = f->after.off_incl_ns - f->before.off_incl_ns;
		f->wall_change_ns = f->after.wall_ns - f->before.wall_ns;
		f->has_rel = f->before.off_ns > 0;
		f->rel_pct = f->has_rel ? 100.0 * f->change_ns / f->before.off_ns : 0;
		test(f, rb, ra, oc->level);
	}
	free(k);
	k = NULL;
	if (oc->nfuncs > 1)
		qsort(oc->funcs, oc->nfuncs, sizeof(*oc->funcs), by_change);
	if (adjust(oc))
		goto nomem;
	*out = oc;
	return 0;
nomem:
	free(k);
	cmp_offcpu__delete(oc);
	return ap_err_nomem(err);
}

void cmp_offcpu__delete(struct cmp_offcpu *oc)
{
	if (!oc)
		return;
	free(oc->funcs);
	free(oc);
}

const struct cmp_oc_func *cmp_offcpu__of(const struct cmp_offcpu *oc, uint32_t func)
{
	for (uint32_t i = 0; oc && i < oc->nfuncs; i++)
		if (oc->funcs[i].func == (int64_t)func)
			return &oc->funcs[i];
	return NULL;
}
