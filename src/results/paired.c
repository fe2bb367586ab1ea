// SPDX-License-Identifier: MIT
/* Ratios of times of two unpaired samples with their interval (Mann-Whitney); Holm; modified z. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "paired.h"
#include "stats_math.h"

#define MW_EXACT_MAX 8 /* scipy.stats.mannwhitneyu's method "auto" */

static double median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Sum of t^3 - t over the groups of equal values of a sorted array. */
static double tie_sum(const double *s, size_t n)
{
	double sum = 0;

	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && s[j] == s[i]; j++)
			;
		sum += (double)(j - i) * (double)(j - i) * (double)(j - i) -
		       (double)(j - i);
	}
	return sum;
}

/* Logs of n positive finite values into l; -EINVAL on any other value. */
static int logs(const double *v, size_t n, double *l)
{
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]) || v[i] <= 0)
			return -EINVAL;
		l[i] = log(v[i]);
	}
	return 0;
}

static int check_level(double level, struct ratio_ci *out, size_t n)
{
	*out = (struct ratio_ci){ n, NAN, NAN, NAN, NAN };
	return level > 0 && level < 1 ? 0 : -EINVAL;
}

/* ---- Mann-Whitney -------------------------------------------------------- */

/* 2 / C(na + nb, na): the smallest exact two-sided p. */
static double mw_floor(size_t na, size_t nb)
{
	double c = 1;

	for (size_t i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return 2 / c;
}

/* The largest U < N/2 whose two-sided p is below alpha, or -1 (-2: no
 * memory); exact on the counts c (total sum) if c, else normal. */
static long mw_crit(size_t na, size_t nb, const double *c, double ts,
		    double alpha)
{
	double N = (double)na * (double)nb, nt = (double)(na + nb), cdf = 0;
	double total = 0, sd = sqrt(N / 12 * (nt + 1 - ts / (nt * (nt - 1))));
	long k = -1;

	for (size_t u = 0; c && u <= na * nb; u++)
		total += c[u];
	for (size_t u = 0; 2 * u < na * nb; u++) {
		double p;

		if (c) {
			cdf += c[u];
			p = fmin(1.0, 2 * cdf / total);
		} else {
			p = sd > 0 ? fmin(1.0, erfc((N - (double)u - N / 2 - 0.5) /
						    sd / sqrt(2.0))) : 1.0;
		}
		if (!(p < alpha))
			break;
		k = (long)u;
	}
	return k;
}

/* Critical U for the interval: exact when a sample has at most 8 values
 * and neither has duplicates (la, lb sorted). */
static long mw_interval_crit(const double *la, size_t na, const double *lb,
			     size_t nb, double alpha)
{
	double ts = tie_sum(la, na) + tie_sum(lb, nb);
	size_t lo = na < nb ? na : nb, hi = na < nb ? nb : na;
	double *c = NULL;
	long k;

	if (ts == 0 && lo <= MW_EXACT_MAX) {
		c = mw_exact_counts(hi, lo);
		if (!c)
			return -2;
	}
	k = mw_crit(na, nb, c, ts, alpha);
	free(c);
	return k;
}

/* Sorted differences lb[j] - la[i]. */
static double *differences(const double *la, size_t na, const double *lb,
			   size_t nb)
{
	double *dd = malloc(na * nb * sizeof(double));

	if (!dd)
		return NULL;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			dd[i * nb + j] = lb[j] - la[i];
	qsort(dd, na * nb, sizeof(*dd), cmp_doubles);
	return dd;
}

static int mw_interval(double *la, size_t na, double *lb, size_t nb,
		       double alpha, struct ratio_ci *out)
{
	size_t N = na * nb;
	double *dd = differences(la, na, lb, nb);
	long k;

	if (!dd)
		return -ENOMEM;
	out->ratio = exp(median_sorted(dd, N));
	qsort(la, na, sizeof(*la), cmp_doubles);
	qsort(lb, nb, sizeof(*lb), cmp_doubles);
	k = mw_interval_crit(la, na, lb, nb, alpha);
	if (k >= 0 && mw_floor(na, nb) < alpha) {
		out->lo = exp(dd[k]);
		out->hi = exp(dd[N - 1 - (size_t)k]);
	}
	free(dd);
	return k == -2 ? -ENOMEM : k < 0 || mw_floor(na, nb) >= alpha ? -EDOM : 0;
}

int unpaired_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
		      double level, struct ratio_ci *out)
{
	int rc = check_level(level, out, na + nb);
	double *la = malloc((na ? na : 1) * sizeof(double));
	double *lb = malloc((nb ? nb : 1) * sizeof(double));

	if (!la || !lb)
		rc = rc ? rc : -ENOMEM;
	if (!rc)
		rc = logs(a, na, la);
	if (!rc)
		rc = logs(b, nb, lb);
	if (!rc && (!na || !nb))
		rc = -EDOM;
	if (!rc) {
		out->p = mann_whitney_p(a, na, b, nb, NULL);
		rc = mw_interval(la, na, lb, nb, 1 - level, out);
	}
	free(la);
	free(lb);
	return rc;
}

/* ---- Holm, modified z ---------------------------------------------------- */

/* Indices by p, NAN last, equal p in index order. */
static int cmp_holm(const void *x, const void *y, void *ctx)
{
	const double *p = ctx;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	double a = p[i], b = p[j];

	if (isnan(a) != isnan(b))
		return isnan(a) - isnan(b);
	if (!isnan(a) && a != b)
		return (a > b) - (a < b);
	return (i > j) - (i < j);
}

void holm_order(const double *p, size_t m, size_t *ix)
{
	for (size_t i = 0; i < m; i++)
		ix[i] = i;
	qsort_r(ix, m, sizeof(*ix), cmp_holm, (void *)p);
}

void holm_adjust(const double *p, size_t m, double *adj)
{
	size_t *ix = malloc((m ? m : 1) * sizeof(size_t));
	double *cp = malloc((m ? m : 1) * sizeof(double)), run = 0;

	if (!ix || !cp) {
		for (size_t i = 0; i < m; i++)
			adj[i] = NAN;
		free(ix);
		free(cp);
		return;
	}
	memcpy(cp, p, m * sizeof(double));
	holm_order(cp, m, ix);
	for (size_t r = 0; r < m; r++) {
		double v = cp[ix[r]];

		run = isnan(v) ? run : fmax(run, fmin(1.0, (double)(m - r) * v));
		adj[ix[r]] = isnan(v) ? NAN : run;
	}
	free(ix);
	free(cp);
}

double holm_level(double level, size_t m, size_t rank)
{
	return 1 - (1 - level) / (double)(m > rank ? m - rank : 1);
}

double modified_z(const double *v, size_t n, size_t i)
{
	double *s = malloc((n ? n : 1) * sizeof(double)), med, mad;

	if (!s || i >= n) {
		free(s);
		return NAN;
	}
	memcpy(s, v, n * sizeof(double));
	qsort(s, n, sizeof(*s), cmp_doubles);
	med = median_sorted(s, n);
	for (size_t j = 0; j < n; j++)
		s[j] = fabs(v[j] - med);
	qsort(s, n, sizeof(*s), cmp_doubles);
	mad = median_sorted(s, n);
	free(s);
	if (mad == 0)
		return v[i] == med ? 0 : copysign(INFINITY, v[i] - med);
	return 0.6745 * (v[i] - med) / mad;
}
