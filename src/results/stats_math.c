// SPDX-License-Identifier: MIT
/* Summary statistics of samples: quantiles, median, mean, spread. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats_math.h"

int cmp_doubles(const void *a, const void *b)
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
	qsort(c, n, sizeof(*c), cmp_doubles);
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

#define MAXZ(a, b) ((a) > (b) ? (a) : (b))
#define MINZ(a, b) ((a) < (b) ? (a) : (b))

/* ---- two-sample tests ---------------------------------------------------- */

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *x, const void *y)
{
	return cmp_doubles(&((const struct ranked *)x)->v,
			  &((const struct ranked *)y)->v);
}

/* Number of arrangements of m a's and n b's with U_a = u, for every u:
 * the classic recurrence N(u; m, n) = N(u - n; m - 1, n) + N(u; m, n - 1),
 * built up row by row over m; table size (n + 1) (m n + 1), so pass the
 * smaller sample as n. */
double *mw_exact_counts(size_t m, size_t n)
{
	size_t maxu = m * n, i, j, u;
	/* f[j][u]: arrangements of i a's and j b's with U = u */
	double *f = calloc((n + 1) * (maxu + 1), sizeof(double));
	double *g = calloc((n + 1) * (maxu + 1), sizeof(double));
	double *out;

	if (!f || !g) {
		free(f);
		free(g);
		return NULL;
	}
#define F(a, j, u) (a)[(j) * (maxu + 1) + (u)]
	for (j = 0; j <= n; j++)
		F(f, j, 0) = 1; /* i = 0: one arrangement, U = 0 */
	for (i = 1; i <= m; i++) {
		memset(g, 0, (n + 1) * (maxu + 1) * sizeof(double));
		for (j = 0; j <= n; j++)
			for (u = 0; u <= maxu; u++) {
				double v = 0;

				if (u >= j)
					v += F(f, j, u - j); /* last is an a: beats j b's */
				if (j)
					v += F(g, j - 1, u); /* last is a b */
				F(g, j, u) = v;
			}
		double *t = f;
		f = g;
		g = t;
	}
#undef F
	out = f;
	memmove(out, out + n * (maxu + 1), (maxu + 1) * sizeof(double));
	free(g);
	return out;
}

/* P(U >= ustat) under the exact null distribution. */
static double exact_mw_sf(size_t m, size_t n, double ustat)
{
	double *c = mw_exact_counts(m, n), total = 0, tail = 0;

	if (!c)
		return NAN;
	for (size_t u = 0; u <= m * n; u++) {
		total += c[u];
		if ((double)u >= ustat)
			tail += c[u];
	}
	free(c);
	return tail / total;
}

double mann_whitney_p(const double *a, size_t na, const double *b, size_t nb,
		      double *u_out)
{
	size_t n = na + nb, i, j;
	struct ranked *r;
	double ra = 0, tie = 0, u1, u2, umax, mu, sd, z, p;

	if (!na || !nb)
		return NAN;
	r = malloc(n * sizeof(*r));
	if (!r)
		return NAN;
	for (i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 1 };
	for (i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 0 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double rank;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		rank = ((double)i + 1 + (double)j) / 2.0; /* mean of ranks i+1..j */
		for (size_t k = i; k < j; k++)
			if (r[k].from_a)
				ra += rank;
		tie += (double)(j - i) * (double)(j - i) * (double)(j - i) - (double)(j - i);
	}
	free(r);
	u1 = ra - (double)na * ((double)na + 1) / 2.0;
	u2 = (double)na * (double)nb - u1;
	umax = fmax(u1, u2);
	if (u_out)
		*u_out = u1;
	if (tie == 0 && (na <= 8 || nb <= 8)) {
		p = 2 * exact_mw_sf(MAXZ(na, nb), MINZ(na, nb), umax);
	} else {
		mu = (double)na * (double)nb / 2.0;
		sd = sqrt((double)na * (double)nb / 12.0 *
			  ((double)n + 1 - tie / ((double)n * ((double)n - 1))));
		if (sd == 0)
			return 1.0;
		z = (umax - mu - 0.5) / sd;
		p = erfc(z / sqrt(2.0)); /* 2 * normal survival at z */
	}
	return fmin(1.0, p);
}

/* Continued fraction of I_x(a, b) by the modified Lentz method; valid for
 * x < (a + 1) / (a + b + 2), the other side by symmetry. */
double incbeta(double a, double b, double x)
{
	const double tiny = 1e-300;
	double front, f = 1, c = 1, d = 0;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	if (x > (a + 1) / (a + b + 2))
		return 1 - incbeta(b, a, 1 - x);
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x)) / a;
	for (int i = 0; i <= 400; i++) {
		int m = i / 2;
		double num;

		if (i == 0)
			num = 1;
		else if (i % 2)
			num = -((a + m) * (a + b + m) * x) /
			      ((a + 2 * m) * (a + 2 * m + 1));
		else
			num = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		d = fabs(d) < tiny ? tiny : d;
		d = 1 / d;
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		f *= c * d;
		if (fabs(1 - c * d) < 1e-12)
			return front * (f - 1);
	}
	return front * (f - 1); /* did not converge: best effort */
}

double welch_t_p(const double *a, size_t na, const double *b, size_t nb,
		 double *t_out, double *df_out)
{
	struct summary sa, sb;
	double va, vb, se, t, df;

	if (na < 2 || nb < 2)
		return NAN;
	summarize(a, na, &sa);
	summarize(b, nb, &sb);
	va = sa.stddev * sa.stddev / (double)na;
	vb = sb.stddev * sb.stddev / (double)nb;
	se = sqrt(va + vb);
	if (se == 0)
		return sa.mean == sb.mean ? 1.0 : 0.0;
	t = (sa.mean - sb.mean) / se;
	df = (va + vb) * (va + vb) /
	     (va * va / ((double)na - 1) + vb * vb / ((double)nb - 1));
	if (t_out)
		*t_out = t;
	if (df_out)
		*df_out = df;
	return incbeta(df / 2, 0.5, df / (df + t * t));
}

double two_sample_p(const double *a, size_t na, const double *b, size_t nb,
		    const char **test)
{
	if (na >= MW_MIN_N && nb >= MW_MIN_N) {
		*test = "mann-whitney";
		return mann_whitney_p(a, na, b, nb, NULL);
	}
	*test = "welch";
	return welch_t_p(a, na, b, nb, NULL, NULL);
}

int median_ci(double *v, size_t n, double level, double *lo, double *hi)
{
	double pk = ldexp(1, -(int)n), cdf = 0; /* P(B = 0), P(B < k) */
	size_t k = 0;

	*lo = *hi = NAN;
	if (n < 6)
		return -EDOM;
	qsort(v, n, sizeof(*v), cmp_doubles);
	while (cdf + pk <= (1 - level) / 2) {
		cdf += pk;
		pk = pk * (double)(n - k) / (double)(k + 1);
		k++;
	}
	if (!k)
		return -EDOM;
	*lo = v[k - 1];
	*hi = v[n - k];
	return 0;
}
