/* SPDX-License-Identifier: MIT */
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

#endif
