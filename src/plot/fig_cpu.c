// SPDX-License-Identifier: MIT
/*
 * Figure 3, CPU: per data set, user and system CPU seconds per
 * configuration and the kernel's CPU outside the process (kernel threads,
 * kthread_s) as stacked bars, elapsed time beside them.
 *
 * cpu-DS.dat: header "config" user sys elapsed elapsed_min elapsed_max
 * colour fastest kernel, then one line per configuration (strategy, threads,
 * work, and the cache state when there are several), medians of the
 * repetitions, sorted by work, threads, cache, strategy; colour is the
 * strategy's linetype (palette.gp), fastest the elapsed median again on
 * the fastest configuration of its work level (and cache state), NaN
 * elsewhere, kernel the median kthread_s (NaN for rows without it).
 */
#include <math.h>

#include "lib/util.h"
#include "plot.h"

/* Median elapsed of one configuration (NAN when it was not run); and its
 * line, when d is not NULL, fastest marked when its median is best. */
static double config_line(struct dat *d, json_t *rows, json_t *w, json_t *t, json_t *s,
			  json_t *cache, double best)
{
	json_t *r0 = rows_cell(rows, w, t, s);
	json_t *r = cache ? rows_where(r0, "cache", cache) : json_incref(r0);
	struct summary us, ss, el, ks;
	char lab[160], sb[64], tb[32], wb[32], cb[32];

	rows_stat(r, RC_USER, 1, &us);
	rows_stat(r, RC_SYS, 1, &ss);
	rows_stat(r, RC_ELAPSED, 1, &el);
	rows_stat(r, "kthread_s", 1, &ks);
	if (el.n && d) {
		snprintf(lab, sizeof(lab), "%s t%s w%s%s%s", val_text(s, sb, sizeof(sb)),
			 val_text(t, tb, sizeof(tb)), val_text(w, wb, sizeof(wb)),
			 cache ? " " : "", cache ? val_text(cache, cb, sizeof(cb)) : "");
		dat_label(d, lab);
		dat_num(d, us.median, us.n);
		dat_num(d, ss.median, ss.n);
		dat_summary(d, &el);
		dat_colour(d, json_string_value(s), PLOT_COLOURS);
		dat_num(d, el.median, el.median == best);
		dat_num(d, ks.median, ks.n);
		fputc('\n', d->f);
	}
	json_decref(r0);
	json_decref(r);
	return el.n ? el.median : NAN;
}

/* The lowest median elapsed at work level w (and cache state ca). */
static double fastest(json_t *rows, json_t *w, json_t *ca,
		      const struct plot_axes *ax, bool split)
{
	double best = INFINITY;
	json_t *t, *s;
	size_t j, k;

	json_array_foreach(ax->threads, j, t)
		json_array_foreach(ax->strats, k, s) {
			double e = config_line(NULL, rows, w, t, s, split ? ca : NULL, NAN);

			if (e < best)
				best = e;
		}
	return best;
}

/* One image: the configurations of data set g->name[0]. */
static size_t cpu_write(const struct fig_group *g, struct dat *d)
{
	json_t *rows = g->rows, *caches = rows_distinct(rows, "cache"), *w, *t, *s, *ca;
	bool split = json_array_size(caches) > 1;
	const char *ds = g->name[0];
	struct plot_axes ax;
	size_t i, j, k, l;

	plot_axes(rows, &ax);
	fputs("\"config\" user sys elapsed elapsed_min elapsed_max colour fastest "
	      "kernel\n", d->f);
	json_array_foreach(ax.works, i, w) {
		/* the fastest of each cache state at this work level, once
		 * (not again for every line it marks) */
		size_t nca = json_array_size(caches);
		double best[nca + 1];

		for (l = 0; l < nca; l++)
			best[l] = fastest(rows, w, json_array_get(caches, l), &ax, split);
		/* marked only where the verdict decided that strategy */
		json_array_foreach(ax.threads, j, t)
			json_array_foreach(caches, l, ca)
				json_array_foreach(ax.strats, k, s)
					config_line(d, rows, w, t, s, split ? ca : NULL,
						    l < nca && plot_decided(g->c, ds, split ?
						    json_string_value(ca) : NULL, w, t,
						    json_string_value(s)) ? best[l] : NAN);
	}
	plot_axes_free(&ax);
	json_decref(caches);
	return 1;
}

static const char *const need[] = { RC_DATASET, RC_STRATEGY, RC_THREADS, RC_WORK,
				    RC_USER, RC_SYS, RC_ELAPSED, NULL };

const struct fig_kind fig_cpu = {
	.kind = "run", .need = need, .none = "no run rows",
	.by = { RC_DATASET }, .by_size = true, .unnamed = { "unnamed" },
	.title = "CPU time (user + system + kernel threads) beside elapsed time: "
		 "data set %s (medians)",
	.write = cpu_write,
};
