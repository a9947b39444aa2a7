// SPDX-License-Identifier: MIT
/*
 * Distributions and tests for comparing profiles; the formulas are in
 * docs/compare.md, the checks against independent values in
 * tests/unit/test_compare.c.
 */
#include <math.h>
#include <stdlib.h>
#include "stats.h"

#define SQRT2PI 2.5066282746310002 /* sqrt(2 pi) */

double stats__norm_cdf(double x)
{
	return 0.5 * erfc(-x / M_SQRT2);
}

/*
 * A start good to about 4.5e-4 (a rational approximation in
 * t = sqrt(-2 ln p), Abramowitz and Stegun 26.2.23), then Halley steps on
 * the cdf, which is exact to rounding: each step roughly triples the
 * correct digits.
 */
static double norm_quantile_lower(double p)
{
	double t = sqrt(-2.0 * log(p));
	double x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
		     (1.0 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));

	for (int i = 0; i < 4; i++) {
		double e = stats__norm_cdf(x) - p;
		double u = e * SQRT2PI * exp(x * x / 2.0);

		x -= u / (1.0 + x * u / 2.0);
	}
	return x;
}

double stats__norm_quantile(double p)
{
	if (isnan(p))
		return NAN;
	if (p <= 0.0)
		return -INFINITY;
	if (p >= 1.0)
		return INFINITY;
	if (p == 0.5)
		return 0.0;
	return p < 0.5 ? norm_quantile_lower(p) : -norm_quantile_lower(1.0 - p);
}

/*
 * The continued fraction of I_x(a, b) (its even and odd coefficients),
 * evaluated with the modified Lentz method; converges fast for
 * x < (a + 1) / (a + b + 2).
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-16;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), f;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	f = d;
	for (int m = 1; m <= 10000; m++) {
		double am = a + 2.0 * m, coef, step;

		coef = m * (b - m) * x / ((am - 1.0) * am);
		d = 1.0 + coef * d;
		c = 1.0 + coef / c;
		if (fabs(d) < tiny)
			d = tiny;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		f *= d * c;

		coef = -(a + m) * (a + b + m) * x / (am * (am + 1.0));
		d = 1.0 + coef * d;
		c = 1.0 + coef / c;
		if (fabs(d) < tiny)
			d = tiny;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		step = d * c;
		f *= step;
		if (fabs(step - 1.0) < eps)
			break;
	}
	return f;
}

double stats__betai(double a, double b, double x)
{
	double front;

	if (isnan(x) || a <= 0.0 || b <= 0.0)
		return NAN;
	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* I_x(a, b) = 1 - I_{1-x}(b, a): use the side where the fraction converges */
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(a, b, x) / a;
	return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

/* Beyond this many degrees of freedom the t is the normal to double precision. */
#define T_DF_NORMAL 1e12

/* P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2) */
double stats__t_sf2(double t, double df)
{
	if (isnan(t) || isnan(df) || df <= 0.0)
		return NAN;
	if (df > T_DF_NORMAL)
		return erfc(fabs(t) / M_SQRT2);
	if (isinf(t))
		return 0.0;
	return stats__betai(df / 2.0, 0.5, df / (df + t * t));
}

double stats__t_cdf(double t, double df)
{
	double tail = 0.5 * stats__t_sf2(t, df);

	return t >= 0.0 ? 1.0 - tail : tail;
}

static double t_pdf(double t, double df)
{
	return exp(lgamma((df + 1.0) / 2.0) - lgamma(df / 2.0) - 0.5 * log(df * M_PI) -
		   (df + 1.0) / 2.0 * log1p(t * t / df));
}

/*
 * Solve sf2(t) = target for t > 0: Newton steps kept inside a bracket
 * [lo, hi] (sf2 falls from 1 at 0), bisection when a step leaves it.
 */
double stats__t_quantile(double p, double df)
{
	double target, lo = 0.0, hi, t;

	if (isnan(p) || isnan(df) || df <= 0.0)
		return NAN;
	if (p <= 0.0)
		return -INFINITY;
	if (p >= 1.0)
		return INFINITY;
	if (p == 0.5)
		return 0.0;
	if (p < 0.5)
		return -stats__t_quantile(1.0 - p, df);
	if (df > T_DF_NORMAL)
		return stats__norm_quantile(p);
	target = 2.0 * (1.0 - p);
	hi = 2.0 * stats__norm_quantile(p) + 1.0;
	while (stats__t_sf2(hi, df) > target && hi < 1e300)
		hi *= 2.0;
	t = (lo + hi) / 2.0;
	for (int i = 0; i < 400; i++) {
		double g = stats__t_sf2(t, df) - target, next;

		if (g > 0.0)
			lo = t;
		else
			hi = t;
		next = t + g / (2.0 * t_pdf(t, df)); /* d sf2 / dt = -2 pdf */
		if (!(next > lo && next < hi))
			next = (lo + hi) / 2.0;
		if (fabs(next - t) <= 1e-15 * fabs(next) || lo == hi) {
			t = next;
			break;
		}
		t = next;
	}
	return t;
}

void stats__z2prop(uint64_t x1, uint64_t n1, uint64_t x2, uint64_t n2, double level,
		   struct stats_test *t)
{
	double p1 = (double)x1 / (double)n1, p2 = (double)x2 / (double)n2;
	double pool = (double)(x1 + x2) / ((double)n1 + (double)n2);
	double se0 = sqrt(pool * (1.0 - pool) * (1.0 / (double)n1 + 1.0 / (double)n2));
	double q = stats__norm_quantile(1.0 - (1.0 - level) / 2.0);

	t->diff = p2 - p1;
	t->df = INFINITY;
	t->se = sqrt(p1 * (1.0 - p1) / (double)n1 + p2 * (1.0 - p2) / (double)n2);
	if (se0 > 0.0) {
		t->stat = t->diff / se0;
		t->p = erfc(fabs(t->stat) / M_SQRT2);
	} else {
		/* both proportions 0 or both 1: no difference */
		t->stat = 0.0;
		t->p = 1.0;
	}
	t->lo = t->diff - q * t->se;
	t->hi = t->diff + q * t->se;
}

void stats__welch(const struct stats_est *a, const struct stats_est *b, double level,
		  struct stats_test *t)
{
	double v = a->var + b->var, den = 0.0, q;

	t->diff = b->mean - a->mean;
	t->se = sqrt(v);
	if (!(v > 0.0)) {
		t->stat = 0.0;
		t->df = INFINITY;
		t->p = t->diff == 0.0 ? 1.0 : NAN;
		t->lo = t->hi = t->diff;
		return;
	}
	if (isfinite(a->df) && a->var > 0.0)
		den += a->var * a->var / a->df;
	if (isfinite(b->df) && b->var > 0.0)
		den += b->var * b->var / b->df;
	t->df = den > 0.0 ? v * v / den : INFINITY;
	t->stat = t->diff / t->se;
	t->p = stats__t_sf2(t->stat, t->df);
	q = stats__t_quantile(1.0 - (1.0 - level) / 2.0, t->df);
	t->lo = t->diff - q * t->se;
	t->hi = t->diff + q * t->se;
}

void stats__describe(const double *v, size_t n, double *mean, double *sd, double *min,
		     double *max)
{
	double sum = 0.0, ss = 0.0, lo = 0.0, hi = 0.0;

	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (i == 0 || v[i] < lo)
			lo = v[i];
		if (i == 0 || v[i] > hi)
			hi = v[i];
	}
	*mean = n ? sum / (double)n : 0.0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - *mean) * (v[i] - *mean);
	*sd = n >= 2 ? sqrt(ss / (double)(n - 1)) : 0.0;
	*min = lo;
	*max = hi;
}

struct p_idx {
	double p;
	size_t i;
};

static int cmp_p(const void *a, const void *b)
{
	const struct p_idx *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int stats__holm(const double *p, size_t m, double *adj)
{
	struct p_idx *s;
	double run = 0.0;

	if (m == 0)
		return 0;
	s = malloc(m * sizeof(*s));
	if (!s)
		return -1;
	for (size_t i = 0; i < m; i++) {
		s[i].p = isnan(p[i]) ? 1.0 : p[i];
		s[i].i = i;
	}
	qsort(s, m, sizeof(*s), cmp_p);
	/* the k-th smallest (from 0) is multiplied by m - k; adjusted values never decrease */
	for (size_t k = 0; k < m; k++) {
		double v = (double)(m - k) * s[k].p;

		if (v > 1.0)
			v = 1.0;
		if (v > run)
			run = v;
		adj[s[k].i] = run;
	}
	free(s);
	return 0;
}

void stats__bonferroni(const double *p, size_t m, double *adj)
{
	for (size_t i = 0; i < m; i++) {
		double v = isnan(p[i]) ? 1.0 : (double)m * p[i];

		adj[i] = v > 1.0 ? 1.0 : v;
	}
}
