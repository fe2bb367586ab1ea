/* SPDX-License-Identifier: MIT */
/* Anytime-valid paired ratio intervals for racing: alpha spent over every look, the band, futility. */
#ifndef IOSTRAT_ANYTIME_H
#define IOSTRAT_ANYTIME_H

#include <stddef.h>

#include "results/paired.h"

/*
 * A confidence sequence for the ratio b over a, paired by round, built by
 * spending alpha over the looks (docs/verdict.md, "Racing"): look n (n >= 3
 * pairs) gets alpha_n = alpha / ((n - 2)(n - 1)), which sums to alpha over
 * n = 3, 4, ... without end, so the intervals of every look hold together
 * with probability 1 - alpha however many looks are taken and however
 * long a resumed run extends them (a union bound: no look is planned in
 * advance).  At look n: the Student-t interval of the mean of the log
 * ratios d_i = log(b_i / a_i) at level 1 - alpha_n, back-transformed
 * (ratio: exp of the mean).  Valid where the log ratios are roughly
 * normal; tests/tools/race-sim.py measures it under heavier tails too.
 */
#define ANYTIME_MIN_N 3
double anytime_alpha(double alpha, size_t n);

/* The look's interval: 0 (no spread, every d equal: lo = hi = ratio);
 * -EDOM (n < 3); -EINVAL on a non-positive or non-finite value.
 * out->p is alpha_n, the level spent at this look. */
int anytime_ratio_ci(const double *a, const double *b, size_t n, double alpha,
		     struct ratio_ci *out);

/* The decision of one comparison (b against the leader a), band d as a
 * fraction (0.05 for min_effect=5):
 *   lo > 1                      -> AT_BEHIND (b is slower)
 *   hi < 1                      -> AT_AHEAD  (b is faster: the leader was wrong)
 *   1/(1+d) <= lo, hi <= 1+d    -> AT_EQUAL  ("equal within d")
 *   otherwise, or no interval   -> AT_OPEN */
enum at_dec { AT_OPEN, AT_BEHIND, AT_AHEAD, AT_EQUAL };
enum at_dec anytime_decide(int rc, const struct ratio_ci *ci, double band);

/* Student-t quantile: t with P(T <= t) = p, df degrees of freedom. */
double student_t_quantile(double p, double df);

/*
 * Futility and the next step's cost: what the interval would be at look
 * n' if the rounds to come were like the typical ones so far.  The n
 * rounds seen stay in it (their mean and squares: one slow round widens
 * every later interval it is part of, diluted as rounds come); the
 * n' - n to come have the robust center and spread (the log ratios'
 * median and MAD x 1.4826: one slow round is not taken for the rest).
 */
struct at_proj {
	size_t n;             /* rounds seen */
	double mean, ss;      /* their log ratios' mean, squares about it */
	double center, spread; /* the rounds to come */
};

/* The projection of the n pairs of a and b (center: the log ratios'
 * median, spread: their MAD x 1.4826, the standard deviation where they
 * are normal): 0, -EINVAL as anytime_ratio_ci (n 0 too), -ENOMEM. */
int anytime_projection(const double *a, const double *b, size_t n, struct at_proj *p);

/* The first look n' >= from whose projected interval would decide
 * (exclude 1: margin < |mean|; or fit the band: |mean| + margin <=
 * log(1 + d)); 0 when none up to `cap`. */
size_t anytime_rounds_needed(const struct at_proj *p, double alpha, double band,
			     size_t from, size_t cap);

/* The log ratios' mean and standard deviation of a and b paired: 0, or
 * -EINVAL as anytime_ratio_ci. */
int log_ratio_stats(const double *a, const double *b, size_t n, double *mean,
		    double *sd);

#endif
