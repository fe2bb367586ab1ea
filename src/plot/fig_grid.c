// SPDX-License-Identifier: MIT
/*
 * Figure 1, the study grid: per data set (and cache state), elapsed time
 * against threads, one line per strategy, one panel per work level.
 *
 * grid-DS.dat: one block per work level; header
 *   "panel title" S1 C1 max S2 C2 max ... best
 * (Cn: the strategy's colour index, fixed across panels) then one line per
 * thread count: threads, per strategy run at that work level the median,
 * min and max elapsed seconds (NaN where not run), `best` (the panel's
 * lowest median on its row, NaN elsewhere) and `best_pos` (which of the
 * panel's strategies it is, 1-based, for the script's side-by-side offset).
 */
#include <math.h>
#include <string.h>

#include "core/strategy.h"
#include "lib/util.h"
#include "plot.h"
#include "report/verdict.h"

/* A control (STRAT_CONTROL: the harness alone) is never the fastest. */
static bool is_control(json_t *name)
{
	const char *n = json_string_value(name);
	const struct strategy *s = n ? strategy_find(n) : NULL;

	return s && (s->flags & STRAT_CONTROL);
}

/* "300 MB": the median bytes read by the rows of work level w. */
static const char *panel_size(json_t *rows, json_t *w, char *buf, size_t len)
{
	json_t *r = rows_where(rows, RC_WORK, w);
	struct summary s;

	rows_stat(r, RC_BYTES_IN, 1, &s);
	json_decref(r);
	if (!s.n)
		return strcpy(buf, "size unknown");
	return verdict_size(s.median, buf, len);
}

/* One panel: work level w; the lowest median ringed only when the verdict
 * decided it (plot_decided), and the panel's title says which. */
static void panel(struct plot_ctx *c, struct dat *d, json_t *rows, json_t *w, json_t *threads,
		  json_t *strats, const char *ds, const char *cache)
{
	size_t nt = json_array_size(threads), ns = json_array_size(strats);
	struct summary cell[nt][ns];
	bool ok[ns];
	unsigned pos = 0;
	size_t bt = 0, bs = 0, i, j;
	double best = INFINITY;
	char wt[32], tt[32], lab[256], sz[32];
	bool won;

	for (i = 0; i < nt; i++)
		for (j = 0; j < ns; j++) {
			json_t *r = rows_cell(rows, w, json_array_get(threads, i),
					      json_array_get(strats, j));

			rows_stat(r, RC_ELAPSED, 1, &cell[i][j]);
			json_decref(r);
			if (cell[i][j].n && cell[i][j].median < best &&
			    !is_control(json_array_get(strats, j))) {
				best = cell[i][j].median;
				bt = i;
				bs = j;
			}
		}
	won = plot_decided(c, ds, cache, w, json_array_get(threads, bt),
			   json_string_value(json_array_get(strats, bs)));
	snprintf(lab, sizeof(lab), "work %s, %s: %s %s, %s thread%s, %.3g s%s",
		 val_text(w, wt, sizeof(wt)), panel_size(rows, w, sz, sizeof(sz)),
		 won ? "fastest" : "lowest median",
		 json_string_value(json_array_get(strats, bs)) ?: "?",
		 val_text(json_array_get(threads, bt), tt, sizeof(tt)),
		 json_integer_value(json_array_get(threads, bt)) == 1 ? "" : "s", best,
		 won ? "" : " (undecided)");
	dat_label(d, lab);
	for (j = 0; j < ns; j++) {
		const char *s = json_string_value(json_array_get(strats, j)) ?: "?";

		ok[j] = false;
		for (i = 0; i < nt; i++)
			ok[j] |= cell[i][j].n > 0;
		if (!ok[j])
			continue; /* not run at this work level: no empty line */
		fputc(' ', d->f);
		dat_label(d, s);
		/* the min column's header carries the strategy's colour, the
		 * same in every panel even when some strategy is missing */
		dat_colour(d, s, (int)(j % PLOT_COLOURS) + 1);
		fputs(" max", d->f);
	}
	fputs(" best best_pos\n", d->f);
	for (j = 0; j < bs && j < ns; j++)
		pos += ok[j];
	pos++;
	for (i = 0; i < nt; i++) {
		fprintf(d->f, "%s", val_text(json_array_get(threads, i), wt, sizeof(wt)));
		for (j = 0; j < ns; j++) {
			if (!ok[j])
				continue;
			dat_summary(d, &cell[i][j]);
		}
		dat_num(d, best, i == bt && won);
		dat_num(d, (double)pos, i == bt && won);
		fputc('\n', d->f);
	}
}

/* One image: data set g->name[0] at cache state g->name[1], a panel per work level. */
static size_t grid_write(const struct fig_group *g, struct dat *d)
{
	struct plot_axes ax;
	json_t *w;
	size_t i;

	plot_axes(g->rows, &ax);
	json_array_foreach(ax.works, i, w) {
		dat_block(d, i);
		panel(g->c, d, g->rows, w, ax.threads, ax.strats, g->name[0],
		      g->split ? g->name[1] : NULL);
	}
	plot_axes_free(&ax);
	return 1;
}

static const char *const need[] = { RC_DATASET, RC_STRATEGY, RC_THREADS, RC_WORK,
				    RC_ELAPSED, NULL };

const struct fig_kind fig_grid = {
	.kind = "run", .need = need, .none = "no run rows",
	.by = { RC_DATASET, "cache" }, .unnamed = { "unnamed", "unknown" },
	.title = "Elapsed time vs threads: data set %s, cache %s (median, bars min..max)",
	.write = grid_write,
};
