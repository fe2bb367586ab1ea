/* SPDX-License-Identifier: MIT */
/* The engine's cells: configurations compared with each other, their stopping rule, warm-up and stop.json. */
#ifndef IOSTRAT_ENGINE_CELLS_H
#define IOSTRAT_ENGINE_CELLS_H

#include <stdbool.h>
#include <stddef.h>

#include "bench.h"

/* A cell: the configurations a kind says differ only by the thing
 * compared (bench_kind.cell), stopped together under stop=ci. */
struct cell {
	char key[600];
	bool open;          /* stop=ci: another round wanted */
	size_t members;
	unsigned rounds;    /* the most timed samples of a member */
	char why[160];      /* why it stopped (narrow, max_reps), or goes on (open, wide) */
	size_t lead[2];     /* fastest and runner-up by median (items) */
	bool compared;      /* lead[] and the interval are set */
	double ratio, lo, hi; /* runner-up over fastest, paired by round */
	/* race=1 (racing): */
	bool decided;       /* every comparison behind or equal within min_effect */
	bool futile;        /* the projection is beyond max_reps or the budget */
	size_t leader;      /* the leader now (items) */
	size_t needed;      /* rounds projected to decide it (0: none in sight) */
	unsigned resumed_from; /* rounds it had when resumed (0: not resumed) */
};

/* Group items into cells (it->cell set).  0 or -ENOMEM. */
int cells_plan(struct bench_item *items, size_t n, struct cell **cells,
	       size_t *ncells);
/* Decide every stop=ci cell again from its members' samples: it stops once
 * its leading interval's half-width is within target_ci percent (why
 * "narrow: ..."), or when every member has max_reps ("max_reps: ..."); never
 * because the interval excludes 1. */
void cells_update(struct cell *cells, size_t ncells,
		  struct bench_item *items, size_t n);
/* race=1: the comparisons are against the leader (lowest median among
 * those still in the race) by anytime_ratio_ci at 0.05 / m (Bonferroni
 * over the cell's m = members - 1 comparisons); one whose interval lies
 * above 1 leaves the race (it->out); the cell closes once every one
 * left is equal within min_effect ("decided"), or when the rounds
 * projected to decide it (anytime_rounds_needed, from round
 * RACE_FUTILE_FROM on) exceed max_reps ("futile"), or at max_reps. */
#define RACE_ALPHA 0.05
#define RACE_FUTILE_FROM 5
/* The budget a comparison of a cell of `members` gets: 0.05 / m. */
double race_alpha(size_t members);
/* The timed repetitions it will run at least: reps, or under stop=ci in
 * a cell of m + 1 configurations the rounds an exact signed-rank test at
 * Holm's first level, 1 - 0.05 / m, needs (6 for m = 1, 8 for m = 4),
 * within max_reps. */
unsigned least_reps(const struct bench_item *it, const struct cell *cells);
/* stop=ci with a max_reps below the rounds a cell's interval needs (every
 * such cell would end without one): print "FILE:LINE: [SECTION]: stop=ci:
 * max_reps ..." naming the section's largest cell, -EINVAL; else 0. */
int cells_check(const struct bench_item *items, size_t n, const struct cell *cells);
/* And at most: max_reps, or reps for one alone in its cell under stop=ci
 * (nothing to compare). */
unsigned most_reps(const struct bench_item *it, const struct cell *cells);
/* DIR/stop.json: why each cell stopped.  0 or -errno (printed). */
int cells_write(const char *dir, const struct cell *cells, size_t ncells,
		const struct bench_item *items, size_t n);
/* Is its first timed sample a warm-up outlier (|modified z| > 3.5
 * against the others)?  -1 while it has fewer than 3 samples. */
int warmup_outlier(const struct bench_item *it);

#endif
