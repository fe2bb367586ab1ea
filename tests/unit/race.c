// SPDX-License-Identifier: MIT
/* results/race.c: one look at a cell's race -- the pair budget, behind
 * by any member, the leader among those not behind, winner / equal /
 * undecided, and nothing to compare. */
#include <math.h>
#include <stdint.h>

#include "results/race.h"
#include "unit.h"

static const unsigned rounds[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

static struct race_arm arm(const double *x, size_t n)
{
	return (struct race_arm){ .x = x, .round = rounds, .n = n };
}

UNIT(pair_budget_is_a_union_bound_over_pairs)
{
	CHECK(race_pair_alpha(2) == 0.05, "one pair: %g", race_pair_alpha(2));
	CHECK(fabs(race_pair_alpha(5) - 0.005) < 1e-15, "ten pairs: %g", race_pair_alpha(5));
	return 0;
}

UNIT(a_clearly_slower_member_is_behind_and_the_fastest_wins)
{
	const double a[8] = { 1, 1.01, 0.99, 1.02, 0.98, 1, 1.01, 0.99 };
	const double b[8] = { 2, 2.03, 1.97, 2.01, 1.99, 2.02, 2, 1.98 };
	struct race_arm arms[2] = { arm(b, 8), arm(a, 8) };
	struct race_cmp cmp[2];
	struct race_look look;

	CHECK(!race_decide(arms, 2, 0.05, RACE_CAP, &look, cmp), "rc");
	CHECK(look.leader == 1 && look.dec == RACE_WINNER, "leader %zu, %s", look.leader,
	      race_dec_name(look.dec));
	CHECK(cmp[0].st == RACE_BEHIND && cmp[0].vs == 1 && cmp[0].ci.lo > 1.9, "behind");
	CHECK(cmp[1].st == RACE_LEADS, "leads");
	return 0;
}

/* c is shown slower than b, not (yet) than the leader a: behind all the same. */
UNIT(behind_any_member_leaves_the_race)
{
	const double a[6] = { 1.0, 1.3, 0.8, 1.2, 0.9, 1.1 };
	const double b[6] = { 1.1, 1.0, 1.2, 0.9, 1.15, 1.05 };
	const double c[6] = { 1.65, 1.51, 1.79, 1.36, 1.73, 1.56 }; /* 1.5 x b, +-1% */
	struct race_arm arms[3] = { arm(a, 6), arm(b, 6), arm(c, 6) };
	struct race_cmp cmp[3];
	struct race_look look;

	CHECK(!race_decide(arms, 3, 0.05, RACE_CAP, &look, cmp), "rc");
	CHECK(cmp[2].st == RACE_BEHIND && cmp[2].vs == 1, "c behind b: state %s vs %zu",
	      race_state_name(cmp[2].st), cmp[2].vs);
	CHECK(cmp[1].st == RACE_OPEN && look.dec == RACE_UNDECIDED, "a-b open");
	CHECK(look.needed == 0 || look.needed > 6, "projection %zu", look.needed);
	return 0;
}

UNIT(close_members_are_equal_within_the_band)
{
	const double a[8] = { 1, 1.01, 0.99, 1.02, 0.98, 1, 1.01, 0.99 };
	double b[8];
	struct race_arm arms[2] = { arm(a, 8), arm(b, 8) };
	struct race_cmp cmp[2];
	struct race_look look;

	for (int i = 0; i < 8; i++)
		b[i] = a[i] * (1.002 + 0.002 * (i % 3 - 1));
	CHECK(!race_decide(arms, 2, 0.05, RACE_CAP, &look, cmp), "rc");
	CHECK(look.dec == RACE_TIED, "decision %s", race_dec_name(look.dec));
	CHECK(!race_decide(arms, 2, 0.0001, RACE_CAP, &look, cmp), "rc");
	CHECK(look.dec == RACE_UNDECIDED, "a band too narrow: %s", race_dec_name(look.dec));
	return 0;
}

UNIT(no_samples_is_nothing_to_compare)
{
	const double a[3] = { 1, 1, 1 };
	struct race_arm arms[2] = { arm(a, 3), arm(a, 0) };
	struct race_cmp cmp[2];
	struct race_look look;

	CHECK(!race_decide(arms, 2, 0.05, RACE_CAP, &look, cmp), "rc");
	CHECK(look.dec == RACE_NOTHING && look.leader == 0, "%s", race_dec_name(look.dec));
	arms[0].n = 0;
	CHECK(!race_decide(arms, 2, 0.05, RACE_CAP, &look, cmp), "rc");
	CHECK(look.leader == SIZE_MAX, "no leader");
	return 0;
}
