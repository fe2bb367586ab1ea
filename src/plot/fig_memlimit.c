// SPDX-License-Identifier: MIT
/*
 * The memory-limit figure: per data set, elapsed time per strategy against
 * memory_max (none, then each limit), by work level; a repetition the
 * limit's OOM killer ended is marked, not drawn as a time.
 *
 * memlimit-DS.dat: header "config" elapsed elapsed_min elapsed_max colour
 * killed, then one line per work level x limit x strategy ("buffer 64 MiB
 * w0"): the median, min and max elapsed of the repetitions that completed,
 * colour the strategy's linetype (palette.gp), killed the share of its
 * repetitions killed by the limit (NaN when none was).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "results/row.h"
#include "plot.h"

static void limit_text(json_t *lim, char *buf, size_t len)
{
	double v = json_is_number(lim) ? json_number_value(lim) : 0;

	if (v > 0)
		snprintf(buf, len, "%.0f MiB", v / (1024.0 * 1024.0));
	else
		snprintf(buf, len, "none");
}

/* One line: the rows of strategy s at limit lim (already at one work level). */
static void limit_line(struct dat *d, json_t *rows, json_t *lim, json_t *s, json_t *w)
{
	json_t *a = rows_where(rows, "memory_max", lim);
	json_t *r = rows_where(a, RC_STRATEGY, s), *ok = rows_where(r, "error", NULL);
	json_t *killed = rows_where(r, "oom_kill", json_true());
	char lab[160], lb[32], sb[64], wb[32];
	struct summary el;

	rows_stat(ok, RC_ELAPSED, 1, &el);
	if (json_array_size(r)) {
		limit_text(lim, lb, sizeof(lb));
		snprintf(lab, sizeof(lab), "%s %s w%s", val_text(s, sb, sizeof(sb)), lb,
			 val_text(w, wb, sizeof(wb)));
		dat_label(d, lab);
		dat_summary(d, &el);
		dat_colour(d, json_string_value(s), PLOT_COLOURS);
		dat_num(d, (double)json_array_size(killed) / (double)json_array_size(r),
			json_array_size(killed) > 0);
		fputc('\n', d->f);
	}
	json_decref(killed);
	json_decref(ok);
	json_decref(r);
	json_decref(a);
}

/* The limits, "none" (null or 0) first. */
static json_t *limits_of(json_t *rows)
{
	json_t *all = rows_distinct(rows, "memory_max"), *out = json_array(), *l;
	size_t i;

	json_array_foreach(all, i, l)
		if (!(json_number_value(l) > 0))
			json_array_append(out, l);
	json_array_foreach(all, i, l)
		if (json_number_value(l) > 0)
			json_array_append(out, l);
	json_decref(all);
	return out;
}

/* One image: data set g->name[0], by work level, limit and strategy. */
static size_t limit_write(const struct fig_group *g, struct dat *d)
{
	json_t *limits = limits_of(g->rows), *w, *l, *s;
	struct plot_axes ax;
	size_t i, j, k;

	plot_axes(g->rows, &ax);
	fputs("\"config\" elapsed elapsed_min elapsed_max colour killed\n", d->f);
	json_array_foreach(ax.works, i, w) {
		json_t *at = rows_where(g->rows, RC_WORK, w);

		json_array_foreach(limits, j, l)
			json_array_foreach(ax.strats, k, s)
				limit_line(d, at, l, s, w);
		json_decref(at);
	}
	plot_axes_free(&ax);
	json_decref(limits);
	return 1;
}

static bool with_limit(json_t *r, const void *unused)
{
	(void)unused;
	return json_number_value(json_object_get(r, "memory_max")) > 0;
}

/* Any row with a memory_max: the figure's want. */
static bool limited(json_t *rows)
{
	return rows_any(rows, with_limit, NULL);
}

/* The run rows that completed and those the limit killed (fig_rows'
 * rows_of_kind leaves out every row with an error). */
static json_t *runs_and_killed(json_t *rows)
{
	json_t *out = json_array(), *r;
	size_t i;

	json_array_foreach(rows, i, r) {
		const char *k = json_string_value(json_object_get(r, "kind"));

		if ((k ? !strcmp(k, "run") : true) &&
		    (json_is_null(json_object_get(r, "error")) ||
		     json_is_true(json_object_get(r, "oom_kill"))))
			json_array_append(out, r);
	}
	return out;
}

/* The run rows that completed and those the limit killed, when some ran
 * under a limit. */
static int limit_rows(struct plot_ctx *c, json_t **rows, char *why, size_t len)
{
	json_decref(*rows);
	*rows = runs_and_killed(c->rows);
	if (!limited(*rows)) {
		snprintf(why, len, "no run with memory_max");
		json_decref(*rows);
		*rows = NULL;
	}
	return 0;
}

static const char *const need[] = { RC_DATASET, RC_STRATEGY, RC_WORK, RC_ELAPSED, NULL };

const struct fig_kind fig_memlimit = {
	.kind = "run", .need = need, .none = "no run rows", .select = limit_rows,
	.by = { RC_DATASET }, .by_size = true, .unnamed = { "unnamed" }, .want = limited,
	.title = "Elapsed time against the memory limit: data set %s (medians; x = "
		 "killed by the limit)",
	.write = limit_write,
};
