// SPDX-License-Identifier: MIT
/*
 * Elapsed by round: per verdict cell, each strategy's timed repetitions
 * in round order, so drift and outliers are seen -- the rounds are
 * interleaved, so a slow minute of the machine shows in every strategy
 * of that round.
 *
 * rounds.dat: one block per cell and strategy; header "CELL" "STRATEGY"
 * COLOUR, then per timed repetition: its round, its elapsed seconds.
 */
#include <string.h>

#include "plot.h"
#include "report/report.h"

static const char *str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k)) ?: "";
}

/* The block of strategy s of cell; 0 when it has no timed repetition. */
static int strategy_block(struct dat *d, const struct rrun *r, json_t *cell, json_t *s,
			  size_t nblk)
{
	double *x = NULL;
	unsigned *round = NULL;
	long n = rrun_rounds(r, str(s, RC_CONFIG_ID), &x, &round);

	if (n > 0) {
		dat_block(d, nblk);
		dat_label(d, str(cell, "cell"));
		fputc(' ', d->f);
		dat_label(d, str(s, RC_STRATEGY));
		fprintf(d->f, " %d\n", plot_colour(str(s, RC_STRATEGY)));
		for (long i = 0; i < n; i++)
			fprintf(d->f, "%u %.6g\n", round[i], x[i]);
	}
	free(x);
	free(round);
	return n > 0;
}

static size_t rounds_write(const struct fig_group *g, struct dat *d)
{
	json_t *cells = plot_verdict_cells(g->c), *cell, *s;
	struct rrun r = { .rows = g->c->rows };
	size_t nblk = 0, i, j;

	json_array_foreach(cells, i, cell)
		json_array_foreach(json_object_get(cell, "strategies"), j, s)
			nblk += (size_t)strategy_block(d, &r, cell, s, nblk);
	return nblk;
}

const struct fig_kind fig_rounds = {
	.title = "Elapsed by round: each strategy's timed repetitions in round order "
		 "(a slow round shows in every strategy)",
	.write = rounds_write,
	.empty = "no verdict cell with timed repetitions that say their round",
};
