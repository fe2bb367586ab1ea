// SPDX-License-Identifier: MIT
/*
 * Throughput over time: per verdict cell, each strategy's median timed
 * repetition (by elapsed) and the disk's read and write MB/s over it
 * (its row's io_series, lib/series.h), so a stall or a writeback storm
 * is seen.
 *
 * iotime.dat: one block per cell and strategy; header "CELL" "STRATEGY"
 * COLOUR, then per interval: its start in seconds, read MB/s, write MB/s,
 * and a last line at the end of the last interval with its rates again
 * (so gnuplot's steps draw every interval, the only one of a short run too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/series.h"
#include "plot.h"
#include "results/row.h"

/* The most intervals a strategy's line is drawn in. */
#define IOTIME_STEPS 60

static const char *str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k)) ?: "";
}

static int by_elapsed(const void *a, const void *b)
{
	double x = json_number_value(json_object_get(*(json_t *const *)a, RC_ELAPSED));
	double y = json_number_value(json_object_get(*(json_t *const *)b, RC_ELAPSED));

	return (x > y) - (x < y);
}

/* The timed row of config id with a series and the median elapsed (the
 * lower of the two middle ones), or NULL. */
static json_t *median_rep(json_t *rows, const char *id)
{
	size_t n = 0, i;
	json_t **v = calloc(json_array_size(rows) + 1, sizeof(*v)), *row, *pick;

	json_array_foreach(rows, i, row)
		if (v && row_timed(row) && !strcmp(str(row, RC_CONFIG_ID), id) &&
		    json_is_string(json_object_get(row, "io_series")) &&
		    json_is_number(json_object_get(row, RC_ELAPSED)))
			v[n++] = row;
	if (n)
		qsort(v, n, sizeof(*v), by_elapsed);
	pick = n ? v[(n - 1) / 2] : NULL;
	free(v);
	return pick;
}

/* Strategy s's series of cell as drawn: its median repetition's, at most
 * IOTIME_STEPS intervals (a 20 ms series of a 3 s repetition would be 150
 * spikes); 0, or -1 when it has none. */
static int drawn_series(json_t *rows, json_t *s, struct series *se)
{
	json_t *row = median_rep(rows, str(s, RC_CONFIG_ID));

	if (!row || series_parse(str(row, "io_series"), se) || !se->n)
		return -1;
	series_coarsen(se, IOTIME_STEPS);
	return 0;
}

/* Calls fn with each strategy of each verdict cell that has a series to
 * draw (write and title see the same ones); the sum of what fn returns. */
static size_t each_drawn(const struct fig_group *g,
			 size_t (*fn)(json_t *cell, json_t *s, const struct series *se, void *arg),
			 void *arg)
{
	json_t *cells = plot_verdict_cells(g->c), *cell, *s;
	struct series *se = malloc(sizeof(*se));
	size_t sum = 0, i, j;

	json_array_foreach(cells, i, cell)
		json_array_foreach(json_object_get(cell, "strategies"), j, s)
			if (se && !drawn_series(g->c->rows, s, se))
				sum += fn(cell, s, se, arg);
	free(se);
	return sum;
}

/* The data file and the blocks written to it so far. */
struct blocks {
	struct dat *d;
	size_t n;
};

/* A block: the strategy's header, then its intervals. */
static size_t strategy_block(json_t *cell, json_t *s, const struct series *se, void *arg)
{
	struct blocks *b = arg;
	struct dat *d = b->d;

	dat_block(d, b->n++);
	dat_label(d, str(cell, "cell"));
	fputc(' ', d->f);
	dat_label(d, str(s, RC_STRATEGY));
	fprintf(d->f, " %d\n", plot_colour(str(s, RC_STRATEGY)));
	for (size_t i = 0; i <= se->n; i++) /* the last again at its end */
		fprintf(d->f, "%.6g %.6g %.6g\n", (double)i * se->step_ms / 1000,
			(double)se->rd[i < se->n ? i : i - 1],
			(double)se->wr[i < se->n ? i : i - 1]);
	return 1;
}

static size_t iotime_write(const struct fig_group *g, struct dat *d)
{
	struct blocks b = { d, 0 };

	return each_drawn(g, strategy_block, &b);
}

/* The steps drawn: the least and the most. */
static size_t step_range(json_t *cell, json_t *s, const struct series *se, void *arg)
{
	unsigned *lohi = arg;

	(void)cell, (void)s;
	lohi[0] = !lohi[0] || se->step_ms < lohi[0] ? se->step_ms : lohi[0];
	lohi[1] = se->step_ms > lohi[1] ? se->step_ms : lohi[1];
	return 0;
}

/* The title, with the steps drawn (the sampler's, or coarser on a long
 * repetition): "every 20 ms", or "every 20 to 80 ms". */
static void iotime_title(const struct fig_group *g, char *buf, size_t len)
{
	unsigned lohi[2] = { 0, 0 };
	char every[64] = "";

	each_drawn(g, step_range, lohi);
	if (lohi[0] && lohi[0] == lohi[1])
		snprintf(every, sizeof(every), ", every %u ms", lohi[0]);
	else if (lohi[0])
		snprintf(every, sizeof(every), ", every %u to %u ms", lohi[0], lohi[1]);
	snprintf(buf, len, "The disk's MB/s over each strategy's median repetition: read "
		 "(solid), write (dashed)%s", every);
}

const struct fig_kind fig_iotime = {
	.title_of = iotime_title,
	.write = iotime_write,
	.empty = "no timed repetition with io_series (a run whose disk is unknown, "
		 "or rows from before it)",
};
