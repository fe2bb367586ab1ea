// SPDX-License-Identifier: MIT
/*
 * The verdict's strip plot: per cell of the verdict (docs/verdict.md), the
 * runner-up's time over the fastest's in each round (the paired ratios the
 * interval is made of), with that interval and the min_effect band, so a reader
 * sees why a cell is decided or not.
 *
 * ratios.dat: one block per cell with a runner-up and paired rounds; header
 *   "CELL: FASTEST vs RUNNER-UP, DECISION" "round" ratio lo hi has_ci band
 * then per pair: its round (1-based, in round order), the ratio, the
 * interval's ends as the race's look at that round saw them (a confidence
 * sequence: valid at every look, so the last is the verdict's; lo, hi;
 * has_ci 0 and both 1 before the third pair) and the band's half-width
 * (the verdict's: min_effect as a fraction).
 */
#include <math.h>
#include <string.h>

#include "plot.h"
#include "report/report.h"
#include "report/verdict.h"
#include "results/anytime.h"
#include "results/race.h"

static const char *str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k)) ?: "";
}

/* The config_id of the cell's strategy named s. */
static const char *config_of(json_t *cell, const char *s)
{
	json_t *x;
	size_t i;

	json_array_foreach(json_object_get(cell, "strategies"), i, x)
		if (!strcmp(str(x, RC_STRATEGY), s))
			return str(x, RC_CONFIG_ID);
	return "";
}

/* Round i's interval (pairs 1..i+1): the look the race took then, at each
 * pair's share of the cell's alpha (race_pair_alpha), or, for rows never
 * raced (test mann-whitney), the cell's one interval; false: none. */
static bool look_at(json_t *cell, const double *a, const double *b, long i, double *lo,
		    double *hi)
{
	struct ratio_ci ci;
	size_t k = json_array_size(json_object_get(cell, "strategies"));

	if (strcmp(str(cell, "test"), VERDICT_TEST_PAIRED)) {
		*lo = json_number_value(json_object_get(cell, "ci_lo"));
		*hi = json_number_value(json_object_get(cell, "ci_hi"));
		return json_is_number(json_object_get(cell, "ci_lo")) && isfinite(*lo) &&
		       isfinite(*hi);
	}
	if (anytime_ratio_ci(a, b, (size_t)i + 1, race_pair_alpha(k), &ci))
		return false;
	*lo = ci.lo;
	*hi = ci.hi;
	return true;
}

/* One block: the cell's pairs; 0 when it has none (nothing written). */
static int cell_block(struct dat *d, const struct rrun *r, json_t *cell, size_t nblk)
{
	double *a = NULL, *b = NULL, lo, hi;
	long n = rrun_pairs(r, config_of(cell, str(cell, "fastest")),
			    config_of(cell, str(cell, "runner_up")), &a, &b);
	char lab[800];

	if (n > 0) {
		dat_block(d, nblk);
		snprintf(lab, sizeof(lab), "%s: %s vs %s, %s", str(cell, "cell"),
			 str(cell, "fastest"), str(cell, "runner_up"), str(cell, "decision"));
		dat_label(d, lab);
		fputs(" \"round\" ratio lo hi has_ci band\n", d->f);
		for (long i = 0; i < n; i++) {
			bool ci = look_at(cell, a, b, i, &lo, &hi);

			fprintf(d->f, "%ld %.6g %.6g %.6g %d %.6g\n", i + 1, b[i] / a[i],
				ci ? lo : 1, ci ? hi : 1, ci,
				json_number_value(json_object_get(cell, "band")));
		}
	}
	free(a);
	free(b);
	return n > 0;
}

static size_t ratios_write(const struct fig_group *g, struct dat *d)
{
	json_t *cells = plot_verdict_cells(g->c), *cell;
	struct rrun r;
	size_t nblk = 0, i;

	memset(&r, 0, sizeof(r));
	r.rows = g->c->rows;
	json_array_foreach(cells, i, cell)
		if (json_is_string(json_object_get(cell, "runner_up")))
			nblk += (size_t)cell_block(d, &r, cell, nblk);
	return nblk;
}

const struct fig_kind fig_ratios = {
	.title = "Runner-up's time / the fastest's per round (points), its interval at "
		 "each look (dashed, at 1 when none yet), the min_effect band (grey)",
	.write = ratios_write, .empty = "no verdict cell with two strategies paired by round",
};
