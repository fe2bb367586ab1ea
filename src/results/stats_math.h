/* SPDX-License-Identifier: MIT */
/* Summary statistics of a set of samples (n, min, max, median, quartiles, RSD). */
#ifndef IOSTRAT_STATS_MATH_H
#define IOSTRAT_STATS_MATH_H

#include <stddef.h>

struct summary {
	size_t n;
	double min, max, median, mean, stddev, rsd_pct, q1, q3;
};

/* Sort a copy of v and summarize; n == 0 gives all zeros. */
void summarize(const double *v, size_t n, struct summary *s);
/* Quantile q in [0,1] of a sorted array (linear interpolation). */
double quantile_sorted(const double *sorted, size_t n, double q);
/* qsort's comparison of two doubles, ascending. */
int cmp_doubles(const void *a, const void *b);
/* A distribution-free interval of the median of v[0..n) (sorted in place)
 * at LEVEL: the order statistics x(k), x(n-k+1), k the largest with
 * P(Binomial(n, 1/2) < k) <= (1 - LEVEL) / 2; -EDOM (NANs) when there is
 * none (n < 6, or too few values for LEVEL). */
int median_ci(double *v, size_t n, double level, double *lo, double *hi);

/*
 * Two-sample tests for `iostrat compare`, two-sided, as scipy.stats does
 * them (mannwhitneyu with method "auto", ttest_ind with equal_var=False).
 * Each returns the p-value, or NAN when a sample has fewer values than
 * the test needs (1 for Mann-Whitney, 2 for Welch).
 *
 * Mann-Whitney U: ranks with ties averaged; the exact distribution when
 * there are no ties and a sample has at most 8 values, else the normal
 * approximation with tie correction and continuity correction.  *u is U
 * of the first sample.
 */
double mann_whitney_p(const double *a, size_t na, const double *b, size_t nb,
		      double *u);
/* Welch's t: *t and *df (Welch-Satterthwaite) if not NULL. */
double welch_t_p(const double *a, size_t na, const double *b, size_t nb,
		 double *t, double *df);
/* The test `iostrat compare` and the report's verdict use on two samples:
 * Mann-Whitney U when both have at least MW_MIN_N values (below, it cannot
 * reach p < 0.05), else Welch's t.  *test names it ("mann-whitney" or
 * "welch"); NAN when the samples are too small for either. */
#define MW_MIN_N 4
double two_sample_p(const double *a, size_t na, const double *b, size_t nb,
		    const char **test);
/* Exact null distribution of Mann-Whitney U for samples of m and n values
 * without ties: counts[u] for u = 0..m*n (sum C(m+n, m)); malloc'd, NULL on
 * failure.  Memory (n + 1)(m n + 1) doubles: pass the smaller sample as n. */
double *mw_exact_counts(size_t m, size_t n);
/* Regularized incomplete beta I_x(a, b), for the t distribution. */
double incbeta(double a, double b, double x);

#endif
