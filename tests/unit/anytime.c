// SPDX-License-Identifier: MIT
/* results/anytime.c: the spending schedule, the t quantile against tables,
 * the look's interval against numbers computed by hand (python3, the
 * quantile from the table), the band's decisions and the futility
 * projection. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>

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
 * it is n, capped below n there is none, and more spread needs more (no
 * rounds seen: the rounds to come alone). */
UNIT(rounds_needed_is_the_first_deciding_look)
{
	struct at_proj p = { .center = log(1.10), .spread = 0.05 }, wide = p, tie = p;
	size_t n = anytime_rounds_needed(&p, 0.05, 0.05, 3, 1000);

	wide.spread *= 2;
	CHECK(n > 3 && n < 64, "n %zu", n);
	CHECK(anytime_rounds_needed(&p, 0.05, 0.05, n, 1000) == n, "from n");
	CHECK(anytime_rounds_needed(&p, 0.05, 0.05, 3, n - 1) == 0, "cap below n");
	CHECK(anytime_rounds_needed(&wide, 0.05, 0.05, 3, 1000) > n,
	      "twice the spread needs more rounds");
	tie.center = 0, tie.spread = 0.5;
	CHECK(anytime_rounds_needed(&tie, 0.05, 0.05, 3, 50) == 0, "beyond the cap");
	tie.spread = 0.001;
	CHECK(anytime_rounds_needed(&tie, 0.05, 0.05, 3, 50) == 3, "tiny spread: equal at once");
	return 0;
}

/* Rounds like the typical ones appended to a and b (n seen) up to look
 * m: their log ratios center +- spread in turn (mean center, sd about
 * spread).  Does look m's interval decide? */
static bool decides_at(const double *a, const double *b, size_t n, const struct at_proj *p,
		       size_t m)
{
	double x[64], y[64];
	struct ratio_ci ci;

	for (size_t i = 0; i < m && i < 64; i++) {
		double d = p->center + ((i - n) % 2 ? -p->spread : p->spread);

		x[i] = i < n ? a[i] : 1;
		y[i] = i < n ? b[i] : exp(d);
	}
	return anytime_decide(anytime_ratio_ci(x, y, m, 0.05, &ci), &ci, 0.05) != AT_OPEN;
}

/* A slow round seen stays in every later interval: the projection counts
 * it (stream 0.110 s in round 1 of 5, 0.066-0.072 after; make run's W=0
 * cell, 2026-12-01), where the rounds to come alone promised round 6 and
 * round 6's interval was as open as round 5's.  The look it names
 * decides when the rounds to come are like the typical ones; the one
 * before does not. */
UNIT(a_slow_round_seen_stays_in_the_projection)
{
	const double stream[] = { 0.110267, 0.072331, 0.066419, 0.067927, 0.067339 };
	const double uring[] = { 0.078357, 0.069055, 0.075792, 0.064939, 0.064127 };
	struct at_proj p, alone;
	size_t n, n0;

	CHECK(!anytime_projection(stream, uring, 5, &p), "projection");
	CHECK(p.n == 5 && p.ss > 0.05 && fabs(p.center - log(0.069055 / 0.072331)) < 1e-9,
	      "n %zu ss %g center %g", p.n, p.ss, p.center);
	alone = (struct at_proj){ .center = p.center, .spread = p.spread };
	n0 = anytime_rounds_needed(&alone, 0.05, 0.05, 6, 10000);
	n = anytime_rounds_needed(&p, 0.05, 0.05, 6, 10000);
	CHECK(n0 && n0 <= 8, "the rounds to come alone: %zu", n0);
	CHECK(n > n0 && n < 64, "with the slow round: %zu (alone %zu)", n, n0);
	CHECK(decides_at(stream, uring, 5, &p, n), "look %zu does not decide", n);
	CHECK(!decides_at(stream, uring, 5, &p, n - 1), "look %zu decides already", n - 1);
	return 0;
}

/* Without a slow round the rounds seen change little: within two looks of
 * the rounds to come alone. */
UNIT(a_steady_race_projects_as_its_typical_rounds)
{
	const double a[] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	const double b[] = { 1.10, 1.16, 1.05, 1.12, 1.08, 1.14, 1.06, 1.11 };
	struct at_proj p, alone;
	size_t n, n0;

	CHECK(!anytime_projection(a, b, 8, &p), "projection");
	alone = (struct at_proj){ .center = p.center, .spread = p.spread };
	n = anytime_rounds_needed(&p, 0.05, 0.05, 9, 10000);
	n0 = anytime_rounds_needed(&alone, 0.05, 0.05, 9, 10000);
	CHECK(n && n0 && (n > n0 ? n - n0 : n0 - n) <= 2, "seen %zu, alone %zu", n, n0);
	CHECK(anytime_projection(a, b, 0, &p) == -EINVAL, "no rounds");
	return 0;
}

/* One slow repetition moves the mean and the sd, not the robust pair. */
UNIT(robust_spread_ignores_one_outlier)
{
	const double a[] = { 1, 1, 1, 1, 1 }, b[] = { 2, 2.1, 1.9, 2, 20 };
	struct at_proj p;
	double c, s, m, sd;

	CHECK(anytime_projection(a, b, 5, &p) == 0, "rc");
	c = p.center, s = p.spread;
	CHECK(fabs(c - log(2)) < 1e-12, "median %g", c);
	CHECK(fabs(s - 1.4826 * log(2.1 / 2)) < 1e-9, "mad %g", s);
	CHECK(log_ratio_stats(a, b, 5, &m, &sd) == 0 && sd > 10 * s, "sd %g", sd);
	return 0;
}
