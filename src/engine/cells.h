/* SPDX-License-Identifier: MIT */
/* The engine's cells: configurations compared with each other, their stopping rule, warm-up and stop.json. */
#ifndef IOSTRAT_ENGINE_CELLS_H
#define IOSTRAT_ENGINE_CELLS_H

#include <stdbool.h>
#include <stddef.h>

#include "bench.h"
#include "results/race.h"

/* A cell: the configurations a kind says differ only by the thing
 * compared (bench_kind.cell), stopped together under stop=ci. */
struct cell {
	char key[600];
	bool open;          /* stop=ci: another round wanted */
	size_t members;
	unsigned rounds;    /* the most timed samples of a member */
	char why[160];      /* why it stopped, or that it goes on */
	enum race_dec dec;  /* the last look's */
	double alpha;       /* each pair's share (race_pair_alpha) */
	size_t leader;      /* the leader (items; SIZE_MAX: none) */
	size_t needed;      /* the round projected to decide it (0: none in sight) */
	bool futile;        /* closed: the projection beyond max_reps or the time left */
	bool budget;        /* closed: its next round beyond the time left */
	unsigned resumed_from; /* rounds it had when resumed (0: not resumed) */
};

/* Group items into cells (it->cell set).  0 or -ENOMEM. */
int cells_plan(struct bench_item *items, size_t n, struct cell **cells,
	       size_t *ncells);
/* Look at every stop=ci cell again (race_decide on its members' samples,
 * min_effect its band): each member's comparison into it->race, the
 * behind ones out of the race (it->out); the cell closes once decided,
 * at max_reps, or futile from round RACE_FUTILE_FROM on (no deciding
 * round in sight by RACE_CAP, or one beyond max_reps).  A cell closed by
 * cell_close stays closed. */
#define RACE_FUTILE_FROM 8
void cells_update(struct cell *cells, size_t ncells,
		  struct bench_item *items, size_t n);
/* Seconds one more round of cell k takes: its members still in the race,
 * each at its measured time per repetition. */
double cell_round_s(const struct bench_item *items, size_t n, size_t k);
/* Close it for the time budget (futile: the rounds projected do not fit;
 * else: its next round does not), why as printf. */
__attribute__((format(printf, 3, 4)))
void cell_close(struct cell *c, bool futile, const char *fmt, ...);
/* The timed repetitions it will run at least: reps, or under stop=ci in
 * a cell of two or more the rounds a race's first interval needs
 * (ANYTIME_MIN_N), within max_reps. */
unsigned least_reps(const struct bench_item *it, const struct cell *cells);
/* stop=ci with a max_reps below ANYTIME_MIN_N in a cell of two or more:
 * "FILE:LINE: [SECTION]: stop=ci: max_reps ...", -EINVAL; else 0. */
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
