// SPDX-License-Identifier: MIT
/* The knee of a buffer-size sweep (see knee.h). */
#include "knee.h"

long knee_find(const double *elapsed, size_t n, double tol_pct)
{
	double best;

	if (!n)
		return -1;
	best = elapsed[0];
	for (size_t i = 0; i < n; i++) {
		if (!(elapsed[i] > 0)) /* also catches NaN */
			return -1;
		if (elapsed[i] < best)
			best = elapsed[i];
	}
	for (size_t i = 0; i < n; i++)
		if (elapsed[i] <= best * (1.0 + tol_pct / 100.0))
			return (long)i;
	return -1; /* not reached: best itself qualifies */
}
