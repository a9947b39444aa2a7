/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_COMPARE_STATS_H
#define AOTPERF_COMPARE_STATS_H
/*
 * The numbers behind a comparison of profiles (docs/compare.md gives the
 * formulas): normal and Student t distributions, the two tests a diff
 * uses, and the multiple-comparison adjustments. Plain double arithmetic,
 * no allocation except in the adjustments; no knowledge of profiles.
 */
#include <stddef.h>
#include <stdint.h>

/* Standard normal: P(Z <= x), and the x with P(Z <= x) = p (0 < p < 1). */
double stats__norm_cdf(double x);
double stats__norm_quantile(double p);

/*
 * Regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1
 * (continued fraction): the Student t distribution is built on it.
 */
double stats__betai(double a, double b, double x);

/*
 * Student t with df > 0 degrees of freedom (not necessarily an integer;
 * INFINITY is the normal): P(T <= t), the two-sided tail P(|T| >= |t|),
 * and the t with P(T <= t) = p.
 */
double stats__t_cdf(double t, double df);
double stats__t_sf2(double t, double df);
double stats__t_quantile(double p, double df);

/* The outcome of one test of a difference "b minus a". */
struct stats_test {
	double diff;	/* the estimate of b - a */
	double se;	/* standard error the confidence interval uses */
	double stat;	/* z or t; 0 when the test is degenerate */
	double df;	/* degrees of freedom; INFINITY for a z statistic */
	double p;	/* two-sided p-value, unadjusted; 1 when degenerate */
	double lo, hi;	/* confidence interval of diff at the level asked */
};

/*
 * Two-proportion z-test of x2/n2 - x1/n1 (n1, n2 > 0): the statistic uses
 * the pooled proportion (the null hypothesis: one proportion), the
 * interval the unpooled (Wald) standard error.
 */
void stats__z2prop(uint64_t x1, uint64_t n1, uint64_t x2, uint64_t n2, double level,
		   struct stats_test *t);

/*
 * One side of a Welch test: the estimate, the variance of that estimate
 * (s^2/n for a mean of n values), and the degrees of freedom of the
 * variance (n - 1; INFINITY when the variance is known, e.g. binomial).
 */
struct stats_est {
	double mean, var, df;
};

/*
 * Welch's t-test of b.mean - a.mean with the Welch-Satterthwaite degrees of
 * freedom. Both variances 0: stat 0, p 1 when the means are equal; with
 * different means the test cannot be done and p is NAN (callers fall back).
 */
void stats__welch(const struct stats_est *a, const struct stats_est *b, double level,
		  struct stats_test *t);

/* Mean, sample standard deviation (n - 1 denominator, 0 when n < 2), min, max. */
void stats__describe(const double *v, size_t n, double *mean, double *sd, double *min,
		     double *max);

/*
 * Adjusted p-values of a family of m tests, written to adj[] (may alias p):
 * Holm's step-down (controls the family-wise error rate, never less
 * powerful than Bonferroni) and Bonferroni. 0, or -1 when out of memory.
 */
int stats__holm(const double *p, size_t m, double *adj);
void stats__bonferroni(const double *p, size_t m, double *adj);

#endif
