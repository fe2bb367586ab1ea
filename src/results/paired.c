// SPDX-License-Identifier: MIT
/* Ratios of times with confidence intervals, paired and unpaired; Holm; modified z. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "paired.h"
#include "stats_math.h"

#define EXACT_MAX_N 50 /* scipy.stats.wilcoxon's method "auto" */
#define MW_EXACT_MAX 8 /* scipy.stats.mannwhitneyu's method "auto" */

static int cmp_abs(const void *x, const void *y)
{
	double a = fabs(*(const double *)x), b = fabs(*(const double *)y);

	return (a > b) - (a < b);
}

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

/* ---- Wilcoxon signed-rank ------------------------------------------------ */

/* Counts of the 2^n sign patterns by positive rank sum, 0..n(n+1)/2. */
static double *wsr_counts(size_t n)
{
	size_t m = n * (n + 1) / 2;
	double *c = calloc(m + 1, sizeof(double));

	if (!c)
		return NULL;
	c[0] = 1;
	for (size_t r = 1; r <= n; r++)
		for (size_t s = m; s >= r; s--)
			c[s] += c[s - r];
	return c;
}

/* Exact two-sided p of a positive rank sum, as scipy: 2 min(P(<= r),
 * P(>= r)), capped at 1. */
static double wsr_exact_p(size_t n, size_t rplus)
{
	size_t m = n * (n + 1) / 2;
	double *c = wsr_counts(n), lo = 0, hi = 0, total = ldexp(1, (int)n);

	if (!c)
		return NAN;
	for (size_t s = 0; s <= m; s++) {
		if (s <= rplus)
			lo += c[s];
		if (s >= rplus)
			hi += c[s];
	}
	free(c);
	return fmin(1.0, 2 * fmin(lo, hi) / total);
}

/* Normal two-sided p of rank sum t of n values, tie sum ts. */
static double wsr_normal_p(size_t n, double t, double ts)
{
	double nn = (double)n, mn = nn * (nn + 1) / 4;
	double se = sqrt((nn * (nn + 1) * (2 * nn + 1) - ts / 2) / 24);

	if (se == 0)
		return 1.0;
	return fmin(1.0, erfc(fabs(t - mn) / se / sqrt(2.0)));
}

/* The signed-rank p of the log ratios d (scratch space: reordered). */
static double wsr_p(double *d, size_t n)
{
	size_t nz = 0, i, j;
	double rplus = 0, rminus = 0;

	for (i = 0; i < n; i++)
		if (d[i] != 0)
			d[nz++] = d[i];
	if (!nz)
		return 1.0;
	qsort(d, nz, sizeof(*d), cmp_abs);
	double *ab = malloc(nz * sizeof(double));

	if (!ab)
		return NAN;
	for (i = 0; i < nz; i = j) {
		for (j = i + 1; j < nz && fabs(d[j]) == fabs(d[i]); j++)
			;
		for (size_t k = i; k < j; k++) {
			double rank = ((double)i + 1 + (double)j) / 2;

			*(d[k] > 0 ? &rplus : &rminus) += rank;
			ab[k] = fabs(d[k]);
		}
	}
	double ts = tie_sum(ab, nz);

	free(ab);
	if (nz == n && ts == 0 && n <= EXACT_MAX_N)
		return wsr_exact_p(n, (size_t)rplus);
	return wsr_normal_p(nz, fmin(rplus, rminus), ts);
}

/* The largest rank sum t < M/2 whose two-sided p is below alpha, or -1:
 * exact when `exact`, else normal with tie sum ts. */
static long wsr_crit(size_t n, int exact, double ts, double alpha)
{
	size_t m = n * (n + 1) / 2;
	double *c = exact ? wsr_counts(n) : NULL, cdf = 0;
	double total = ldexp(1, (int)(n > 1000 ? 1000 : n));
	long k = -1;

	if (exact && !c)
		return -2;
	for (size_t t = 0; 2 * t < m; t++) {
		double p;

		if (exact) {
			cdf += c[t];
			p = 2 * cdf / total;
		} else {
			p = wsr_normal_p(n, (double)t, ts);
		}
		if (!(p < alpha))
			break;
		k = (long)t;
	}
	free(c);
	return k;
}

/* Sorted Walsh averages of d: n(n+1)/2 of them. */
static double *walsh(const double *d, size_t n)
{
	double *w = malloc(n * (n + 1) / 2 * sizeof(double));
	size_t k = 0;

	if (!w)
		return NULL;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i; j < n; j++)
			w[k++] = (d[i] + d[j]) / 2;
	qsort(w, k, sizeof(*w), cmp_doubles);
	return w;
}

/* Estimate and interval from the sorted Walsh averages of d. */
static int wsr_interval(const double *d, size_t n, double alpha,
			struct ratio_ci *out)
{
	size_t m = n * (n + 1) / 2;
	double *s = malloc(n * sizeof(double)), *w = walsh(d, n);
	int rc = 0;

	if (!s || !w) {
		free(s);
		free(w);
		return -ENOMEM;
	}
	memcpy(s, d, n * sizeof(double));
	qsort(s, n, sizeof(*s), cmp_doubles);
	double ts = tie_sum(s, n);
	long k = wsr_crit(n, ts == 0 && n <= EXACT_MAX_N, ts, alpha);

	out->ratio = exp(median_sorted(w, m));
	if (k == -2)
		rc = -ENOMEM;
	else if (k < 0 || ldexp(1, 1 - (int)(n > 1000 ? 1000 : n)) >= alpha)
		rc = -EDOM;
	else {
		out->lo = exp(w[k]);
		out->hi = exp(w[m - 1 - (size_t)k]);
	}
	free(s);
	free(w);
	return rc;
}

static int check_level(double level, struct ratio_ci *out, size_t n)
{
	*out = (struct ratio_ci){ n, NAN, NAN, NAN, NAN };
	return level > 0 && level < 1 ? 0 : -EINVAL;
}

int paired_ratio_ci(const double *a, const double *b, size_t n, double level,
		    struct ratio_ci *out)
{
	int rc = check_level(level, out, n);
	double *la = malloc((n ? n : 1) * sizeof(double));
	double *d = malloc((n ? n : 1) * sizeof(double));

	if (!la || !d)
		rc = rc ? rc : -ENOMEM;
	if (!rc)
		rc = logs(a, n, la);
	if (!rc)
		rc = logs(b, n, d);
	if (!rc && !n)
		rc = -EDOM;
	if (!rc) {
		for (size_t i = 0; i < n; i++)
			d[i] -= la[i];
		rc = wsr_interval(d, n, 1 - level, out);
		if (rc == 0 || rc == -EDOM)
			out->p = wsr_p(d, n); /* reorders d: last */
	}
	free(la);
	free(d);
	return rc;
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
