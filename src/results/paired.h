/* SPDX-License-Identifier: MIT */
/* Ratios of times of unpaired samples with their interval; Holm; modified z. */
#ifndef IOSTRAT_PAIRED_H
#define IOSTRAT_PAIRED_H

#include <stddef.h>

/* n: pairs (paired: results/anytime.h) or na + nb (unpaired); ratio: b over a; lo, hi: the
 * interval of the ratio; p: two-sided p of ratio 1. */
struct ratio_ci { size_t n; double ratio, lo, hi, p; };

/*
 * Unpaired: the Hodges-Lehmann two-sample shift on log times (median of
 * the na nb differences log b_j - log a_i), back-transformed, with the
 * Mann-Whitney interval: the differences of ranks k+1 and N-k, k the
 * largest U whose two-sided p is below 1 - level; exact when a sample has
 * at most 8 values and neither has duplicates, else the normal
 * approximation with tie and continuity corrections (scipy.stats.
 * mannwhitneyu at a shift that is not itself a difference).  p as
 * mann_whitney_p.  Returns 0; -EINVAL on a non-positive or non-finite
 * value or a level outside (0, 1); -EDOM when the exact
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
