/* SPDX-License-Identifier: MIT */
/* The score table of the API comparison: points per API per buffer size, summed. */
#ifndef IOSTRAT_SWEEP_SCORE_H
#define IOSTRAT_SWEEP_SCORE_H

#include <stddef.h>

/*
 * The score table of the API comparison, as in the original study: per
 * buffer size (row), rank the APIs by median elapsed time (lower wins);
 * of k APIs measured in that row the fastest gets k points, the next
 * k-1, ..., the slowest 1.  Equal medians share the higher points (the
 * "1224" competition ranking).  A missing value (NaN or <= 0) gets 0
 * points and does not count in k.  Then sum the points per API.
 *
 * med and points are [nrows][napis], row-major; totals is [napis].
 */
void score_table(const double *med, size_t nrows, size_t napis, int *points,
		 int *totals);
/* API indexes by total points, highest first (ties: lower index first). */
void score_order(const int *totals, size_t napis, size_t *order);

#endif
