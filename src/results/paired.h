/* SPDX-License-Identifier: MIT */
/* Ratios of times with confidence intervals, paired and unpaired; Holm; modified z. */
#ifndef IOSTRAT_PAIRED_H
#define IOSTRAT_PAIRED_H

#include <stddef.h>

/* n: pairs (paired) or na + nb (unpaired); ratio: b over a; lo, hi: the
 * interval of the ratio; p: two-sided p of ratio 1. */
struct ratio_ci { size_t n; double ratio, lo, hi, p; };

/*
 * b over a (ratio > 1: a is faster), paired by index (round): the
 * Hodges-Lehmann estimate of the log ratios d_i = log(b_i / a_i) (median of
 * the n(n+1)/2 Walsh averages (d_i + d_j) / 2, i <= j), back-transformed,
 * with the signed-rank confidence interval at `level` (e.g. 0.95): the
 * Walsh averages of ranks k+1 and M-k, k the largest rank sum whose
 * two-sided p is below 1 - level.  That distribution is exact for n <= 50
 * values without duplicates, else normal with the tie correction of the
 * duplicate groups (no continuity correction), as scipy.stats.wilcoxon
 * tests a shift that is not itself a Walsh average.
 *
 * p: the two-sided signed-rank p of ratio 1, as scipy.stats.wilcoxon
 * (zero_method "wilcox", correction False): exact when n <= 50 and the
 * log ratios have no zeros and no ties in |d|; otherwise the normal
 * approximation over the non-zero ones, tie-corrected; 1 when every log
 * ratio is 0.  So the interval at level 1 - a excludes 1 exactly when
 * p < a, except where ties, zeros or a Walsh average at 0 make the test
 * at 1 use the normal approximation while the interval does not.
 *
 * Returns 0, or -EDOM with lo and hi NAN (ratio and p still set where
 * defined) when n is too small for an interval at that level whatever
 * the data: the exact smallest p, 2 / 2^n, is not below 1 - level
 * (n < 6 at 0.95).  -EINVAL on a non-positive or non-finite value or a
 * level outside (0, 1).
 */
int paired_ratio_ci(const double *a, const double *b, size_t n, double level,
		    struct ratio_ci *out);

/*
 * Unpaired: the Hodges-Lehmann two-sample shift on log times (median of
 * the na nb differences log b_j - log a_i), back-transformed, with the
 * Mann-Whitney interval: the differences of ranks k+1 and N-k, k the
 * largest U whose two-sided p is below 1 - level; exact when a sample has
 * at most 8 values and neither has duplicates, else the normal
 * approximation with tie and continuity corrections (scipy.stats.
 * mannwhitneyu at a shift that is not itself a difference).  p as
 * mann_whitney_p.  Returns as paired_ratio_ci: -EDOM when the exact
 * smallest p, 2 / C(na + nb, na), is not below 1 - level (3 against 3 at
 * 0.95).
 */
int unpaired_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
		      double level, struct ratio_ci *out);

/* Holm step-down adjusted p-values (monotone, capped at 1), m comparisons;
 * a NAN p stays NAN in adj and is ranked last.  adj may be p. */
void holm_adjust(const double *p, size_t m, double *adj);

/* The order in which Holm tests p[0..m): ix[0] has the smallest p, equal
 * p in index order, NAN last. */
void holm_order(const double *p, size_t m, size_t *ix);

/* The level at which comparison `rank` (0 = smallest p) of m is tested
 * under Holm: 1 - (1 - level) / (m - rank). */
double holm_level(double level, size_t m, size_t rank);

/* Iglewicz-Hoaglin modified z-score of v[i]: 0.6745 (v[i] - median) / MAD;
 * 0 when MAD is 0 and v[i] == median, +-INFINITY when MAD is 0 otherwise. */
double modified_z(const double *v, size_t n, size_t i);

#endif
