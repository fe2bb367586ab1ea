// SPDX-License-Identifier: MIT
/* results/anytime.c: the spending schedule, the t quantile against tables,
 * the look's interval against numbers computed by hand (python3, the
 * quantile from the table), the band's decisions and the futility
 * projection. */
#include <errno.h>
#include <math.h>

#include "results/anytime.h"
#include "unit.h"

UNIT(spending_sums_to_alpha)
{
	double s = 0;

	for (size_t n = 0; n < 200000; n++)
		s += anytime_alpha(0.05, n);
	CHECK(anytime_alpha(0.05, 2) == 0, "no look before 3 pairs");
	CHECK(fabs(anytime_alpha(0.05, 3) - 0.025) < 1e-15, "first look spends half");
	CHECK(fabs(anytime_alpha(0.05, 10) - 0.05 / 72) < 1e-15, "look 10: alpha/72");
	CHECK(s < 0.05 && s > 0.0499, "sum %g", s);
	return 0;
}

UNIT(t_quantile_matches_tables)
{
	CHECK(fabs(student_t_quantile(0.975, 4) - 2.776445) < 1e-5, "%g",
	      student_t_quantile(0.975, 4));
	CHECK(fabs(student_t_quantile(0.995, 9) - 3.249836) < 1e-5, "%g",
	      student_t_quantile(0.995, 9));
	CHECK(fabs(student_t_quantile(0.9995, 2) - 31.59905) < 1e-3, "%g",
	      student_t_quantile(0.9995, 2));
	CHECK(fabs(student_t_quantile(0.025, 4) + 2.776445) < 1e-5, "lower tail");
	return 0;
}

/* alpha 0.6 spends 0.05 at look 5: the plain 95% t interval. */
UNIT(look_interval_matches_hand_numbers)
{
	const double a[] = { 10.0, 10.2, 9.9, 10.1, 10.0 };
	const double b[] = { 20.5, 21.0, 20.0, 21.5, 20.2 };
	struct ratio_ci ci;

	CHECK(anytime_ratio_ci(a, b, 5, 0.6, &ci) == 0, "rc");
	CHECK(fabs(ci.ratio - 2.0551676167) < 1e-8, "ratio %.10f", ci.ratio);
	CHECK(fabs(ci.lo - 2.0011869233) < 1e-6, "lo %.10f", ci.lo);
	CHECK(fabs(ci.hi - 2.1106044036) < 1e-6, "hi %.10f", ci.hi);
	CHECK(fabs(ci.p - 0.05) < 1e-12, "alpha spent %g", ci.p);
	return 0;
}

UNIT(too_few_or_bad_values_refused)
{
	const double a[] = { 1, 1, 1 }, b[] = { 2, 2.1, 0 };
	struct ratio_ci ci;

	CHECK(anytime_ratio_ci(a, b, 2, 0.05, &ci) == -EDOM, "two pairs");
	CHECK(anytime_ratio_ci(a, b, 3, 0.05, &ci) == -EINVAL, "a zero time");
	CHECK(anytime_ratio_ci(a, a, 3, 0.05, &ci) == 0 && ci.lo == 1 && ci.hi == 1,
	      "no spread: a point");
	return 0;
}

UNIT(decisions_follow_the_band)
{
	struct ratio_ci behind = { .lo = 1.2, .hi = 1.5 }, ahead = { .lo = 0.7, .hi = 0.9 };
	struct ratio_ci equal = { .lo = 0.97, .hi = 1.04 }, open = { .lo = 0.92, .hi = 1.08 };
	struct ratio_ci edge = { .lo = 1 / 1.05, .hi = 1.05 };

	CHECK(anytime_decide(0, &behind, 0.05) == AT_BEHIND, "behind");
	CHECK(anytime_decide(0, &ahead, 0.05) == AT_AHEAD, "ahead");
	CHECK(anytime_decide(0, &equal, 0.05) == AT_EQUAL, "equal");
	CHECK(anytime_decide(0, &open, 0.05) == AT_OPEN, "open");
	CHECK(anytime_decide(0, &edge, 0.05) == AT_EQUAL, "band edges are inside");
	CHECK(anytime_decide(0, &open, 0.10) == AT_EQUAL, "a wider band decides it");
	CHECK(anytime_decide(-EDOM, &behind, 0.05) == AT_OPEN, "no interval");
	return 0;
}

/* The projection is the first look whose interval would decide: from n on
 * it is n, capped below n there is none, and more spread needs more. */
UNIT(rounds_needed_is_the_first_deciding_look)
{
	double mean = log(1.10), sd = 0.05;
	size_t n = anytime_rounds_needed(mean, sd, 0.05, 0.05, 3, 1000);

	CHECK(n > 3 && n < 64, "n %zu", n);
	CHECK(anytime_rounds_needed(mean, sd, 0.05, 0.05, n, 1000) == n, "from n");
	CHECK(anytime_rounds_needed(mean, sd, 0.05, 0.05, 3, n - 1) == 0, "cap below n");
	CHECK(anytime_rounds_needed(mean, sd * 2, 0.05, 0.05, 3, 1000) > n,
	      "twice the spread needs more rounds");
	CHECK(anytime_rounds_needed(0.0, 0.5, 0.05, 0.05, 3, 50) == 0, "beyond the cap");
	CHECK(anytime_rounds_needed(0.0, 0.001, 0.05, 0.05, 3, 50) == 3,
	      "tiny spread: equal at once");
	return 0;
}

/* One slow repetition moves the mean and the sd, not the robust pair. */
UNIT(robust_spread_ignores_one_outlier)
{
	const double a[] = { 1, 1, 1, 1, 1 }, b[] = { 2, 2.1, 1.9, 2, 20 };
	double c, s, m, sd;

	CHECK(log_ratio_robust(a, b, 5, &c, &s) == 0, "rc");
	CHECK(fabs(c - log(2)) < 1e-12, "median %g", c);
	CHECK(fabs(s - 1.4826 * log(2.1 / 2)) < 1e-9, "mad %g", s);
	CHECK(log_ratio_stats(a, b, 5, &m, &sd) == 0 && sd > 10 * s, "sd %g", sd);
	return 0;
}
