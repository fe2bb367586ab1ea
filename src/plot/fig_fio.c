// SPDX-License-Identifier: MIT
/*
 * Figure 4, strategy vs fio baseline: per data set, each strategy's
 * throughput (median MB/s) divided by the median MB/s of the fio job that
 * mirrors it (kind=fio rows, baseline_of = "stream buffer", "uring+direct"
 * ...), same data set and cache state, at the strategy's lowest work level,
 * one bar per thread count.  1.0 = as fast as fio.
 *
 * fio.dat: one block per data set; header "DATASET" "label" ratio lo hi;
 * lines: x "stream t1 / fio-seq-psync" ratio lo hi, where lo and hi are the
 * strategy's min and max MB/s over the same fio median.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util.h"
#include "plot.h"

/* Run rows a baseline token ("uring", "uring+direct") stands for. */
static json_t *mirrored_runs(json_t *runs, const char *tok)
{
	char name[64];
	bool direct = strstr(tok, "+direct") != NULL;
	json_t *a, *out = json_array(), *r, *nm;
	size_t i;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(tok, "+"), tok);
	nm = json_text(name);
	a = rows_where(runs, "strategy", nm);
	json_decref(nm);
	json_array_foreach(a, i, r) {
		json_t *d = json_object_get(r, "direct");

		if (!strcmp(name, "direct") || json_is_true(d) == direct)
			json_array_append(out, r);
	}
	json_decref(a);
	return out;
}

/* Keep only the rows at the lowest work level (the I/O-bound case). */
static json_t *lowest_work(json_t *rows)
{
	json_t *w = rows_distinct(rows, "work");
	json_t *out = rows_where(rows, "work", json_array_get(w, 0));

	json_decref(w);
	return out;
}

static unsigned bars_for(struct dat *d, json_t *runs, const char *tok,
			 const char *fio_name, double fio_mbs, unsigned *x)
{
	json_t *m = mirrored_runs(runs, tok), *low = lowest_work(m);
	json_t *threads = rows_distinct(low, "threads"), *t;
	unsigned n = 0;
	size_t i;

	json_array_foreach(threads, i, t) {
		json_t *r = rows_where(low, "threads", t);
		struct summary s;
		char lab[200], tb[32], wb[32];

		rows_stat(r, "mb_s", 1, &s);
		json_decref(r);
		if (!s.n)
			continue;
		snprintf(lab, sizeof(lab), "%s t%s w%s / %s", tok, val_text(t, tb, sizeof(tb)),
			 val_text(json_object_get(json_array_get(low, 0), "work"), wb, sizeof(wb)),
			 fio_name);
		fprintf(d->f, "%u ", (*x)++);
		dat_label(d, lab);
		dat_num(d, s.median / fio_mbs, true);
		dat_num(d, s.min / fio_mbs, true);
		dat_num(d, s.max / fio_mbs, true);
		fputc('\n', d->f);
		n++;
	}
	json_decref(threads);
	json_decref(low);
	json_decref(m);
	return n;
}

/* Bars of one fio job (rows of one strategy=fio-X, cache) against runs. */
static unsigned job_bars(struct dat *d, json_t *runs, json_t *fio, unsigned *x)
{
	json_t *first = json_array_get(fio, 0);
	const char *name = json_string_value(json_object_get(first, "strategy"));
	const char *of = json_string_value(json_object_get(first, "baseline_of"));
	json_t *same = rows_where(runs, "cache", json_object_get(first, "cache"));
	char list[256], *save = NULL;
	struct summary s;
	unsigned n = 0;

	rows_stat(fio, "mb_s", 1, &s);
	if (s.n && s.median > 0 && of) {
		snprintf(list, sizeof(list), "%s", of);
		for (char *tok = strtok_r(list, " ,", &save); tok;
		     tok = strtok_r(NULL, " ,", &save))
			n += bars_for(d, same, tok, name ? name : "fio", s.median, x);
	}
	json_decref(same);
	return n;
}

/* One block per data set; a data set without bars writes nothing. */
static unsigned dataset_block(struct dat *d, json_t *runs, json_t *fio, const char *ds,
			      unsigned *x)
{
	json_t *jobs = rows_distinct(fio, "config_id"), *id;
	unsigned n = 0, x0 = *x;
	struct dat b;
	size_t i;

	if (dat_begin(&b)) {
		json_decref(jobs);
		return 0;
	}
	json_array_foreach(jobs, i, id) {
		json_t *rows = rows_where(fio, "config_id", id);

		n += job_bars(&b, runs, rows, x);
		json_decref(rows);
	}
	fclose(b.f);
	if (n) {
		if (x0)
			fputs("\n\n", d->f);
		char lab[128];

		snprintf(lab, sizeof(lab), "data set %s", ds);
		dat_label(d, lab);
		fputs(" \"label\" ratio lo hi\n", d->f);
		fwrite(b.buf, 1, b.len, d->f);
	}
	free(b.buf);
	json_decref(jobs);
	return n;
}

static int build_fio(struct plot_ctx *c, char *why, size_t len)
{
	static const char *const need[] = { "dataset", "strategy", "mb_s", "cache",
					    "baseline_of", NULL };
	json_t *fio = rows_of_kind(c->rows, "fio"), *runs = rows_of_kind(c->rows, "run");
	json_t *dsets = NULL, *ds;
	unsigned n = 0, x = 0;
	struct dat d;
	size_t i;
	int ret = 0;

	if (!json_array_size(fio) || !json_array_size(runs)) {
		snprintf(why, len, json_array_size(fio) ? "no run rows beside the fio rows" :
			 "no fio baseline rows (profile key fio=1)");
		goto out;
	}
	if (rows_need(c, "fio", fio, need)) {
		ret = -ENODATA;
		goto out;
	}
	ret = dat_begin(&d);
	if (ret)
		goto out;
	dsets = datasets_by_size(fio);
	json_array_foreach(dsets, i, ds) {
		json_t *f = rows_where(fio, "dataset", ds), *r = rows_where(runs, "dataset", ds);
		char dn[96];

		n += dataset_block(&d, r, f, val_text(ds, dn, sizeof(dn)), &x);
		json_decref(f);
		json_decref(r);
	}
	if (n) {
		ret = dat_commit(c, &d, "fio", "fio",
				 "Strategy throughput / its fio baseline's (median, bars min..max)");
	} else {
		fclose(d.f);
		free(d.buf);
		snprintf(why, len, "no run rows match the fio baselines (data set, cache, strategy)");
	}
out:
	json_decref(dsets);
	json_decref(fio);
	json_decref(runs);
	return ret;
}

const struct figure fig_fio = { "fio",
	"each strategy's throughput as a ratio to its fio baseline", build_fio };
