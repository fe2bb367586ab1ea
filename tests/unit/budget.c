// SPDX-License-Identifier: MIT
/* time_budget (src/engine/budget.c): the time left goes to the
 * open raced cells nearest a decision; a cell whose next round does not
 * fit closes for the budget, one whose projected rounds do not fit (from
 * RACE_FUTILE_FROM on) as futile; a cell under its least rounds, or
 * closed, is not asked. */
#include <string.h>

#include "engine/budget.h"
#include "unit.h"

#define K 3 /* cells */

struct fake {
	struct bench_item it[2 * K];
	double s[2 * K][1];
	unsigned r[2 * K][1];
	struct cell c[K];
};

/* Cell k: two members, `rounds` each, `secs` a repetition each, the
 * round `needed` projected to decide it. */
static void cell_init(struct fake *f, size_t k, unsigned rounds, double secs,
		      size_t needed)
{
	for (size_t j = 2 * k; j < 2 * k + 2; j++) {
		f->it[j] = (struct bench_item){ .stop = STOP_RULE_CI, .reps = 3, .max_reps = 200,
			.cell = k, .nsamples = rounds, .wall_s = secs * rounds,
			.samples = f->s[j], .rounds = f->r[j] };
	}
	f->c[k] = (struct cell){ .open = true, .members = 2, .rounds = rounds,
		.needed = needed, .dec = RACE_UNDECIDED };
}

UNIT(the_nearest_cells_get_the_time_left)
{
	struct fake f;

	memset(&f, 0, sizeof(f));
	cell_init(&f, 0, 10, 1.0, 40);  /* 30 rounds x 2 s = 60 s to go */
	cell_init(&f, 1, 10, 1.0, 12);  /* 2 rounds x 2 s = 4 s to go */
	cell_init(&f, 2, 5, 1.0, 30);   /* 50 s to go, but too early to judge */
	budget_round(f.c, K, f.it, 2 * K, 5);
	/* 5 s: cell 1's 4 s fit, its round (2 s) first; 3 s left: cell 2's
	 * next round (2 s) fits too; cell 0's 60 s do not */
	CHECK(f.c[1].open && f.c[2].open, "%s / %s", f.c[1].why, f.c[2].why);
	CHECK(!f.c[0].open && f.c[0].futile, "cell 0, 60 s to go in 1 s: %s", f.c[0].why);
	CHECK(strstr(f.c[0].why, "futile: 10 rounds, undecided; the 40 rounds projected to "
		     "decide it take 60.0 s, beyond the 1.0 s left of time_budget"), "%s", f.c[0].why);
	memset(&f, 0, sizeof(f));
	cell_init(&f, 0, 10, 1.0, 12);
	cell_init(&f, 1, 5, 1.0, 30);
	cell_init(&f, 2, 5, 1.5, 30);
	budget_round(f.c, K, f.it, 2 * K, 4.5);
	/* cell 0 (4 s to go) first: 2 s; then cell 1 (2 s); 0.5 s left:
	 * cell 2's 3 s round does not fit */
	CHECK(f.c[0].open && f.c[1].open, "%s / %s", f.c[0].why, f.c[1].why);
	CHECK(!f.c[2].open && f.c[2].budget && !f.c[2].futile, "cell 2: %s", f.c[2].why);
	CHECK(strstr(f.c[2].why, "time_budget: 5 rounds, undecided; its next round (3.0 s) "
		     "does not fit the 0.5 s left"), "%s", f.c[2].why);
	return 0;
}

UNIT(cells_before_futility_or_their_least_rounds_go_on)
{
	struct fake f;

	memset(&f, 0, sizeof(f));
	cell_init(&f, 0, 2, 1.0, 100); /* under its 3 least rounds: not asked */
	cell_init(&f, 1, 4, 1.0, 100); /* before RACE_FUTILE_FROM: not futile */
	cell_init(&f, 2, 10, 1.0, 0);  /* no deciding round in sight */
	budget_round(f.c, K, f.it, 2 * K, 100);
	CHECK(f.c[0].open, "%s", f.c[0].why);
	CHECK(f.c[1].open, "%s", f.c[1].why);
	CHECK(!f.c[2].open && f.c[2].futile &&
	      strstr(f.c[2].why, "no deciding round in sight"), "%s", f.c[2].why);
	return 0;
}

UNIT(a_closed_cell_is_not_asked)
{
	struct fake f;

	memset(&f, 0, sizeof(f));
	cell_init(&f, 0, 10, 1.0, 12);
	cell_init(&f, 1, 10, 1.0, 12);
	cell_init(&f, 2, 10, 1.0, 12);
	f.c[0].open = false;
	snprintf(f.c[0].why, sizeof(f.c[0].why), "decided");
	budget_round(f.c, K, f.it, 2 * K, 8);
	CHECK(!strcmp(f.c[0].why, "decided"), "%s", f.c[0].why);
	CHECK(f.c[1].open && f.c[2].open, "both fit in 8 s: %s / %s", f.c[1].why, f.c[2].why);
	return 0;
}
