// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats_math.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double quantile_sorted(const double *s, size_t n, double q)
{
	double pos, frac;
	size_t lo;

	if (!n)
		return 0;
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	frac = pos - (double)lo;
	if (lo + 1 >= n)
		return s[n - 1];
	return s[lo] + frac * (s[lo + 1] - s[lo]);
}

void summarize(const double *v, size_t n, struct summary *s)
{
	double *c, sum = 0, sq = 0;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	c = malloc(n * sizeof(*c));
	if (!c)
		return;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += c[i];
	s->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (c[i] - s->mean) * (c[i] - s->mean);
	s->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	s->rsd_pct = s->mean > 0 ? 100.0 * s->stddev / s->mean : 0;
	s->min = c[0];
	s->max = c[n - 1];
	s->median = quantile_sorted(c, n, 0.5);
	s->q1 = quantile_sorted(c, n, 0.25);
	s->q3 = quantile_sorted(c, n, 0.75);
	free(c);
}
