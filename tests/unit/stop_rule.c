// SPDX-License-Identifier: MIT
/* stop=ci (src/engine/cells.c) on cells fed round by round: a
 * clearly slower member leaves the race and the cell closes decided; a
 * tie inside min_effect closes "equal"; a noisy tie goes on, then closes
 * futile once the projection is beyond max_reps; a max_reps below the
 * race's first interval refused; the warm-up outlier flag. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "engine/cells.h"
#include "results/anytime.h"
#include "unit.h"

#define MAX_ROUNDS 40
#define K 3

struct fake {
	struct bench_item it[K];
	double s[K][MAX_ROUNDS];
	unsigned r[K][MAX_ROUNDS];
	struct cell cell;
	size_t k;
};

static void fake_init(struct fake *f, size_t k, unsigned max_reps, double min_effect)
{
	memset(f, 0, sizeof(*f));
	f->k = k;
	for (size_t i = 0; i < k; i++) {
		f->it[i].reps = 3;
		f->it[i].max_reps = max_reps;
		f->it[i].stop = STOP_RULE_CI;
		f->it[i].min_effect = min_effect;
		f->it[i].samples = f->s[i];
		f->it[i].rounds = f->r[i];
		snprintf(f->it[i].id, sizeof(f->it[i].id), "cfg%zu", i);
	}
	f->cell.open = true;
	f->cell.members = k;
}

/* A deterministic wobble in [-1, 1] for member i in round r. */
static double wobble(size_t i, unsigned r)
{
	return sin(1.7 * r + 2.3 * (double)i) * cos(0.37 * r * r);
}

/* The engine's loop on one cell: a member runs a round while it is not
 * out and (under its least rounds, or the cell open), to max_reps. */
static unsigned run(struct fake *f, const double *mean, double noise)
{
	unsigned round = 0;

	while (round < f->it[0].max_reps) {
		bool any = false;

		round++;
		for (size_t i = 0; i < f->k; i++) {
			struct bench_item *it = &f->it[i];

			if (it->out || (it->nsamples >= 3 && !f->cell.open))
				continue;
			it->rounds[it->nsamples] = round;
			it->samples[it->nsamples++] = mean[i] * (1 + noise * wobble(i, round));
			it->wall_s += it->samples[it->nsamples - 1];
			any = true;
		}
		if (!any)
			return round - 1;
		cells_update(&f->cell, 1, f->it, f->k);
	}
	return round;
}

UNIT(stop_ci_drops_a_slower_member_and_decides_a_winner)
{
	struct fake f;
	const double mean[K] = { 1.0, 1.5, 2.0 };

	fake_init(&f, 3, 30, 5);
	run(&f, mean, 0.02);
	CHECK(f.cell.dec == RACE_WINNER, "decision %s", race_dec_name(f.cell.dec));
	CHECK(!f.cell.open, "closed");
	CHECK(f.it[1].out && f.it[2].out && !f.it[0].out, "the slower two left");
	CHECK(f.cell.leader == 0, "leader %zu", f.cell.leader);
	CHECK(f.it[2].out_round <= f.it[1].out_round, "the slowest left first or with it");
	CHECK(f.it[1].race.ci.lo > 1, "its interval lies above 1: %g", f.it[1].race.ci.lo);
	return 0;
}

UNIT(stop_ci_closes_a_tight_tie_as_equal_within_min_effect)
{
	struct fake f;
	const double mean[K] = { 1.0, 1.004, 0 };

	fake_init(&f, 2, 40, 5);
	run(&f, mean, 0.005);
	CHECK(f.cell.dec == RACE_TIED, "decision %s (%s)", race_dec_name(f.cell.dec),
	      f.cell.why);
	CHECK(f.it[1].race.st == RACE_EQUAL || f.it[0].race.st == RACE_EQUAL, "one equal");
	CHECK(!f.it[0].out && !f.it[1].out, "nobody left");
	return 0;
}

UNIT(stop_ci_does_not_decide_a_noisy_tie_and_closes_it_futile)
{
	struct fake f;
	const double mean[K] = { 1.0, 1.0, 0 };
	unsigned rounds;

	fake_init(&f, 2, 12, 1);
	rounds = run(&f, mean, 0.3);
	CHECK(f.cell.dec == RACE_UNDECIDED, "decision %s", race_dec_name(f.cell.dec));
	CHECK(f.cell.futile, "futile (%s)", f.cell.why);
	CHECK(rounds == RACE_FUTILE_FROM, "closed at round %u", rounds);
	CHECK(f.cell.needed == 0 || f.cell.needed > 12, "projection %zu", f.cell.needed);
	return 0;
}

UNIT(stop_ci_needs_three_rounds_before_any_decision)
{
	struct fake f;
	const double mean[K] = { 1.0, 3.0, 0 };

	fake_init(&f, 2, 30, 5);
	CHECK(least_reps(&f.it[0], &f.cell) == ANYTIME_MIN_N, "least %u",
	      least_reps(&f.it[0], &f.cell));
	f.it[0].max_reps = f.it[1].max_reps = 2;
	run(&f, mean, 0.0001);
	CHECK(f.cell.dec != RACE_WINNER, "no winner from two rounds");
	return 0;
}

/* A max_reps below the race's first interval (3 rounds) in a cell of two
 * or more is refused at plan time; stop=rsd and a cell of one are not. */
UNIT(stop_ci_refuses_a_max_reps_below_the_first_interval)
{
	struct pconf pc = { .section = "io", .where = "p.ini:3" };
	struct cell cells[2] = { { .members = 5 }, { .members = 1 } };
	struct bench_item it[6];

	memset(it, 0, sizeof(it));
	for (int i = 0; i < 6; i++) {
		it[i].pc = &pc;
		it[i].reps = it[i].max_reps = 2;
		it[i].stop = STOP_RULE_CI;
		it[i].cell = i == 5; /* five in cell 0, one alone in cell 1 */
	}
	CHECK(cells_check(it, 6, cells) == -EINVAL, "max_reps 2");
	for (int i = 0; i < 6; i++)
		it[i].max_reps = 3;
	CHECK(cells_check(it, 6, cells) == 0, "max_reps 3");
	for (int i = 0; i < 6; i++)
		it[i].max_reps = 2, it[i].stop = STOP_RULE_RSD;
	CHECK(cells_check(it, 6, cells) == 0, "stop=rsd");
	it[5].stop = STOP_RULE_CI;
	CHECK(cells_check(&it[5], 1, cells) == 0, "one alone: nothing to compare");
	return 0;
}

UNIT(warmup_outlier_flags_a_slow_first_repetition)
{
	double s[5] = { 2.0, 1.00, 1.01, 0.99, 1.02 };
	unsigned r[5] = { 1, 2, 3, 4, 5 };
	struct bench_item it = { .samples = s, .rounds = r, .nsamples = 2 };

	CHECK(warmup_outlier(&it) == -1, "known with 2 samples");
	it.nsamples = 5;
	CHECK(warmup_outlier(&it) == 1, "a first repetition twice as slow is not flagged");
	s[0] = 1.005;
	CHECK(warmup_outlier(&it) == 0, "an ordinary first repetition is flagged");
	return 0;
}
