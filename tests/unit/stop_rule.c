// SPDX-License-Identifier: MIT
/* stop=ci (src/harness/engine/cells.c) on a two-configuration cell fed
 * round by round: it stops on the interval's width only -- a narrow one at
 * the signed-rank floor, whether or not it excludes 1; a wide one, even one
 * that excludes 1, runs to max_reps; a max_reps below the floor refused;
 * the warm-up outlier flag. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "harness/engine/cells.h"
#include "unit.h"

#define MAX_ROUNDS 12

struct fake {
	struct bench_item it[2];
	double s[2][MAX_ROUNDS];
	unsigned r[2][MAX_ROUNDS];
	struct cell cell;
};

static void fake_init(struct fake *f, unsigned reps, unsigned max_reps)
{
	memset(f, 0, sizeof(*f));
	for (int k = 0; k < 2; k++) {
		f->it[k].reps = reps;
		f->it[k].max_reps = max_reps;
		f->it[k].stop = STOP_RULE_CI;
		f->it[k].target_ci = 3;
		f->it[k].samples = f->s[k];
		f->it[k].rounds = f->r[k];
		snprintf(f->it[k].id, sizeof(f->it[k].id), "cfg%d", k);
	}
	f->cell.open = true;
	f->cell.members = 2;
}

/* Rounds until the cell closes (the engine's loop: a round while any
 * member is under reps or the cell is open, up to max_reps). */
static unsigned rounds_to_stop(struct fake *f, double (*b_of)(unsigned round, double a))
{
	unsigned round = 0;

	while (round < f->it[0].max_reps && (round < f->it[0].reps || f->cell.open)) {
		double a = 1.0 + 0.01 * ((round * 7) % 5); /* drift the pair shares */

		round++;
		for (int k = 0; k < 2; k++) {
			f->r[k][round - 1] = round;
			f->s[k][round - 1] = k ? b_of(round, a) : a;
			f->it[k].nsamples = round;
		}
		cells_update(&f->cell, 1, f->it, 2);
	}
	return round;
}

static double clearly_slower(unsigned round, double a)
{
	return a * (1.20 + 0.005 * (round % 3));
}

/* Alternately 8% faster and slower: an interval around 1, wider than +-3%. */
static double tied_noisy(unsigned round, double a)
{
	return a * (round % 2 ? 1.08 : 0.93);
}

static int stop_ci_stops_a_narrow_difference_at_the_floor_and_a_tie_at_max_reps(void)
{
	struct fake f;
	unsigned clear, tie;

	fake_init(&f, 3, 10);
	clear = rounds_to_stop(&f, clearly_slower);
	CHECK(clear == 6, "clear narrow difference: %u rounds, expected the floor 6", clear);
	CHECK(!f.cell.open && f.cell.compared && f.cell.lo > 1 &&
	      f.cell.hi - f.cell.lo <= 0.06,
	      "clear: open %d, interval %g-%g", f.cell.open, f.cell.lo, f.cell.hi);
	CHECK(!strncmp(f.cell.why, "narrow: ", 8), "why: %s", f.cell.why);
	fake_init(&f, 3, 10);
	tie = rounds_to_stop(&f, tied_noisy);
	CHECK(tie == 10, "tie: %u rounds, expected max_reps 10", tie);
	CHECK(!strncmp(f.cell.why, "max_reps: 10 rounds", 19), "why: %s", f.cell.why);
	CHECK(f.cell.lo < 1 && f.cell.hi > 1, "tie: interval %g-%g", f.cell.lo, f.cell.hi);
	return 0;
}

/* 20% slower every round, give or take 10%: every log ratio positive, so
 * the interval excludes 1 from the floor on, but it is +-10% wide. */
static double slower_noisy(unsigned round, double a)
{
	return a * 1.20 * (round % 2 ? 1.10 : 0.92);
}

/* The old rule stopped here at the floor ("decided: the interval excludes
 * 1"): stopping on significance.  Only the width counts now. */
static int stop_ci_does_not_stop_a_wide_interval_that_excludes_1(void)
{
	struct fake f;
	unsigned n;

	fake_init(&f, 3, 10);
	n = rounds_to_stop(&f, slower_noisy);
	CHECK(n == 10, "wide interval excluding 1: %u rounds, expected max_reps 10", n);
	CHECK(!f.cell.open && f.cell.compared && f.cell.lo > 1 &&
	      (f.cell.hi - f.cell.lo) / 2 > 0.03, "interval %g-%g", f.cell.lo, f.cell.hi);
	CHECK(!strncmp(f.cell.why, "max_reps: 10 rounds, +-", 23) &&
	      strstr(f.cell.why, "wider than target_ci 3%"), "why: %s", f.cell.why);
	/* after the floor, before max_reps: still open, and says why */
	fake_init(&f, 7, 10);
	f.it[0].max_reps = f.it[1].max_reps = 7;
	n = rounds_to_stop(&f, slower_noisy);
	CHECK(n == 7 && !strncmp(f.cell.why, "max_reps: 7 rounds", 18), "%u: %s", n,
	      f.cell.why);
	return 0;
}

static double identical(unsigned round, double a)
{
	(void)round;
	return a * 1.001;
}

static int stop_ci_stops_a_narrow_tie_at_the_floor(void)
{
	struct fake f;
	unsigned n;

	fake_init(&f, 3, 10);
	n = rounds_to_stop(&f, identical);
	CHECK(n == 6, "%u rounds", n);
	CHECK(f.cell.compared && f.cell.hi - f.cell.lo <= 0.06, "interval %g-%g",
	      f.cell.lo, f.cell.hi);
	CHECK(!strncmp(f.cell.why, "narrow: ", 8), "why: %s", f.cell.why);
	return 0;
}

/* Five strategies: 4 comparisons under Holm, the first at 98.75%: 2/2^n
 * below 0.0125 needs 8 rounds; two strategies 6; one alone its reps. */
static int stop_ci_floor_follows_the_comparisons_of_the_cell(void)
{
	struct cell cells[3] = { { .members = 5 }, { .members = 2 }, { .members = 1 } };
	struct bench_item it = { .reps = 3, .max_reps = 10, .stop = STOP_RULE_CI };

	CHECK(least_reps(&it, cells) == 8, "five: %u", least_reps(&it, cells));
	it.cell = 1;
	CHECK(least_reps(&it, cells) == 6, "two: %u", least_reps(&it, cells));
	it.cell = 2;
	CHECK(least_reps(&it, cells) == 3 && most_reps(&it, cells) == 3, "alone");
	it.cell = 0;
	it.max_reps = 7;
	CHECK(least_reps(&it, cells) == 7, "not within max_reps");
	it.stop = STOP_RULE_RSD;
	CHECK(least_reps(&it, cells) == 3, "stop=rsd: not reps");
	return 0;
}

/* A max_reps below the floor of a stop=ci cell is refused at plan time
 * (every cell would end with no interval); stop=rsd and a cell of one
 * have no floor. */
static int stop_ci_refuses_a_max_reps_below_the_floor(void)
{
	struct pconf pc = { .section = "io", .where = "p.ini:3" };
	struct cell cells[2] = { { .members = 5 }, { .members = 1 } };
	struct bench_item it[6];

	memset(it, 0, sizeof(it));
	for (int i = 0; i < 6; i++) {
		it[i].pc = &pc;
		it[i].reps = it[i].max_reps = 3;
		it[i].stop = STOP_RULE_CI;
		it[i].cell = i == 5; /* five in cell 0, one alone in cell 1 */
	}
	CHECK(cells_check(it, 6, cells) == -EINVAL, "max_reps 3 under a floor of 8");
	for (int i = 0; i < 6; i++)
		it[i].max_reps = 8;
	CHECK(cells_check(it, 6, cells) == 0, "max_reps 8");
	for (int i = 0; i < 6; i++)
		it[i].max_reps = 3, it[i].stop = STOP_RULE_RSD;
	CHECK(cells_check(it, 6, cells) == 0, "stop=rsd");
	it[5].stop = STOP_RULE_CI;
	CHECK(cells_check(&it[5], 1, cells) == 0, "one alone: nothing to compare");
	return 0;
}

static int warmup_outlier_flags_a_slow_first_repetition(void)
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

int main(void)
{
	RUN(stop_ci_stops_a_narrow_difference_at_the_floor_and_a_tie_at_max_reps);
	RUN(stop_ci_does_not_stop_a_wide_interval_that_excludes_1);
	RUN(stop_ci_stops_a_narrow_tie_at_the_floor);
	RUN(stop_ci_floor_follows_the_comparisons_of_the_cell);
	RUN(stop_ci_refuses_a_max_reps_below_the_floor);
	RUN(warmup_outlier_flags_a_slow_first_repetition);
	return unit_failed;
}
