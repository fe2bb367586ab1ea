// SPDX-License-Identifier: MIT
/*
 * `iostrat report DIR`: per data set the classic grid of the base
 * strategies, those that declare STRAT_REPORT_BASE (rows threads, columns
 * work level, each cell their medians "A/B", the fastest cell of each
 * column marked *), the same grid for every other strategy against the
 * best of the bases, then one line per configuration.  Rows of other
 * kinds (sweep, net, fio ...) are listed generically, one line per
 * configuration.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strategy.h"
#include "lib/util.h"
#include "fields.h"
#include "limits.h"
#include "report.h"
#include "verdict.h"
#include "memory_verdict.h"

static bool is_run(json_t *s)
{
	return !strcmp(sget(s, "kind"), "run") && json_object_get(s, RC_THREADS) &&
	       json_integer_value(json_object_get(s, "n")) > 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* Sorted distinct values of integer key k over the group. */
static size_t distinct(json_t *group, const char *k, long long *out, size_t max)
{
	size_t n = 0, i;
	json_t *s;

	json_array_foreach(group, i, s) {
		long long v = json_integer_value(json_object_get(s, k));
		bool seen = false;

		for (size_t j = 0; j < n; j++)
			seen |= out[j] == v;
		if (!seen && n < max)
			out[n++] = v;
	}
	qsort(out, n, sizeof(*out), cmp_ll);
	return n;
}

static double median_of(json_t *group, const char *strat, long long t,
			long long w)
{
	json_t *s;
	size_t i;

	json_array_foreach(group, i, s)
		if (!strcmp(sget(s, RC_STRATEGY), strat) &&
		    json_integer_value(json_object_get(s, RC_THREADS)) == t &&
		    json_integer_value(json_object_get(s, RC_WORK)) == w)
			return nget(s, "median");
	return NAN;
}

static void fmt_s(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", v);
}

static bool is_base(const struct strategy *s)
{
	return s->flags & STRAT_REPORT_BASE;
}

static bool is_base_name(const char *name)
{
	const struct strategy *s = strategy_find(name);

	return s && is_base(s);
}

/* The lowest median of the bases in the cell (NaN: none ran). */
static double best_base(json_t *g, long long t, long long w)
{
	const struct strategy *s;
	double best = NAN;

	for (size_t i = 0; (s = strategy_at(i)); i++)
		if (is_base(s))
			best = fmin(best, median_of(g, s->name, t, w));
	return best;
}

/* The bases' medians in the cell, "A/B" ("-" for one that did not run). */
static void base_cell(json_t *g, long long t, long long w, char *buf, size_t len)
{
	const struct strategy *s;
	size_t o = 0;
	char a[32];

	buf[0] = 0;
	for (size_t i = 0; (s = strategy_at(i)) && o < len; i++) {
		if (!is_base(s))
			continue;
		fmt_s(median_of(g, s->name, t, w), a, sizeof(a));
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "/" : "", a);
	}
}

#define MAXV 64

struct grid {
	long long th[MAXV], wk[MAXV];
	size_t nt, nw;
	const char **cols;
};

static void grid_axes(json_t *g, struct grid *gr)
{
	static char names[MAXV][24];

	gr->nt = distinct(g, RC_THREADS, gr->th, MAXV);
	gr->nw = distinct(g, RC_WORK, gr->wk, MAXV);
	gr->cols = calloc(gr->nw + 2, sizeof(char *));
	gr->cols[0] = RC_THREADS;
	for (size_t j = 0; j < gr->nw; j++) {
		snprintf(names[j], sizeof(names[j]), "W=%lld", gr->wk[j]);
		gr->cols[j + 1] = names[j];
	}
}

/* A grid cell: its value (what the fastest of a column is judged by) and,
 * when buf, its text. */
typedef double grid_cell_fn(json_t *g, const char *strat, long long t, long long w,
			    char *buf, size_t len);

/* One row per thread count, one cell per work level; with more than one
 * thread count, " *" marks the fastest cell of each column. */
static void grid_fill(struct rtable *t, json_t *g, const struct grid *gr,
		      const char *strat, grid_cell_fn *cell)
{
	char a[128], buf[160];

	for (size_t i = 0; i < gr->nt; i++) {
		json_t *row = json_array();

		json_array_append_new(row, json_integer(gr->th[i]));
		for (size_t j = 0; j < gr->nw; j++) {
			double best = INFINITY;
			double mine = cell(g, strat, gr->th[i], gr->wk[j], a, sizeof(a));

			for (size_t k = 0; k < gr->nt; k++)
				best = fmin(best, cell(g, strat, gr->th[k], gr->wk[j], NULL, 0));
			snprintf(buf, sizeof(buf), "%s%s", a,
				 gr->nt > 1 && !isnan(mine) && mine == best ? " *" : "");
			json_array_append_new(row, json_text(buf));
		}
		rtable_add(t, row);
	}
}

/* The classic grid's cell: the bases' medians, judged by their best. */
static double classic_cell(json_t *g, const char *strat, long long t, long long w,
			   char *buf, size_t len)
{
	(void)strat;
	if (buf)
		base_cell(g, t, w, buf, len);
	return best_base(g, t, w);
}

/* Another strategy's cell: its median and its ratio to the best base. */
static double other_cell(json_t *g, const char *strat, long long t, long long w,
			 char *buf, size_t len)
{
	double mine = median_of(g, strat, t, w), base = best_base(g, t, w);
	char a[32];

	if (!buf)
		return mine;
	fmt_s(mine, a, sizeof(a));
	if (!isnan(mine) && !isnan(base) && base > 0)
		snprintf(buf, len, "%s (%.2fx)", a, mine / base);
	else
		snprintf(buf, len, "%s", a);
	return mine;
}

/* The classic grid: the bases' medians, * on the fastest cell per column
 * (with one thread count a column has one cell: no mark). */
static void classic_grid(struct rdoc *d, json_t *g, const char *title)
{
	struct grid gr;
	struct rtable *t;
	char names[128];

	grid_axes(g, &gr);
	t = rdoc_table(d, title, gr.cols);
	rtable_note(t, "cell: median elapsed seconds %s%s",
		    strategy_names_with(STRAT_REPORT_BASE, "/", names, sizeof(names)),
		    gr.nt > 1 ? "; * fastest cell of its column" : "");
	grid_fill(t, g, &gr, NULL, classic_cell);
	free(gr.cols);
}

/* strategy s against the best of the bases in the same cell. */
static void other_grid(struct rdoc *d, json_t *g, const char *strat,
		       const char *title)
{
	struct grid gr;
	struct rtable *t;
	char names[128];

	grid_axes(g, &gr);
	t = rdoc_table(d, title, gr.cols);
	rtable_note(t, "cell: median elapsed seconds of %s (its ratio to the best of "
		    "%s; < 1 is faster)%s", strat,
		    strategy_names_with(STRAT_REPORT_BASE, "/", names, sizeof(names)),
		    gr.nt > 1 ? "; * fastest cell of its column" : "");
	grid_fill(t, g, &gr, strat, other_cell);
	free(gr.cols);
}

/* The key grids() groups run summaries by: data set + remaining settings. */
static void group_key(json_t *s, char *key, size_t len)
{
	char set[300];

	snprintf(key, len, "%s (%s)", sget(s, RC_DATASET)[0] ? sget(s, RC_DATASET) : "-",
		 run_settings_text(s, set, sizeof(set)));
}

static void grids(struct rdoc *d, json_t *sum)
{
	json_t *groups = group_by(sum, is_run, group_key, NULL), *g;
	const char *key;
	char title[800], names[128];

	json_object_foreach(groups, key, g) {
		const char *seen[32];
		size_t ns = 0, i;
		json_t *s;

		strategy_names_with(STRAT_REPORT_BASE, "/", names, sizeof(names));
		snprintf(title, sizeof(title), "%s: %s", key, names);
		classic_grid(d, g, title);
		json_array_foreach(g, i, s) {
			const char *st = sget(s, RC_STRATEGY);
			bool dup = is_base_name(st);

			for (size_t k = 0; k < ns; k++)
				dup |= !strcmp(seen[k], st);
			if (dup || ns >= ARRAY_SIZE(seen))
				continue;
			seen[ns++] = st;
			snprintf(title, sizeof(title), "%s: %s vs best of %s", key, st,
				 names);
			other_grid(d, g, st, title);
		}
	}
	json_decref(groups);
}

/* Flags a reader should see: failed reps, a spread above target, a
 * "cold" repetition that did not start cold. */
static void flags_of(json_t *rows, json_t *s, char *buf, size_t len)
{
	const char *id = sget(s, RC_CONFIG_ID);
	long long errs = json_integer_value(json_object_get(s, "errors"));
	double rsd = nget(s, "rsd_pct"), target = nget(s, "target_rsd");
	int notcold = 0;
	size_t i, o = 0;
	json_t *r;

	buf[0] = 0;
	json_array_foreach(rows, i, r)
		if (!strcmp(sget(r, RC_CONFIG_ID), id) &&
		    json_is_false(json_object_get(r, "cold_ok")))
			notcold++;
	if (errs)
		o += (size_t)snprintf(buf + o, len - o, "errors=%lld ", errs);
	if (!isnan(target) && rsd > target && o < len)
		o += (size_t)snprintf(buf + o, len - o, "rsd>%.1f%% ", target);
	if (notcold && o < len)
		o += (size_t)snprintf(buf + o, len - o, "not-cold=%d ", notcold);
	if (json_is_true(json_object_get(s, "warmup_outlier")) && o < len)
		snprintf(buf + o, len - o, "warmup-outlier");
	for (o = strlen(buf); o && buf[o - 1] == ' ';)
		buf[--o] = 0;
}

static bool is_run_summary(json_t *s)
{
	return !strcmp(sget(s, "kind"), "run") && json_object_get(s, RC_THREADS);
}

/* The strategy runs' table; none at all (not an empty one) for a directory
 * of net, sweep or fio rows only. */
static void config_lines(struct rdoc *d, const struct rrun *r)
{
	static const char *const cols[] = { RC_CONFIG_ID, "n", "median_s", "min_s",
		"max_s", "rsd_pct", RC_MB_S, "cpu_s", "rss_mib", "flags", NULL };
	struct rtable *t;
	char flags[128];
	json_t *s;
	size_t i, runs = 0, warm = 0;

	json_array_foreach(r->sum, i, s)
		runs += is_run_summary(s);
	if (!runs)
		return;
	t = rdoc_table(d, "configurations (kind run)", cols);
	json_array_foreach(r->sum, i, s) {
		json_t *row;

		if (!is_run_summary(s))
			continue;
		warm += json_is_true(json_object_get(s, "warmup_outlier"));
		flags_of(r->rows, s, flags, sizeof(flags));
		row = json_pack("[s,I,o,o,o,o,o,o,o,s]", sget(s, RC_CONFIG_ID),
				json_integer_value(json_object_get(s, "n")),
				rnum(nget(s, "median")), rnum(nget(s, "min")),
				rnum(nget(s, "max")), rnum(nget(s, "rsd_pct")),
				rnum(nget(s, RC_MB_S)),
				rnum(nget(s, RC_USER) + nget(s, RC_SYS)),
				rnum(nget(s, RC_MAXRSS) / 1024.0), flags);
		rtable_add(t, row);
	}
	rtable_note(t, "median/min/max of elapsed seconds over n good repetitions; "
		    "rsd_pct = stddev/mean; mb_s = input MB per second; cpu_s = "
		    "user+sys; rss_mib = peak RSS (medians over repetitions)%s",
		    warm ? "; flags: warmup-outlier = the first repetition is an "
		    "outlier against the others (|modified z| > 3.5), kept in the "
		    "statistics (docs/verdict.md, \"Warm-up\")" : "");
}

/* Rows of other kinds: one line per configuration, whatever they are. */
static void other_kinds(struct rdoc *d, const struct rrun *r)
{
	static const char *const cols[] = { RC_CONFIG_ID, "metric", "n", "median",
		"min", "max", "rsd_pct", "errors", NULL };
	json_t *kinds = json_object(), *s, *v;
	const char *k;
	size_t i;

	json_array_foreach(r->sum, i, s) {
		const char *kind = sget(s, "kind");

		if (is_run_summary(s))
			continue;
		if (!json_object_get(kinds, kind[0] ? kind : "-"))
			json_object_set_new(kinds, kind[0] ? kind : "-", json_array());
		json_array_append(json_object_get(kinds, kind[0] ? kind : "-"), s);
	}
	json_object_foreach(kinds, k, v) {
		char title[128];
		struct rtable *t;
		size_t j;

		snprintf(title, sizeof(title), "configurations (kind %s)", k);
		t = rdoc_table(d, title, cols);
		json_array_foreach(v, j, s)
			rtable_add(t, json_pack("[s,s,I,o,o,o,o,I]", sget(s, RC_CONFIG_ID),
						sget(s, "metric"),
						json_integer_value(json_object_get(s, "n")),
						rnum(nget(s, "median")), rnum(nget(s, "min")),
						rnum(nget(s, "max")), rnum(nget(s, "rsd_pct")),
						json_integer_value(json_object_get(s, "errors"))));
	}
	json_decref(kinds);
}

/* What env.json could not read (a filesystem whose mount is outside a
 * chroot's view, a disk without a scheduler) is said, not left blank. */
static const char *or_unknown(const char *s)
{
	return *s ? s : "unknown";
}

static void disk_line(struct rdoc *d, json_t *in)
{
	if (!*sget(in, "disk")) /* tmpfs, overlay, nfs: no block device */
		rdoc_meta(d, "disk", "none (%s)", or_unknown(sget(in, "fs")));
	else
		rdoc_meta(d, "disk", "%s (%s, scheduler %s)", sget(in, "disk"),
			  or_unknown(sget(in, "fs")),
			  or_unknown(sget(in, "scheduler")));
}

void report_build(const struct rrun *r, struct rdoc *d)
{
	json_t *e = r->env, *in = json_object_get(e, "in");
	size_t nerr = 0, noom = 0, i;
	char oom[64] = "";
	json_t *row;

	/* a row its memory_max killed is a result, counted apart */
	json_array_foreach(r->rows, i, row) {
		bool killed = json_is_true(json_object_get(row, "oom_kill"));

		noom += killed;
		nerr += !killed && !json_is_null(json_object_get(row, "error"));
	}
	if (noom)
		snprintf(oom, sizeof(oom), ", %zu out of memory under memory_max", noom);
	rdoc_meta(d, "results", "%s", r->dir);
	rdoc_meta(d, "bench", "%s", rrun_name(r));
	rdoc_meta(d, "rows", "%zu repetitions, %zu configurations, %zu failed%s",
		  json_array_size(r->rows), json_array_size(r->sum), nerr, oom);
	rdoc_meta(d, "machine", "%s, %s, %lld CPUs, %lld MiB, kernel %s",
		  sget(e, "host"), sget(e, "cpu_model"),
		  json_integer_value(json_object_get(e, "cpus")),
		  json_integer_value(json_object_get(e, "mem_kb")) / 1024,
		  sget(e, "kernel"));
	if (in)
		disk_line(d, in);
	rdoc_meta(d, "version", "iostrat %s", sget(e, "iostrat_version"));
	report_verdict(r, d);
	report_memory_verdict(r, d);
	grids(d, r->sum);
	config_lines(d, r);
	report_cost(r, d);
	report_limits(r, d);
	report_fio_ratios(r, d);
	report_kernel_view(r, d);
	report_probe_cost(r, d);
	report_cache_left(r, d);
	other_kinds(d, r);
}
