/* SPDX-License-Identifier: MIT */
/* The knee of a buffer-size sweep: the smallest buffer within a tolerance of the best time. */
#ifndef IOSTRAT_SWEEP_KNEE_H
#define IOSTRAT_SWEEP_KNEE_H

#include <stddef.h>

/*
 * The knee of a buffer-size sweep: the index of the smallest buffer whose
 * median elapsed time is within tol_pct percent of the best (lowest)
 * median of the sweep.  From there on a bigger buffer buys (almost) no
 * elapsed time -- the device and its readahead set the pace -- although
 * CPU time may keep falling.  elapsed[] is ordered by ascending size.
 * Returns -1 when n == 0 or any value is not a positive number.
 */
long knee_find(const double *elapsed, size_t n, double tol_pct);

#endif
