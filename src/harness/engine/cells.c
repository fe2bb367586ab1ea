// SPDX-License-Identifier: MIT
/*
 * The engine's cells and stop=ci: a cell's leading comparison (its
 * fastest configuration by median against the runner-up, paired by
 * round, paired_ratio_ci at Holm's first level over the cell's m
 * comparisons, 1 - 0.05 / m, the verdict's strictest) decides whether the
 * cell wants another round -- by the interval's width only: the cell stops
 * once the half-width is within target_ci, or at max_reps, never because
 * the interval excludes 1 (stopping on significance and then reporting
 * the interval at its nominal level would inflate the false-winner rate;
 * docs/verdict.md).  Why each cell stopped goes to stop.json.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "results/anytime.h"
#include "results/paired.h"
#include "results/stats_math.h"
#include "lib/util.h"
#include "cells.h"

static void cell_key(const struct bench_item *it, char *key, size_t len)
{
	const struct bench_kind *k = it->pc->kind;
	char own[512];

	if (k->cell)
		k->cell(it, own, sizeof(own));
	else
		snprintf(own, sizeof(own), "%s", it->id);
	snprintf(key, len, "%s:%s", k->name, own);
}

int cells_plan(struct bench_item *items, size_t n, struct cell **cells,
	       size_t *ncells)
{
	struct cell *c = calloc(n ? n : 1, sizeof(*c));
	char key[600];
	size_t nc = 0, j;

	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		cell_key(&items[i], key, sizeof(key));
		for (j = 0; j < nc && strcmp(c[j].key, key); j++)
			;
		if (j == nc) {
			snprintf(c[nc].key, sizeof(c[nc].key), "%s", key);
			c[nc].open = true;
			nc++;
		}
		items[i].cell = j;
		c[j].members++;
	}
	*cells = c;
	*ncells = nc;
	return 0;
}

/* The fewest pairs whose exact signed-rank test can reach p < 1 - level:
 * its smallest two-sided p is 2 / 2^n. */
static unsigned signed_rank_floor(double level)
{
	unsigned n = 1;

	while (ldexp(2.0, -(int)n) >= 1 - level)
		n++;
	return n;
}

/* The verdict tests the fastest against each of the m others under Holm,
 * the first at 1 - 0.05 / m: the level a cell of `members` decides at. */
static double cell_level(size_t members)
{
	return members > 1 ? holm_level(0.95, members - 1, 0) : 0.95;
}

/* No interval, so no winner, before that level can be reached (8 rounds
 * for five strategies, 6 for two); 0 for one alone (nothing to compare). */
static unsigned cell_floor(size_t members)
{
	return members > 1 ? signed_rank_floor(cell_level(members)) : 0;
}

unsigned least_reps(const struct bench_item *it, const struct cell *cells)
{
	unsigned n = it->reps;

	if (it->stop == STOP_RULE_CI && it->race && cells[it->cell].members > 1)
		n = MAX(n, MIN(ANYTIME_MIN_N, it->max_reps));
	else if (it->stop == STOP_RULE_CI)
		n = MAX(n, MIN(cell_floor(cells[it->cell].members), it->max_reps));
	return n;
}

static bool same_section(const struct pconf *a, const struct pconf *b)
{
	return a == b || (!strcmp(a->where, b->where) && !strcmp(a->section, b->section));
}

int cells_check(const struct bench_item *items, size_t n, const struct cell *cells)
{
	for (size_t i = 0; i < n; i++) {
		const struct bench_item *it = &items[i];
		size_t most = cells[it->cell].members;

		if (it->stop != STOP_RULE_CI || it->race || it->max_reps >= cell_floor(most))
			continue;
		for (size_t j = i + 1; j < n; j++) /* the section's largest cell */
			if (items[j].stop == STOP_RULE_CI && same_section(items[j].pc, it->pc))
				most = MAX(most, cells[items[j].cell].members);
		errorf("%s: [%s]: stop=ci: max_reps %u is below the %u rounds a cell of "
		       "%zu strategies needs for an interval (set max_reps=%u or more)",
		       it->pc->where, it->pc->section, it->max_reps, cell_floor(most),
		       most, cell_floor(most));
		return -EINVAL;
	}
	return 0;
}

unsigned most_reps(const struct bench_item *it, const struct cell *cells)
{
	if (it->stop == STOP_RULE_CI && cells[it->cell].members < 2)
		return it->reps;
	return it->max_reps;
}

static double median_of(const struct bench_item *it)
{
	struct summary s;

	summarize(it->samples, it->nsamples, &s);
	return s.median;
}

/* The two members with the lowest medians, among those with samples. */
static size_t leaders(const struct bench_item *items, size_t n, size_t cell,
		      size_t lead[2])
{
	double best[2] = { INFINITY, INFINITY };
	size_t found = 0;

	for (size_t i = 0; i < n; i++) {
		double m;

		if (items[i].cell != cell || !items[i].nsamples || items[i].fails)
			continue;
		found++;
		m = median_of(&items[i]);
		if (m < best[0]) {
			best[1] = best[0], lead[1] = lead[0];
			best[0] = m, lead[0] = i;
		} else if (m < best[1]) {
			best[1] = m, lead[1] = i;
		}
	}
	return found;
}

/* a's and b's samples of the rounds both ran in, in xa/xb: how many. */
static size_t pair_rounds(const struct bench_item *a, const struct bench_item *b,
			  double *xa, double *xb)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nsamples; i++)
		for (size_t j = 0; j < b->nsamples; j++)
			if (a->rounds[i] == b->rounds[j]) {
				xa[n] = a->samples[i];
				xb[n++] = b->samples[j];
				break;
			}
	return n;
}

/* The leading comparison's interval: 0, or -EDOM (too few rounds). */
static int compare_leaders(struct cell *c, const struct bench_item *items)
{
	const struct bench_item *a = &items[c->lead[0]], *b = &items[c->lead[1]];
	size_t most = MAX(a->nsamples, b->nsamples) + 1;
	double *xa = calloc(most, sizeof(double)), *xb = calloc(most, sizeof(double));
	struct ratio_ci ci = { 0 };
	int ret = -ENOMEM;

	if (xa && xb)
		ret = paired_ratio_ci(xa, xb, pair_rounds(a, b, xa, xb),
				      cell_level(c->members), &ci);
	free(xa);
	free(xb);
	c->compared = ret == 0;
	c->ratio = ci.ratio, c->lo = ci.lo, c->hi = ci.hi;
	return ret;
}

static bool all_capped(const struct bench_item *items, size_t n, size_t cell)
{
	for (size_t i = 0; i < n; i++)
		if (items[i].cell == cell && !items[i].fails && !items[i].out &&
		    items[i].nsamples < items[i].max_reps)
			return false;
	return true;
}

static void decide(struct cell *c, size_t cell, const struct bench_item *items,
		   size_t n, double target)
{
	double half;
	int ret;

	c->compared = false;
	if (leaders(items, n, cell, c->lead) < 2) {
		c->open = false;
		snprintf(c->why, sizeof(c->why), "nothing to compare");
		return;
	}
	ret = compare_leaders(c, items);
	/* Precision, not significance: where the interval lies never stops
	 * the cell, only how wide it is against its own estimate (+-3% of
	 * 4.00x is 3.88-4.12). */
	half = ret ? NAN : (c->hi - c->lo) / 2 / c->ratio * 100;
	if (!ret && half <= target) {
		c->open = false;
		snprintf(c->why, sizeof(c->why), "narrow: +-%.2f%% within target_ci %g%% "
			 "after %u rounds", half, target, c->rounds);
		return;
	}
	c->open = !all_capped(items, n, cell);
	if (c->open && ret)
		snprintf(c->why, sizeof(c->why), "open: no interval yet after %u rounds",
			 c->rounds);
	else if (c->open)
		snprintf(c->why, sizeof(c->why), "wide: +-%.2f%% after %u rounds, above "
			 "target_ci %g%%", half, c->rounds, target);
	else if (ret)
		snprintf(c->why, sizeof(c->why), "max_reps: %u rounds, too few paired "
			 "for an interval", c->rounds);
	else
		snprintf(c->why, sizeof(c->why), "max_reps: %u rounds, +-%.2f%% still "
			 "wider than target_ci %g%%", c->rounds, half, target);
}

double race_alpha(size_t members)
{
	return members > 1 ? RACE_ALPHA / (double)(members - 1) : RACE_ALPHA;
}

/* The leader: the lowest median among those still in the race. */
static size_t race_leader(const struct bench_item *items, size_t n, size_t cell,
			  size_t *in)
{
	double best = INFINITY;
	size_t lead = SIZE_MAX;

	*in = 0;
	for (size_t i = 0; i < n; i++) {
		if (items[i].cell != cell || !items[i].nsamples || items[i].fails ||
		    items[i].out)
			continue;
		++*in;
		if (median_of(&items[i]) < best)
			best = median_of(&items[i]), lead = i;
	}
	return lead;
}

/* b against the leader a: the look's anytime interval (b over a), and the
 * log ratios' robust center and spread for the projection.  0, -EDOM,
 * -ENOMEM. */
static int race_compare(const struct bench_item *a, const struct bench_item *b,
			double alpha, struct ratio_ci *ci, double *mean, double *sd)
{
	size_t most = MAX(a->nsamples, b->nsamples) + 1, np;
	double *xa = calloc(most, sizeof(double)), *xb = calloc(most, sizeof(double));
	int ret = -ENOMEM;

	*ci = (struct ratio_ci){ .ratio = NAN, .lo = NAN, .hi = NAN };
	*mean = *sd = NAN;
	if (xa && xb) {
		np = pair_rounds(a, b, xa, xb);
		ret = anytime_ratio_ci(xa, xb, np, alpha, ci);
		if (ret != -EINVAL)
			log_ratio_robust(xa, xb, np, mean, sd);
	}
	free(xa);
	free(xb);
	return ret;
}

/* One look at the cell's comparisons: who leaves (behind), how many are
 * still open, and the most rounds the open ones are projected to need
 * (SIZE_MAX: one of them none in sight within RACE_CAP). */
#define RACE_CAP 10000
static size_t race_look(struct cell *c, size_t cell, struct bench_item *items,
			size_t n, size_t *needed)
{
	struct bench_item *a = &items[c->leader];
	double alpha = race_alpha(c->members), band = a->min_effect / 100, mean, sd;
	size_t open = 0;

	*needed = 0;
	for (size_t i = 0; i < n; i++) {
		struct bench_item *b = &items[i];
		struct ratio_ci ci;
		int rc;
		size_t need;

		if (b->cell != cell || i == c->leader || !b->nsamples || b->fails || b->out)
			continue;
		rc = race_compare(a, b, alpha, &ci, &mean, &sd);
		switch (anytime_decide(rc, &ci, band)) {
		case AT_BEHIND:
			b->out = true, b->out_round = c->rounds, b->out_leader = c->leader;
			b->out_ratio = ci.ratio, b->out_lo = ci.lo, b->out_hi = ci.hi;
			continue;
		case AT_EQUAL:
			continue;
		default:
			open++;
		}
		need = anytime_rounds_needed(mean, sd, alpha, band, ci.n + 1, RACE_CAP);
		*needed = need ? MAX(*needed, need) : SIZE_MAX;
	}
	return open;
}

static unsigned cell_max_reps(const struct bench_item *items, size_t n, size_t cell)
{
	unsigned most = 0;

	for (size_t i = 0; i < n; i++)
		if (items[i].cell == cell)
			most = MAX(most, items[i].max_reps);
	return most;
}

/* The cell after a round, racing (cells.h). */
static void race(struct cell *c, size_t cell, struct bench_item *items, size_t n)
{
	size_t in, open, need;
	unsigned cap = cell_max_reps(items, n, cell);

	c->compared = c->decided = c->futile = false;
	c->leader = race_leader(items, n, cell, &in);
	open = c->leader == SIZE_MAX ? 0 : race_look(c, cell, items, n, &need);
	c->needed = open && need != SIZE_MAX ? need : 0;
	if (c->leader == SIZE_MAX || c->members < 2) {
		c->open = false;
		snprintf(c->why, sizeof(c->why), "nothing to compare");
		return;
	}
	if (!open) {
		c->open = false;
		c->decided = true;
		snprintf(c->why, sizeof(c->why), "decided: after %u rounds, %s", c->rounds,
			 race_leader(items, n, cell, &in) != SIZE_MAX && in > 1 ?
			 "the rest equal within min_effect or behind" : "the rest behind");
		return;
	}
	c->open = !all_capped(items, n, cell);
	if (c->open && c->rounds >= RACE_FUTILE_FROM && (!c->needed || c->needed > cap)) {
		c->open = false;
		c->futile = true;
	}
	if (c->futile || !c->open)
		snprintf(c->why, sizeof(c->why), "%s: %u rounds, undecided; %s",
			 c->futile ? "futile" : "max_reps", c->rounds, c->needed ?
			 "projected rounds to decide beyond max_reps" :
			 "no decision in sight at this spread");
	else
		snprintf(c->why, sizeof(c->why), "open: %zu comparisons undecided after "
			 "%u rounds", open, c->rounds);
}

void cells_update(struct cell *cells, size_t ncells,
		  struct bench_item *items, size_t n)
{
	for (size_t k = 0; k < ncells; k++) {
		const struct bench_item *first = NULL;

		cells[k].rounds = 0;
		for (size_t i = 0; i < n; i++)
			if (items[i].cell == k) {
				first = first ? first : &items[i];
				cells[k].rounds = MAX(cells[k].rounds,
						      (unsigned)items[i].nsamples);
			}
		if (first && first->stop == STOP_RULE_CI && first->race)
			race(&cells[k], k, items, n);
		else if (first && first->stop == STOP_RULE_CI)
			decide(&cells[k], k, items, n, first->target_ci);
	}
}

/* Seconds the rounds still projected would take: the members still in
 * the race at their own measured time per repetition. */
static double projected_s(const struct cell *c, const struct bench_item *items,
			  size_t n, size_t k)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		if (items[i].cell == k && !items[i].out && items[i].nsamples &&
		    c->needed > items[i].nsamples)
			s += items[i].wall_s / (double)items[i].nsamples *
			     (double)(c->needed - items[i].nsamples);
	return s;
}

/* A strategy that left the race: when, behind whom, by how much. */
static json_t *left_json(const struct bench_item *it, const struct bench_item *items)
{
	json_t *o = json_object();

	json_object_set_new(o, "config", json_text(it->id));
	json_object_set_new(o, "round", json_integer(it->out_round));
	json_object_set_new(o, "behind", json_text(items[it->out_leader].id));
	json_object_set_new(o, "ratio", json_real(it->out_ratio));
	json_object_set_new(o, "lo", json_real(it->out_lo));
	json_object_set_new(o, "hi", json_real(it->out_hi));
	return o;
}

/* The race's fields of a cell: its decision, who left, the projection
 * and the command that would decide it. */
static json_t *race_json(json_t *o, const struct cell *c,
			 const struct bench_item *items, size_t n, size_t k,
			 const char *dir)
{
	const struct bench_item *lead = c->leader < n ? &items[c->leader] : NULL;
	json_t *left = json_array();
	char cmd[4400];

	json_object_set_new(o, "rule", json_text("race"));
	json_object_set_new(o, "decision", json_text(c->decided ? "decided" :
						      c->futile ? "futile" : "undecided"));
	json_object_set_new(o, "alpha", json_real(race_alpha(c->members)));
	json_object_set_new(o, "min_effect", json_real(lead ? lead->min_effect : NAN));
	if (lead)
		json_object_set_new(o, "leader", json_text(lead->id));
	for (size_t i = 0; i < n; i++)
		if (items[i].cell == k && items[i].out)
			json_array_append_new(left, left_json(&items[i], items));
	json_object_set_new(o, "left", left);
	if (c->resumed_from)
		json_object_set_new(o, "resumed_from", json_integer(c->resumed_from));
	if (c->decided)
		return o;
	json_object_set_new(o, "rounds_needed", c->needed ? json_integer((json_int_t)c->needed) :
			    json_null());
	if (c->needed && lead && lead->wall_s > 0 && lead->nsamples)
		json_object_set_new(o, "minutes_needed",
				    json_real(projected_s(c, items, n, k) / 60));
	if (c->needed) {
		snprintf(cmd, sizeof(cmd), "iostrat bench --resume %s -D max_reps=%zu",
			 dir, c->needed);
		json_object_set_new(o, "next", json_text(cmd));
	}
	return o;
}

static json_t *cell_json(const struct cell *c, const struct bench_item *items,
			 size_t n, size_t k, const char *dir)
{
	json_t *o = json_object(), *ids = json_array();
	const struct bench_item *first = NULL;

	for (size_t i = 0; i < n; i++)
		if (items[i].cell == k) {
			first = first ? first : &items[i];
			json_array_append_new(ids, json_text(items[i].id));
		}
	json_object_set_new(o, "cell", json_text(c->key));
	json_object_set_new(o, "stop", json_text(first && first->stop == STOP_RULE_CI ?
						 "ci" : "rsd"));
	json_object_set_new(o, "rounds", json_integer(c->rounds));
	json_object_set_new(o, "configs", ids);
	if (!first || first->stop != STOP_RULE_CI)
		return o;
	json_object_set_new(o, "why", json_text(c->why));
	if (first->race)
		return race_json(o, c, items, n, k, dir);
	json_object_set_new(o, "level", json_real(cell_level(c->members)));
	json_object_set_new(o, "target_ci", json_real(first->target_ci));
	if (!c->compared)
		return o;
	json_object_set_new(o, "fastest", json_text(items[c->lead[0]].id));
	json_object_set_new(o, "runner_up", json_text(items[c->lead[1]].id));
	json_object_set_new(o, "ratio", json_real(c->ratio));
	json_object_set_new(o, "lo", json_real(c->lo));
	json_object_set_new(o, "hi", json_real(c->hi));
	return o;
}

int cells_write(const char *dir, const struct cell *cells, size_t ncells,
		const struct bench_item *items, size_t n)
{
	json_t *all = json_array();
	char path[4200], *s;
	int ret;

	for (size_t k = 0; k < ncells; k++)
		json_array_append_new(all, cell_json(&cells[k], items, n, k, dir));
	s = json_dumps(all, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	json_decref(all);
	if (!s)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/stop.json", dir);
	ret = write_file_atomic(path, s, strlen(s));
	free(s);
	return ret ? error_errno(ret, path, "writing") : 0;
}

int warmup_outlier(const struct bench_item *it)
{
	if (it->nsamples < 3 || it->rounds[0] != 1)
		return -1;
	return fabs(modified_z(it->samples, it->nsamples, 0)) > 3.5;
}
