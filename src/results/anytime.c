// SPDX-License-Identifier: MIT
/* Anytime-valid paired ratio intervals (alpha spent over every look), the band's decision and futility. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "results/anytime.h"
#include "results/stats_math.h"

double anytime_alpha(double alpha, size_t n)
{
	if (n < ANYTIME_MIN_N)
		return 0;
	return alpha / ((double)(n - 2) * (double)(n - 1));
}

/* P(T <= t) for t >= 0. */
static double t_cdf(double t, double df)
{
	return 1 - 0.5 * incbeta(df / 2, 0.5, df / (df + t * t));
}

double student_t_quantile(double p, double df)
{
	double lo = 0, hi = 1;

	if (p < 0.5)
		return -student_t_quantile(1 - p, df);
	while (t_cdf(hi, df) < p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int log_ratio_stats(const double *a, const double *b, size_t n, double *mean,
		    double *sd)
{
	double s = 0, ss = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) || !isfinite(b[i]))
			return -EINVAL;
		s += log(b[i] / a[i]);
	}
	*mean = n ? s / (double)n : NAN;
	for (size_t i = 0; i < n; i++) {
		double d = log(b[i] / a[i]) - *mean;

		ss += d * d;
	}
	*sd = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
	return 0;
}

/* The half-width, in log units, of look n's interval with this sd. */
static double margin(double sd, double alpha, size_t n)
{
	double q = student_t_quantile(1 - anytime_alpha(alpha, n) / 2, (double)n - 1);

	return q * sd / sqrt((double)n);
}

int anytime_ratio_ci(const double *a, const double *b, size_t n, double alpha,
		     struct ratio_ci *out)
{
	double mean, sd, m;
	int ret = log_ratio_stats(a, b, n, &mean, &sd);

	*out = (struct ratio_ci){ .n = n, .ratio = NAN, .lo = NAN, .hi = NAN };
	if (ret)
		return ret;
	if (!(alpha > 0 && alpha < 1))
		return -EINVAL;
	out->ratio = exp(mean);
	out->p = anytime_alpha(alpha, n);
	if (n < ANYTIME_MIN_N)
		return -EDOM;
	if (sd == 0) { /* every round the same ratio: a point */
		out->lo = out->hi = out->ratio;
		return 0;
	}
	m = margin(sd, alpha, n);
	out->lo = exp(mean - m);
	out->hi = exp(mean + m);
	return 0;
}

enum at_dec anytime_decide(int rc, const struct ratio_ci *ci, double band)
{
	if (rc)
		return AT_OPEN;
	if (ci->lo > 1)
		return AT_BEHIND;
	if (ci->hi < 1)
		return AT_AHEAD;
	if (ci->lo >= 1 / (1 + band) && ci->hi <= 1 + band)
		return AT_EQUAL;
	return AT_OPEN;
}

/* Look n's projected log-ratio mean and standard deviation: the seen
 * rounds and n - p->n more at the robust center and spread. */
static void projected(const struct at_proj *p, size_t n, double *mean, double *sd)
{
	double k = (double)(n - p->n), seen = (double)p->n, m;

	m = (seen * p->mean + k * p->center) / (double)n;
	*mean = m;
	*sd = sqrt((p->ss + seen * (p->mean - m) * (p->mean - m) +
		    k * (p->spread * p->spread + (p->center - m) * (p->center - m))) /
		   (double)(n - 1));
}

size_t anytime_rounds_needed(const struct at_proj *p, double alpha, double band,
			     size_t from, size_t cap)
{
	double mean, sd, room;

	if (!isfinite(p->mean) || !isfinite(p->ss) || !isfinite(p->center) ||
	    !isfinite(p->spread))
		return 0;
	if (from < ANYTIME_MIN_N)
		from = ANYTIME_MIN_N;
	if (from <= p->n)
		from = p->n + 1;
	for (size_t n = from; n <= cap; n++) {
		double m;

		projected(p, n, &mean, &sd);
		m = margin(sd, alpha, n);
		room = log1p(band) - fabs(mean);
		if (m < fabs(mean) || m <= room)
			return n;
	}
	return 0;
}

/* The median of v (sorted in place). */
static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_doubles);
	return quantile_sorted(v, n, 0.5);
}

int anytime_projection(const double *a, const double *b, size_t n, struct at_proj *p)
{
	double sd, *d;
	int ret;

	*p = (struct at_proj){ .n = n };
	if (!n)
		return -EINVAL;
	if ((ret = log_ratio_stats(a, b, n, &p->mean, &sd)))
		return ret;
	p->ss = n > 1 ? sd * sd * (double)(n - 1) : 0;
	if (!(d = malloc(n * sizeof(*d))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		d[i] = log(b[i] / a[i]);
	p->center = median_of(d, n);
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(d[i] - p->center);
	p->spread = 1.4826 * median_of(d, n);
	free(d);
	return 0;
}
