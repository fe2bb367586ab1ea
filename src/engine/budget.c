// SPDX-License-Identifier: MIT
/* time_budget (budget.h): the time left goes to the raced cells nearest a decision; the rest close, saying why. */
#include <math.h>
#include <stdlib.h>

#include "lib/util.h"
#include "budget.h"

struct want {
	size_t cell;
	double round_s, rest_s; /* its next round; all its projected rounds */
};

static int by_rest(const void *x, const void *y)
{
	const struct want *a = x, *b = y;

	return (a->rest_s > b->rest_s) - (a->rest_s < b->rest_s);
}

/* Is cell k raced, open and past its least rounds? */
static bool asked(const struct cell *cells, const struct bench_item *items, size_t n,
		  size_t k)
{
	const struct cell *c = &cells[k];

	for (size_t i = 0; i < n; i++)
		if (items[i].cell == k)
			return c->open && items[i].stop == STOP_RULE_CI && c->members > 1 &&
			       c->rounds >= least_reps(&items[i], cells);
	return false;
}

static void spend(struct cell *c, const struct want *w, double *left)
{
	if (c->rounds >= RACE_FUTILE_FROM && w->rest_s > *left && isfinite(w->rest_s))
		cell_close(c, true, "futile: %u rounds, undecided; the %zu rounds "
			   "projected to decide it take %.1f s, beyond the %.1f s left of "
			   "time_budget", c->rounds, c->needed, w->rest_s, *left);
	else if (c->rounds >= RACE_FUTILE_FROM && w->rest_s > *left)
		cell_close(c, true, "futile: %u rounds, undecided; no deciding round "
			   "in sight at this spread", c->rounds);
	else if (w->round_s > *left)
		cell_close(c, false, "time_budget: %u rounds, undecided; its next round "
			   "(%.1f s) does not fit the %.1f s left", c->rounds, w->round_s,
			   MAX(*left, 0));
	else
		*left -= w->round_s;
}

void budget_round(struct cell *cells, size_t ncells, const struct bench_item *items,
		  size_t n, double left)
{
	struct want *w = calloc(ncells ? ncells : 1, sizeof(*w));
	size_t m = 0;

	if (!w)
		abort();
	for (size_t k = 0; k < ncells; k++) {
		const struct cell *c = &cells[k];

		if (!asked(cells, items, n, k))
			continue;
		w[m].cell = k;
		w[m].round_s = cell_round_s(items, n, k);
		w[m].rest_s = !c->needed ? INFINITY : c->needed > c->rounds ?
			      w[m].round_s * (double)(c->needed - c->rounds) : 0;
		m++;
	}
	qsort(w, m, sizeof(*w), by_rest);
	for (size_t j = 0; j < m; j++)
		spend(&cells[w[j].cell], &w[j], &left);
	free(w);
}
