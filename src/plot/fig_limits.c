// SPDX-License-Identifier: MIT
/*
 * The limits figure: per cell (data set, W, threads, cache, fsync) one
 * image, x the CPU spent per GB (user + system + kernel threads where the
 * rows have them), y MB/s, both log scales; the machine's measured limits
 * of the cell (report/limits.h) as labelled horizontal lines, each
 * strategy a point with its interval (median_ci; the point alone below 6
 * repetitions), and the CPU roofline y = 1000 x cores / x: a strategy
 * spending x CPU-seconds per GB on `cores` cores cannot pass it.
 *
 * limits-CELL.dat: three blocks (split by two blank lines):
 *   0  "limit" mb_s lo hi        the measured limits (transform x cores)
 *   1  "strategy" cpu_s_gb mb_s lo hi colour
 *   2  "cores" N
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/fields.h"
#include "results/results.h"
#include "report/limits.h"
#include "lib/util.h"
#include "plot.h"

/* The cell of run summary s as a name and a title's words. */
static void cell_words(json_t *s, char *key, size_t len)
{
	snprintf(key, len, "%s W=%lld t%lld %s fsync=%s", sget(s, RC_DATASET), iget(s, RC_WORK),
		 iget(s, RC_THREADS), sget(s, "cache"), sget(s, "fsync"));
}

static void limit_lines(struct dat *d, json_t *rows, json_t *s, double cores)
{
	struct limit_est e[LIMIT_N];

	limits_of_cell(rows, s, e);
	fputs("\"limit\" mb_s lo hi\n", d->f);
	for (int k = 0; k < LIMIT_N; k++) {
		double f = k == LIMIT_TRANSFORM ? cores : 1;
		char lab[96];

		if (!e[k].n)
			continue;
		snprintf(lab, sizeof(lab), "%s%s", limit_names[k],
			 k == LIMIT_TRANSFORM ? " x cores" : "");
		dat_label(d, lab);
		dat_num(d, e[k].median * f, true);
		dat_num(d, e[k].lo * f, isfinite(e[k].lo));
		dat_num(d, e[k].hi * f, isfinite(e[k].hi));
		fputc('\n', d->f);
	}
}

/* A strategy's point: its median MB/s with its interval (none: the median). */
static void strategy_point(struct dat *d, json_t *rows, json_t *s)
{
	struct limit_est e;
	double lo, hi;

	limits_strategy_est(rows, s, &e);
	if (!e.n || !isfinite(e.cpu_s_gb))
		return;
	lo = isfinite(e.lo) ? e.lo : e.median;
	hi = isfinite(e.hi) ? e.hi : e.median;
	dat_label(d, sget(s, RC_STRATEGY));
	dat_num(d, e.cpu_s_gb, true);
	dat_num(d, e.median, true);
	dat_num(d, lo, true);
	dat_num(d, hi, true);
	fprintf(d->f, " %d\n", plot_colour(sget(s, RC_STRATEGY)) ? plot_colour(sget(s, RC_STRATEGY))
								 : PLOT_COLOURS);
}

/* Are run summaries a and b of one cell? */
static bool same_cell(json_t *a, json_t *b)
{
	char x[256], y[256];

	cell_words(a, x, sizeof(x));
	cell_words(b, y, sizeof(y));
	return !strcmp(x, y);
}

static int one_cell(struct plot_ctx *c, json_t *sum, size_t first, long long cpus)
{
	json_t *s0 = json_array_get(sum, first), *s;
	struct limit_use u;
	char key[256], name[160], sn[200], title[320];
	struct dat d;
	size_t i;

	limits_use_of(s0, cpus, &u);
	if (dat_begin(&d))
		return -ENOMEM;
	limit_lines(&d, c->rows, s0, u.cores);
	fputs("\n\n\"strategy\" cpu_s_gb mb_s lo hi colour\n", d.f);
	json_array_foreach(sum, i, s)
		if (i >= first && !strcmp(sget(s, "kind"), "run") && same_cell(s, s0))
			strategy_point(&d, c->rows, s);
	fprintf(d.f, "\n\n\"cores\" %g\n", u.cores);
	cell_words(s0, key, sizeof(key));
	safe_name(sn, sizeof(sn), key);
	snprintf(name, sizeof(name), "limits-%s", sn);
	snprintf(title, sizeof(title), "Strategies against the machine's limits: %s "
		 "(medians; %.0f%% intervals, below 6 repetitions the range)", key, 100 * LIMITS_LEVEL);
	return dat_commit(c, &d, "limits", name, title);
}

static long long env_cpus(const struct plot_ctx *c)
{
	char p[4200];
	json_t *e;
	long long n;

	snprintf(p, sizeof(p), "%s/env.json", c->dir);
	e = json_load_file(p, 0, NULL);
	n = iget(e, "cpus");
	json_decref(e);
	return n;
}

/* Has run summary i's cell been drawn (an earlier summary of it)? */
static bool drawn(json_t *sum, size_t i)
{
	for (size_t j = 0; j < i; j++) {
		json_t *a = json_array_get(sum, j);

		if (!strcmp(sget(a, "kind"), "run") && same_cell(a, json_array_get(sum, i)))
			return true;
	}
	return false;
}

static int limits_build(struct plot_ctx *c, char *why, size_t len)
{
	json_t *sum, *s;
	long long cpus = env_cpus(c);
	size_t i, n = 0;
	int ret = 0;

	if (!limits_present(c->rows)) {
		snprintf(why, len, "no limits rows (iostrat limits)");
		return 0;
	}
	sum = results_summarize(c->rows);
	json_array_foreach(sum, i, s) {
		struct limit_est e[LIMIT_N];
		struct limit_use u;
		struct limit_attain a;

		if (ret || strcmp(sget(s, "kind"), "run") || iget(s, "n") < 1 || drawn(sum, i))
			continue;
		limits_of_cell(c->rows, s, e);
		limits_use_of(s, cpus, &u);
		if (limits_attain(e, &u, &a))
			continue;
		ret = one_cell(c, sum, i, cpus);
		n++;
	}
	json_decref(sum);
	if (!ret && !n)
		snprintf(why, len, "no run cell with limits measured");
	return ret;
}

/* One image per cell from the run summaries, not from groups of rows:
 * the figure builds itself. */
const struct fig_kind fig_limits = { .build = limits_build };
