// SPDX-License-Identifier: MIT
/*
 * Figure 6, a comparison of runs (schedulers, kernels, builds): from the
 * spread table of the comparison plot made in memory (`iostrat plot
 * --compare`, a sched directory: c->cmp), else from DIR/compare.csv, the
 * `--format csv` output of `iostrat compare A B ...`: its table "per
 * configuration and run": a group per configuration, a bar per run (its median, bars
 * min..max) and a '*' over the runs whose difference from A is
 * significant by compare's test.
 *
 * compare.dat (compare-METRIC.dat when the runs mix metrics), one block:
 *   "YLABEL" "A: label" "min" "max" "sig" "B: label" "min" "max" "sig" ...
 *   "stream/t1/w0" median min max sig ...     (sig 1 = '*', 0 not, NaN: A)
 * Configuration labels leave out the config_id parts every configuration
 * shares (named in the title instead).
 *
 * The configurations go down the page, one row each (a label stays
 * horizontal and readable however long), at most page_cap() of them per
 * figure: more are split evenly into compare-1of3, compare-2of3, ... (the
 * shipped skeet-all profile makes 240).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "lib/util.h"
#include "plot.h"

#define SPREAD_TABLE "per configuration and run"

/* Is the '/'-part p (of length n) in every config id? */
static bool shared_part(json_t *ids, const char *p, size_t n)
{
	json_t *v;
	size_t i;

	json_array_foreach(ids, i, v) {
		const char *s = json_string_value(v) ?: "";
		bool found = false;

		while (*s && !found) {
			size_t m = strcspn(s, "/");

			found = m == n && !strncmp(s, p, n);
			s += m + (s[m] == '/');
		}
		if (!found)
			return false;
	}
	return true;
}

/* id without the parts every config id has; common gets those parts. */
static void short_id(json_t *ids, const char *id, char *out, size_t len,
		     char *common, size_t clen)
{
	size_t o = 0, c = 0;

	out[0] = 0;
	if (common)
		common[0] = 0;
	for (const char *s = id; *s;) {
		size_t m = strcspn(s, "/");
		bool all = json_array_size(ids) > 1 && shared_part(ids, s, m);

		if (all && common && c + m + 2 < clen)
			c += (size_t)snprintf(common + c, clen - c, "%s%.*s", c ? "/" : "",
					      (int)m, s);
		else if (!all && o + m + 2 < len)
			o += (size_t)snprintf(out + o, len - o, "%s%.*s", o ? "/" : "",
					      (int)m, s);
		s += m + (s[m] == '/');
	}
	if (!o)
		snprintf(out, len, "%s", id);
}

static const char *ylabel(const char *metric, char *buf, size_t len)
{
	if (!metric || !strcmp(metric, RC_ELAPSED))
		return "median elapsed time (s)";
	snprintf(buf, len, "median %s", metric);
	return buf;
}

static void header(struct dat *d, json_t *rows, json_t *runs, const char *metric)
{
	char b[160], lb[96];
	json_t *r;
	size_t i;

	dat_label(d, ylabel(metric, b, sizeof(b)));
	json_array_foreach(runs, i, r) {
		json_t *of = rows_where(rows, "run", r);

		snprintf(b, sizeof(b), "%s: %s", json_string_value(r) ?: "?",
			 val_text(json_object_get(json_array_get(of, 0), "label"), lb,
				  sizeof(lb)));
		json_decref(of);
		fputc(' ', d->f);
		dat_label(d, b);
		fputs(" \"min\" \"max\" \"sig\"", d->f);
	}
	fputc('\n', d->f);
}

static double num(json_t *row, const char *k, bool *ok)
{
	json_t *v = json_object_get(row, k);

	*ok = json_is_number(v);
	return *ok ? json_number_value(v) : 0;
}

/* Configurations per figure: a row of ns bars must stay at least about
 * 5 px a bar and 14 px a label on compare.gp's 1200 x 900 page. */
static size_t page_cap(size_t nruns)
{
	size_t k = 120 / (nruns ? nruns : 1);

	return k > 30 ? 30 : k < 4 ? 4 : k;
}

/* One line per configuration of ids[from, to); the number written. */
static size_t lines(struct dat *d, json_t *rows, json_t *ids, json_t *runs,
		    size_t from, size_t to)
{
	json_t *r;
	size_t j, n = 0;

	for (size_t i = from; i < to && i < json_array_size(ids); i++) {
		json_t *id = json_array_get(ids, i);
		json_t *cr = rows_where(rows, RC_CONFIG_ID, id);
		char lab[256];

		short_id(ids, json_string_value(id) ?: "?", lab, sizeof(lab), NULL, 0);
		dat_label(d, lab);
		json_array_foreach(runs, j, r) {
			json_t *x = rows_where(cr, "run", r), *row = json_array_get(x, 0);
			const char *sig = json_string_value(json_object_get(row, "sig"));
			static const char *const k[] = { "median", "min", "max" };

			for (size_t q = 0; q < 3; q++) {
				bool ok;
				double v = num(row, k[q], &ok);

				dat_num(d, v, ok);
			}
			dat_num(d, sig && !strcmp(sig, "*") ? 1 : 0, row && j > 0);
			json_decref(x);
		}
		fputc('\n', d->f);
		json_decref(cr);
		n++;
	}
	return n;
}

/* The run letters present, A first (first-seen order could put C before B). */
static json_t *runs_in(json_t *rows)
{
	json_t *out = json_array();

	for (int l = 0; l < RUNS_MAX; l++) {
		char s[2] = { (char)('A' + l), 0 };
		json_t *v = json_text(s), *x = rows_where(rows, "run", v);

		if (json_array_size(x))
			json_array_append(out, v);
		json_decref(x);
		json_decref(v);
	}
	return out;
}

/* Figure `page` (0-based) of `pages` of one metric: ids[from, to). */
static int one_page(struct plot_ctx *c, json_t *sub, json_t *ids, json_t *runs,
		    const char *m, bool many, size_t page, size_t pages)
{
	size_t n = json_array_size(ids), per = (n + pages - 1) / pages;
	size_t from = page * per, to = MIN(n, from + per);
	char name[160], common[160], lab[8], title[320], part[64] = "";
	struct dat d;
	int ret = dat_begin(&d);

	if (ret)
		return ret;
	header(&d, sub, runs, m);
	lines(&d, sub, ids, runs, from, to);
	short_id(ids, json_string_value(json_array_get(ids, 0)) ?: "", lab,
		 sizeof(lab), common, sizeof(common));
	if (pages > 1)
		snprintf(part, sizeof(part), ", configurations %zu-%zu of %zu",
			 from + 1, to, n);
	snprintf(title, sizeof(title), "Comparison of runs%s%s%s: median, bars min..max; "
		 "* p < 0.05 against A%s", common[0] ? " (all " : "", common,
		 common[0] ? ")" : "", part);
	safe_name(common, sizeof(common), m ? m : "metric");
	snprintf(name, sizeof(name), many ? "compare-%s" : "compare", common);
	if (pages > 1)
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "-%zuof%zu",
			 page + 1, pages);
	return dat_commit(c, &d, "compare", name, title);
}

static int one_metric(struct plot_ctx *c, json_t *rows, json_t *metric, bool many)
{
	json_t *sub = rows_where(rows, "metric", metric);
	json_t *ids = rows_distinct(sub, RC_CONFIG_ID), *runs = runs_in(sub);
	size_t cap = page_cap(json_array_size(runs));
	size_t pages = (json_array_size(ids) + cap - 1) / cap;
	int ret = 0;

	for (size_t p = 0; !ret && p < pages; p++)
		ret = one_page(c, sub, ids, runs, json_string_value(metric), many, p,
			       pages);
	json_decref(sub);
	json_decref(ids);
	json_decref(runs);
	return ret;
}

static int need_cols(const struct plot_ctx *c, json_t *cols)
{
	static const char *const need[] = { RC_CONFIG_ID, "run", "label", "median",
					    "min", "max", "sig", NULL };

	for (size_t i = 0; need[i]; i++) {
		bool have = false;
		json_t *v;
		size_t j;

		json_array_foreach(cols, j, v)
			have |= !strcmp(json_string_value(v) ?: "", need[i]);
		if (!have) {
			errorf("plot compare: %s/compare.csv has no column '%s'; figure not drawn",
			       c->dir, need[i]);
			return -ENODATA;
		}
	}
	return 0;
}

/* Figure 6's rows from DIR/compare.csv (`iostrat compare --format csv`
 * text) when plot did not make the comparison itself (c->cmp). */
static int read_compare_csv(const struct plot_ctx *c, json_t **rows, char *why,
			    size_t len)
{
	char path[PATH_MAX], *text = NULL;
	json_t *cols = NULL;
	size_t tlen;
	int ret;

	snprintf(path, sizeof(path), "%s/compare.csv", c->dir);
	ret = read_file_small(path, &text, &tlen);
	if (ret == -ENOENT) {
		snprintf(why, len, "no compare.csv (iostrat plot --compare DIR_A DIR_B ...)");
		return 0;
	}
	if (ret)
		return error_errno(ret, path, "plot compare");
	ret = csv_table(text, SPREAD_TABLE, &cols, rows);
	free(text);
	if (ret == -ENOENT) {
		errorf("plot compare: %s has no table '%s' (made by an older iostrat "
		       "compare? iostrat plot --compare makes it); figure not drawn", path,
		       SPREAD_TABLE);
		return -ENODATA;
	}
	if (!ret)
		ret = need_cols(c, cols);
	json_decref(cols);
	return ret;
}

static int figure_of_compare(struct plot_ctx *c, char *why, size_t len)
{
	json_t *rows = NULL, *metrics, *m;
	size_t i;
	int ret = c->cmp ? 0 : read_compare_csv(c, &rows, why, len);

	if (c->cmp)
		rows = json_incref(c->cmp);
	if (ret || !rows) {
		json_decref(rows);
		return ret;
	}
	if (!json_array_size(rows))
		snprintf(why, len, "compare.csv: no configuration in A and another run");
	metrics = rows_distinct(rows, "metric");
	json_array_foreach(metrics, i, m) {
		if (ret || !json_array_size(rows))
			break;
		ret = one_metric(c, rows, m, json_array_size(metrics) > 1);
	}
	json_decref(metrics);
	json_decref(rows);
	return ret;
}

/* Figure 6 reads compare's table, not rows: it builds itself. */
const struct fig_kind fig_compare = { .build = figure_of_compare };
