/* SPDX-License-Identifier: MIT */
/* One look at a cell's race: who is behind whom, the leader, the decision and the rounds it would take. */
#ifndef IOSTRAT_RESULTS_RACE_H
#define IOSTRAT_RESULTS_RACE_H

#include <stdbool.h>
#include <stddef.h>

#include "results/paired.h"

/*
 * The rule of stop=ci and of the verdict alike (docs/verdict.md,
 * "Racing"), so the engine stops a cell on exactly what the report says.
 * Every ordered pair (i, j) of the cell's k strategies has its confidence
 * sequence for the ratio i over j, paired by round (anytime_ratio_ci), at
 * RACE_ALPHA / (k (k - 1) / 2): a union bound over all the pairs, so that
 * every interval of every look holds together with probability
 * 1 - RACE_ALPHA however the leader changes, however many rounds a resume
 * adds.  Then:
 *   i is behind   when some j's interval of i over j lies above 1;
 *   the leader    is the lowest median of those not behind;
 *   i is equal    when not behind and its interval over the leader lies
 *                 within 1/(1+d) .. 1+d (d: min_effect);
 *   the cell is   "winner" when all but the leader are behind, "equal"
 *                 when every one not behind is equal to the leader, else
 *                 "open".
 * A look is the same function of the rows whenever it is taken: the
 * engine after each round, the report at the end.
 */
#define RACE_ALPHA 0.05
/* min_effect's default, percent: the band of "equal within" (engine_settings,
 * and the report's for rows without stop.json). */
#define RACE_MIN_EFFECT 5
#define RACE_MIN_EFFECT_DEF "5"
/* The furthest round a projection looks (beyond it: none in sight). */
#define RACE_CAP 10000

/* One strategy's timed samples and the round of each (rounds ascending
 * or not; a round's first sample counts). */
struct race_arm {
	const double *x;
	const unsigned *round;
	size_t n;
};

enum race_state { RACE_LEADS, RACE_OPEN, RACE_EQUAL, RACE_BEHIND };
enum race_dec { RACE_NOTHING, RACE_UNDECIDED, RACE_WINNER, RACE_TIED };

struct race_cmp {
	enum race_state st;
	size_t vs;          /* behind: the one it is behind; else the leader */
	struct ratio_ci ci; /* its interval over vs (ci.n: the pairs) */
	int rc;             /* anytime_ratio_ci's */
	size_t needed;      /* open: the look projected to decide it (0: none by cap) */
};

struct race_look {
	size_t leader;      /* SIZE_MAX: no arm has samples */
	enum race_dec dec;
	size_t needed;      /* the most of the open ones' (0: none in sight by cap) */
	bool hopeless;      /* an open one has no deciding look by cap */
	double alpha;       /* each pair's budget */
};

/* Each pair's share of RACE_ALPHA in a cell of k strategies. */
double race_pair_alpha(size_t k);
/* The look: cmp[k] per arm (arms with no samples: RACE_OPEN, ci NaN);
 * band as a fraction (min_effect / 100); cap: the last round a projection
 * may name.  0 or -ENOMEM. */
int race_decide(const struct race_arm *arms, size_t k, double band, size_t cap,
		struct race_look *look, struct race_cmp *cmp);
const char *race_dec_name(enum race_dec d);
const char *race_state_name(enum race_state s);

#endif
