// SPDX-License-Identifier: MIT
/* One look at a cell's race (race.h): every pair's confidence sequence, the leader, the decision, the projection. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "results/anytime.h"
#include "results/race.h"
#include "results/stats_math.h"

double race_pair_alpha(size_t k)
{
	return k > 1 ? RACE_ALPHA / ((double)k * (double)(k - 1) / 2) : RACE_ALPHA;
}

const char *race_dec_name(enum race_dec d)
{
	static const char *const names[] = { "nothing", "undecided", "winner", "equal" };

	return names[d];
}

const char *race_state_name(enum race_state s)
{
	static const char *const names[] = { "leads", "undecided", "equal", "behind" };

	return names[s];
}

/* a's and b's samples of the rounds both ran in, into xa, xb: how many. */
static size_t pair_up(const struct race_arm *a, const struct race_arm *b,
		      double *xa, double *xb)
{
	size_t n = 0;

	for (size_t i = 0; i < a->n; i++) {
		bool seen = false;

		for (size_t p = 0; p < i && !seen; p++)
			seen = a->round[p] == a->round[i];
		for (size_t j = 0; j < b->n && !seen; j++)
			if (b->round[j] == a->round[i]) {
				xa[n] = a->x[i];
				xb[n++] = b->x[j];
				break;
			}
	}
	return n;
}

/* i over j: the interval, and the look that would decide it. */
static int compare(const struct race_arm *i, const struct race_arm *j,
		   double alpha, double band, size_t cap, struct race_cmp *c)
{
	size_t most = (i->n < j->n ? i->n : j->n) + 1, n;
	double *xi = calloc(most, sizeof(double)), *xj = calloc(most, sizeof(double));
	struct at_proj proj;

	if (!xi || !xj) {
		free(xi);
		free(xj);
		return -ENOMEM;
	}
	n = pair_up(j, i, xj, xi);
	c->rc = anytime_ratio_ci(xj, xi, n, alpha, &c->ci);
	c->needed = 0;
	if (cap && n && !anytime_projection(xj, xi, n, &proj))
		c->needed = anytime_rounds_needed(&proj, alpha, band, n + 1, cap);
	free(xi);
	free(xj);
	return 0;
}

/* cmp[i].st = RACE_BEHIND where some j's interval says so (vs: the
 * fastest such j, by med[], the arms' medians). */
static int mark_behind(const struct race_arm *arms, size_t k, double alpha,
		       const double *med, struct race_cmp *cmp)
{
	for (size_t i = 0; i < k; i++) {
		cmp[i] = (struct race_cmp){ .st = RACE_OPEN, .vs = SIZE_MAX,
			.ci = { .ratio = NAN, .lo = NAN, .hi = NAN }, .rc = -EDOM };
		for (size_t j = 0; j < k && arms[i].n; j++) {
			struct race_cmp c;

			if (j == i || !arms[j].n)
				continue;
			if (compare(&arms[i], &arms[j], alpha, 0, 0, &c))
				return -ENOMEM;
			if (!c.rc && c.ci.lo > 1 && (cmp[i].st != RACE_BEHIND ||
			    med[j] < med[cmp[i].vs]))
				cmp[i] = (struct race_cmp){ .st = RACE_BEHIND, .vs = j,
					.ci = c.ci, .rc = 0 };
		}
	}
	return 0;
}

static size_t leader_of(const struct race_arm *arms, size_t k, const double *med,
			const struct race_cmp *cmp)
{
	size_t lead = SIZE_MAX;

	for (size_t i = 0; i < k; i++)
		if (arms[i].n && cmp[i].st != RACE_BEHIND &&
		    (lead == SIZE_MAX || med[i] < med[lead]))
			lead = i;
	return lead;
}

/* The ones not behind against the leader: equal or open; the cell's. */
static int against_leader(const struct race_arm *arms, size_t k, double band,
			  size_t cap, struct race_look *look, struct race_cmp *cmp)
{
	size_t open = 0, in = 0, behind = 0;

	for (size_t i = 0; i < k; i++) {
		behind += arms[i].n && cmp[i].st == RACE_BEHIND;
		if (i == look->leader || !arms[i].n || cmp[i].st == RACE_BEHIND)
			continue;
		in++;
		if (compare(&arms[i], &arms[look->leader], look->alpha, band, cap, &cmp[i]))
			return -ENOMEM;
		cmp[i].vs = look->leader;
		cmp[i].st = anytime_decide(cmp[i].rc, &cmp[i].ci, band) == AT_EQUAL ?
			    RACE_EQUAL : RACE_OPEN;
		if (cmp[i].st != RACE_OPEN)
			continue;
		open++;
		look->hopeless |= !cmp[i].needed;
		look->needed = cmp[i].needed > look->needed ? cmp[i].needed : look->needed;
	}
	look->dec = !in ? (behind ? RACE_WINNER : RACE_NOTHING) :
		    open ? RACE_UNDECIDED : RACE_TIED;
	return 0;
}

/* The arms' medians into med (NaN for one without samples). */
static void medians(const struct race_arm *arms, size_t k, double *med)
{
	for (size_t i = 0; i < k; i++) {
		struct summary sm;

		summarize(arms[i].x, arms[i].n, &sm);
		med[i] = arms[i].n ? sm.median : NAN;
	}
}

int race_decide(const struct race_arm *arms, size_t k, double band, size_t cap,
		struct race_look *look, struct race_cmp *cmp)
{
	double *med = calloc(k ? k : 1, sizeof(*med));
	int ret = 0;

	*look = (struct race_look){ .leader = SIZE_MAX, .dec = RACE_NOTHING,
		.alpha = race_pair_alpha(k) };
	if (!med)
		return -ENOMEM;
	medians(arms, k, med);
	if (mark_behind(arms, k, look->alpha, med, cmp))
		ret = -ENOMEM;
	else
		look->leader = leader_of(arms, k, med, cmp);
	free(med);
	if (ret || look->leader == SIZE_MAX)
		return ret;
	cmp[look->leader].st = RACE_LEADS;
	cmp[look->leader].vs = look->leader;
	if (k < 2)
		return 0;
	return against_leader(arms, k, band, cap, look, cmp);
}
