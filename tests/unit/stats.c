// SPDX-License-Identifier: MIT
/* Statistics of summaries and of compare, against values computed by hand
 * or by brute force (every arrangement, for Mann-Whitney) and numerical
 * integration of the t density (for Welch) in python3. */
#include <math.h>

#include "results/stats_math.h"
#include "unit.h"

#define NEAR(x, want, tol) (fabs((x) - (want)) <= (tol))

UNIT(median_and_rsd)
{
	const double v[] = { 4, 1, 100, 3, 2 };
	struct summary s;

	summarize(v, 5, &s);
	CHECK(s.median == 3 && s.min == 1 && s.max == 100, "median %g", s.median);
	CHECK(NEAR(s.mean, 22, 1e-12), "mean %g", s.mean);
	/* sd = sqrt(7610 / 4) = 43.6176; rsd = sd / 22 */
	CHECK(NEAR(s.rsd_pct, 198.262, 1e-3), "rsd %g", s.rsd_pct);
	summarize(v, 4, &s); /* 1 3 4 100: median between the middle two */
	CHECK(s.median == 3.5, "even median %g", s.median);
	summarize(v, 1, &s);
	CHECK(s.rsd_pct == 0 && s.median == 4, "one value");
	return 0;
}

UNIT(mann_whitney_exact)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	const double c[] = { 1.1, 2.2, 3.3, 4.4, 5.5 }, d[] = { 3.0, 6.0, 7.0, 8.0, 9.0 };
	const double e[] = { 1, 2, 3, 4 }, f[] = { 5, 6, 7, 8 };
	double u;

	CHECK(NEAR(mann_whitney_p(a, 3, b, 3, &u), 0.1, 1e-12) && u == 0, "3v3");
	CHECK(NEAR(mann_whitney_p(b, 3, a, 3, &u), 0.1, 1e-12) && u == 9, "3v3 swapped");
	CHECK(NEAR(mann_whitney_p(c, 5, d, 5, &u), 1.0 / 18, 1e-12) && u == 3,
	      "5v5: %g", mann_whitney_p(c, 5, d, 5, &u));
	CHECK(NEAR(mann_whitney_p(e, 4, f, 4, &u), 2.0 / 70, 1e-12), "4v4");
	CHECK(NEAR(mann_whitney_p(c, 5, c, 5, &u), 1.0, 1e-12), "same sample");
	CHECK(isnan(mann_whitney_p(a, 0, b, 3, &u)), "empty sample");
	return 0;
}

UNIT(mann_whitney_ties_normal)
{
	const double a[] = { 1, 2, 2, 3, 4, 5, 5, 6, 7 };
	const double b[] = { 3, 4, 5, 6, 7, 8, 8, 9, 10 };
	double u, p = mann_whitney_p(a, 9, b, 9, &u);

	CHECK(u == 15 && NEAR(p, 0.026484428836048204, 1e-9), "p %.12g u %g", p, u);
	return 0;
}

UNIT(welch_t_known)
{
	/* Wikipedia, "Welch's t-test", example 1 */
	const double a[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9,
			     22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	const double b[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8,
			     20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	const double c[] = { 0.51, 0.49, 0.50 }, d[] = { 0.61, 0.58, 0.66 };
	double t, df, p = welch_t_p(a, 15, b, 15, &t, &df);

	CHECK(NEAR(t, -2.45535639828601, 1e-9) && NEAR(df, 24.98852929023142, 1e-9),
	      "t %g df %g", t, df);
	CHECK(NEAR(p, 0.021378001462888, 1e-7), "p %.12g", p);
	p = welch_t_p(c, 3, d, 3, &t, &df);
	CHECK(NEAR(t, -4.853626716970752, 1e-9) && NEAR(p, 0.0316010796, 1e-6),
	      "small: t %g p %.10g", t, p);
	CHECK(isnan(welch_t_p(c, 1, d, 3, NULL, NULL)), "n=1");
	CHECK(welch_t_p(c, 3, c, 3, NULL, NULL) > 0.99, "same sample");
	return 0;
}

UNIT(incbeta_known)
{
	/* I_x(1, 1) = x;  I_x(2, 1) = x^2;  I_0.5(a, a) = 0.5 */
	CHECK(NEAR(incbeta(1, 1, 0.3), 0.3, 1e-12), "uniform");
	CHECK(NEAR(incbeta(2, 1, 0.3), 0.09, 1e-12), "x^2");
	CHECK(NEAR(incbeta(7.5, 7.5, 0.5), 0.5, 1e-12), "symmetric");
	return 0;
}
