// SPDX-License-Identifier: MIT
/*
 * The engine's cells and stop=ci: after every round each cell takes one
 * look at its race (results/race.h, the verdict's own rule): a member
 * some other is shown faster than leaves the race; the cell closes once
 * decided (a winner, or the rest equal within min_effect), futile (the
 * rounds projected to decide it beyond max_reps, or, engine.c, beyond the
 * time left), or at max_reps.  Why each cell stopped goes to stop.json.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "results/anytime.h"
#include "results/race.h"
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

unsigned least_reps(const struct bench_item *it, const struct cell *cells)
{
	unsigned n = it->reps;

	if (it->stop == STOP_RULE_CI && cells[it->cell].members > 1)
		n = MAX(n, MIN(ANYTIME_MIN_N, it->max_reps));
	return n;
}

int cells_check(const struct bench_item *items, size_t n, const struct cell *cells)
{
	for (size_t i = 0; i < n; i++) {
		const struct bench_item *it = &items[i];

		if (it->stop != STOP_RULE_CI || cells[it->cell].members < 2 ||
		    it->max_reps >= ANYTIME_MIN_N)
			continue;
		errorf("%s: [%s]: stop=ci: max_reps %u is below the %u rounds a race's "
		       "first interval needs (set max_reps=%u or more)", it->pc->where,
		       it->pc->section, it->max_reps, ANYTIME_MIN_N, ANYTIME_MIN_N);
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

static bool all_capped(const struct bench_item *items, size_t n, size_t cell)
{
	for (size_t i = 0; i < n; i++)
		if (items[i].cell == cell && !items[i].fails && !items[i].out &&
		    items[i].nsamples < items[i].max_reps)
			return false;
	return true;
}

/* The cell's members as race arms, in items order (a failed one with no
 * samples: it stays one of the k the budget is shared by); ix: their
 * items.  How many. */
static size_t cell_arms(const struct bench_item *items, size_t n, size_t cell,
			struct race_arm *arms, size_t *ix)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (items[i].cell == cell) {
			arms[k] = (struct race_arm){ .x = items[i].samples,
				.round = items[i].rounds,
				.n = items[i].fails ? 0 : items[i].nsamples };
			ix[k++] = i;
		}
	return k;
}

/* The look's verdict into the items (out, their comparison) and the cell. */
static void take_look(struct cell *c, struct bench_item *items, const size_t *ix,
		      size_t k, const struct race_look *look, const struct race_cmp *cmp)
{
	for (size_t j = 0; j < k; j++) {
		struct bench_item *it = &items[ix[j]];

		it->race = cmp[j];
		it->race_vs = cmp[j].vs < k ? ix[cmp[j].vs] : SIZE_MAX;
		if (cmp[j].st == RACE_BEHIND && !it->out)
			it->out_round = (unsigned)it->nsamples;
		it->out = cmp[j].st == RACE_BEHIND;
	}
	c->leader = look->leader < k ? ix[look->leader] : SIZE_MAX;
	c->dec = look->dec;
	c->alpha = look->alpha;
	c->needed = look->hopeless ? 0 : look->needed;
}

static unsigned cell_max_reps(const struct bench_item *items, size_t n, size_t cell)
{
	unsigned most = 0;

	for (size_t i = 0; i < n; i++)
		if (items[i].cell == cell)
			most = MAX(most, items[i].max_reps);
	return most;
}

/* Open, or closed and why, after the look. */
static void close_or_go(struct cell *c, size_t cell, const struct bench_item *items,
			size_t n)
{
	unsigned cap = cell_max_reps(items, n, cell);

	c->open = false;
	if (c->dec == RACE_NOTHING)
		snprintf(c->why, sizeof(c->why), "nothing to compare");
	else if (c->dec != RACE_UNDECIDED)
		snprintf(c->why, sizeof(c->why), "decided after %u rounds: %s", c->rounds,
			 c->dec == RACE_WINNER ? "the rest behind" :
			 "the rest behind or equal within min_effect");
	else if (all_capped(items, n, cell))
		snprintf(c->why, sizeof(c->why), "max_reps: %u rounds, undecided", c->rounds);
	else if (c->rounds >= RACE_FUTILE_FROM && (!c->needed || c->needed > cap))
		c->futile = true;
	else
		c->open = true;
	if (c->futile)
		snprintf(c->why, sizeof(c->why), "futile: %u rounds, undecided; %s",
			 c->rounds, c->needed ? "the rounds projected to decide it are "
			 "beyond max_reps" : "no deciding round in sight at this spread");
	else if (c->open)
		snprintf(c->why, sizeof(c->why), "open: undecided after %u rounds", c->rounds);
}

/* One look at a stop=ci cell (cells.h). */
static void race(struct cell *c, size_t cell, struct bench_item *items, size_t n)
{
	struct race_arm *arms = calloc(c->members, sizeof(*arms));
	struct race_cmp *cmp = calloc(c->members, sizeof(*cmp));
	size_t *ix = calloc(c->members, sizeof(*ix)), k;
	struct race_look look;

	if (!arms || !cmp || !ix)
		abort();
	k = cell_arms(items, n, cell, arms, ix);
	if (race_decide(arms, k, items[ix[0]].min_effect / 100, RACE_CAP, &look, cmp))
		abort();
	take_look(c, items, ix, k, &look, cmp);
	if (!c->budget && !c->futile)
		close_or_go(c, cell, items, n);
	free(arms);
	free(cmp);
	free(ix);
}

void cells_update(struct cell *cells, size_t ncells,
		  struct bench_item *items, size_t n)
{
	for (size_t k = 0; k < ncells; k++) {
		const struct bench_item *first = NULL;

		for (size_t i = 0; i < n; i++)
			if (items[i].cell == k) {
				first = first ? first : &items[i];
				cells[k].rounds = MAX(cells[k].rounds,
						      (unsigned)items[i].nsamples);
			}
		if (first && first->stop == STOP_RULE_CI)
			race(&cells[k], k, items, n);
	}
}

double cell_round_s(const struct bench_item *items, size_t n, size_t k)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		if (items[i].cell == k && !items[i].out && !items[i].fails &&
		    items[i].nsamples)
			s += items[i].wall_s / (double)items[i].nsamples;
	return s;
}

void cell_close(struct cell *c, bool futile, const char *fmt, ...)
{
	va_list ap;

	c->open = false;
	c->futile = futile;
	c->budget = !futile;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
}

/* Seconds the rounds still projected would take: the members still in
 * the race at their own measured time per repetition. */
static double projected_s(const struct cell *c, const struct bench_item *items,
			  size_t n, size_t k)
{
	return c->needed > c->rounds ?
	       cell_round_s(items, n, k) * (double)(c->needed - c->rounds) : 0;
}

/* A member's last comparison: against whom, the interval, its state. */
static json_t *member_json(const struct bench_item *it, const struct bench_item *items)
{
	json_t *o = json_object();

	json_object_set_new(o, "config", json_text(it->id));
	json_object_set_new(o, "state", json_text(race_state_name(it->race.st)));
	json_object_set_new(o, "rounds", json_integer((json_int_t)it->nsamples));
	if (it->race.st == RACE_LEADS || it->race_vs == SIZE_MAX)
		return o;
	json_object_set_new(o, "vs", json_text(items[it->race_vs].id));
	json_object_set_new(o, "ratio", json_real(it->race.ci.ratio));
	json_object_set_new(o, "lo", json_real(it->race.ci.lo));
	json_object_set_new(o, "hi", json_real(it->race.ci.hi));
	if (it->out)
		json_object_set_new(o, "left_at_round", json_integer(it->out_round));
	return o;
}

/* The command that would decide the cell: the rounds projected, and a
 * budget of the minutes projected with a quarter to spare. */
static json_t *next_json(const struct cell *c, double secs, const char *dir)
{
	char cmd[4400];

	snprintf(cmd, sizeof(cmd), "iostrat bench --resume %s -D max_reps=%zu "
		 "-D time_budget=%.0f", dir, c->needed, 60 * ceil(secs * 1.25 / 60));
	return json_text(cmd);
}

/* The race's fields of a cell: its decision, each member's comparison,
 * the projection and the command that would decide it. */
static json_t *race_json(json_t *o, const struct cell *c,
			 const struct bench_item *items, size_t n, size_t k,
			 const char *dir)
{
	json_t *members = json_array();
	double secs = projected_s(c, items, n, k);

	json_object_set_new(o, "decision", json_text(race_dec_name(c->dec)));
	json_object_set_new(o, "alpha", json_real(c->alpha));
	json_object_set_new(o, "min_effect", json_real(items[c->leader < n ? c->leader : 0].min_effect));
	if (c->leader < n)
		json_object_set_new(o, "leader", json_text(items[c->leader].id));
	for (size_t i = 0; i < n; i++)
		if (items[i].cell == k)
			json_array_append_new(members, member_json(&items[i], items));
	json_object_set_new(o, "members", members);
	if (c->resumed_from)
		json_object_set_new(o, "resumed_from", json_integer(c->resumed_from));
	if (c->dec != RACE_UNDECIDED)
		return o;
	json_object_set_new(o, "rounds_needed", c->needed ?
			    json_integer((json_int_t)c->needed) : json_null());
	if (!c->needed)
		return o;
	json_object_set_new(o, "minutes_needed", json_real(secs / 60));
	json_object_set_new(o, "next", next_json(c, secs, dir));
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
	return race_json(o, c, items, n, k, dir);
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
