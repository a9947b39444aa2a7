// SPDX-License-Identifier: MIT
/*
 * The change of one share between two sides and which test judges it
 * (docs/compare.md "Which test"), and the adjustment over a family.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "stats.h"

double cmp__level(const struct cmp_opts *o)
{
	return o && o->level > 0.0 && o->level < 1.0 ? o->level : 0.95;
}

void cmp__zero_share(struct cmp_share *s, uint32_t n, uint64_t total)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->total = total;
}


/* One side for Welch: the mean share as a fraction and the variance of that mean. */
static void side_est(const struct cmp_share *s, struct stats_est *e)
{
	double f = s->mean / 100.0, sd = s->sd / 100.0;

	e->mean = f;
	if (s->n >= 2) {
		e->var = sd * sd / s->n;
		e->df = s->n - 1.0;
	} else {
		/* one capture: the binomial variance of its share */
		e->var = f * (1.0 - f) / (double)s->total;
		e->df = INFINITY;
	}
}

static void from_test(const struct stats_test *t, enum cmp_test kind, struct cmp_change *ch)
{
	ch->test = kind;
	ch->stat = t->stat;
	ch->df = kind == CMP_TEST_WELCH && isfinite(t->df) ? t->df : 0.0;
	ch->p = ch->p_adj = t->p;
	ch->ci_lo = 100.0 * t->lo;
	ch->ci_hi = 100.0 * t->hi;
}

void cmp__change(const struct cmp_share *b, const struct cmp_share *a, double level,
		 struct cmp_change *ch)
{
	struct stats_test t;

	cmp__change_untested(b, a, ch);
	if (b->n == 0 || a->n == 0 || b->total == 0 || a->total == 0)
		return;
	if (b->n >= 2 || a->n >= 2) {
		struct stats_est eb, ea;

		side_est(b, &eb);
		side_est(a, &ea);
		stats__welch(&eb, &ea, level, &t);
		if (!isnan(t.p)) {
			from_test(&t, CMP_TEST_WELCH, ch);
			goto done;
		}
		/* no spread at all but different means: the pooled counts decide */
	}
	stats__z2prop(b->samples, b->total, a->samples, a->total, level, &t);
	from_test(&t, CMP_TEST_Z, ch);
	if (b->n >= 2 || a->n >= 2) {
		/* the interval around the pooled difference, shifted to the means' */
		double shift = ch->delta - 100.0 * t.diff;

		ch->ci_lo += shift;
		ch->ci_hi += shift;
	}
done:
	ch->significant = ch->p_adj < 1.0 - level;
}

void cmp__zero_time(struct cmp_time *t, uint32_t n)
{
	memset(t, 0, sizeof(*t));
	t->n = n;
}

static void untested(double b, double a, struct cmp_change *ch)
{
	memset(ch, 0, sizeof(*ch));
	ch->delta = a - b;
	ch->has_rel = b > 0.0;
	ch->rel_pct = ch->has_rel ? 100.0 * ch->delta / b : 0.0;
	ch->test = CMP_TEST_NONE;
	ch->p = ch->p_adj = 1.0;
}

void cmp__change_untested(const struct cmp_share *b, const struct cmp_share *a,
			  struct cmp_change *ch)
{
	untested(b->mean, a->mean, ch);
}

void cmp__change_time_untested(const struct cmp_time *b, const struct cmp_time *a,
			       struct cmp_change *ch)
{
	untested(b->mean, a->mean, ch);
}

/*
 * One side of a time test: the mean and the variance of that mean. The
 * Poisson variance of a mean time T behind S samples is T^2 / S (each
 * sample weighs T / S; their count varies as a Poisson count does), for
 * a single capture or a side whose captures do not spread at all.
 */
static void time_est(const struct cmp_time *t, int poisson, struct stats_est *e)
{
	e->mean = t->mean;
	if (!poisson && t->n >= 2) {
		e->var = t->sd * t->sd / t->n;
		e->df = t->n - 1.0;
	} else {
		e->var = t->samples ? t->mean * t->mean / (double)t->samples : 0.0;
		e->df = INFINITY;
	}
}

void cmp__change_time(const struct cmp_time *b, const struct cmp_time *a, double level,
		      struct cmp_change *ch)
{
	struct stats_est eb, ea;
	struct stats_test t;
	int welch = b->n >= 2 || a->n >= 2;

	cmp__change_time_untested(b, a, ch);
	if (b->n == 0 || a->n == 0 || (b->samples == 0 && a->samples == 0))
		return;
	time_est(b, 0, &eb);
	time_est(a, 0, &ea);
	stats__welch(&eb, &ea, level, &t);
	if (isnan(t.p)) {
		/* no spread at all but different means: the Poisson variances decide */
		time_est(b, 1, &eb);
		time_est(a, 1, &ea);
		stats__welch(&eb, &ea, level, &t);
		welch = 0;
	}
	if (isnan(t.p))
		return;
	from_test(&t, welch ? CMP_TEST_WELCH : CMP_TEST_POISSON, ch);
	ch->ci_lo = t.lo;	/* in the time's unit, not percent */
	ch->ci_hi = t.hi;
	ch->significant = ch->p_adj < 1.0 - level;
}

int cmp__adjust(struct cmp_change **chs, size_t m, enum cmp_adjust adj, double level)
{
	double *p;

	if (m == 0)
		return 0;
	p = malloc(m * sizeof(*p));
	if (!p)
		return -1;
	for (size_t i = 0; i < m; i++)
		p[i] = chs[i]->p;
	if (adj == CMP_ADJ_HOLM) {
		if (stats__holm(p, m, p) < 0) {
			free(p);
			return -1;
		}
	} else if (adj == CMP_ADJ_BONFERRONI) {
		stats__bonferroni(p, m, p);
	}
	for (size_t i = 0; i < m; i++) {
		chs[i]->p_adj = p[i];
		chs[i]->significant = chs[i]->test != CMP_TEST_NONE && p[i] < 1.0 - level;
	}
	free(p);
	return 0;
}

int cmp__grow(void **arr, size_t *cap, size_t need, size_t sz)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * sz);
	if (!p)
		return -1;
	*arr = p;
	*cap = n;
	return 0;
}
