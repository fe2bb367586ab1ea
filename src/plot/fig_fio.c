// SPDX-License-Identifier: MIT
/*
 * Figure 4, strategy vs fio baseline: per data set, each strategy's
 * throughput (median MB/s) divided by the median MB/s of the fio job that
 * mirrors it (kind=fio rows, baseline_of = "stream buffer", "uring+direct"
 * ...), same data set and cache state, at the strategy's lowest work level,
 * one bar per thread count.  1.0 = as fast as fio.
 *
 * fio.dat: one block per data set; header "DATASET" "label" ratio lo hi
 * colour fastest; lines: x "big: stream t1 w0 / fio-seq-psync" ratio lo hi
 * colour fastest, where lo and hi are the strategy's min and max MB/s over
 * the same fio median, colour the strategy's linetype (palette.gp) and
 * fastest the ratio again on the bar of the highest median MB/s of the
 * data set (the fastest configuration), NaN elsewhere.  The bars are the
 * like-for-like figure (the mirror job); the machine's limits are the
 * limits figure's (fig_limits.c).  A --dontcache run has no bar: no fio
 * job mirrors it (fio_can_mirror; fio runs cached).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fio/fio.h"
#include "lib/util.h"
#include "plot.h"

/* Run rows a baseline token ("uring", "uring+direct") stands for: those
 * whose own token (fio_mirror_token) is tok. */
static json_t *mirrored_runs(json_t *runs, const char *tok)
{
	char name[64], mine[128];
	json_t *a, *out = json_array(), *r, *nm;
	size_t i;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(tok, "+"), tok);
	nm = json_text(name);
	a = rows_where(runs, RC_STRATEGY, nm);
	json_decref(nm);
	json_array_foreach(a, i, r) {
		if (!fio_can_mirror(r))
			continue;
		fio_mirror_token(name, json_is_true(json_object_get(r, "direct")), mine,
				 sizeof(mine));
		if (!strcmp(mine, tok))
			json_array_append(out, r);
	}
	json_decref(a);
	return out;
}

/* Keep only the rows at the lowest work level (the I/O-bound case). */
static json_t *lowest_work(json_t *rows)
{
	json_t *w = rows_distinct(rows, RC_WORK);
	json_t *out = rows_where(rows, RC_WORK, json_array_get(w, 0));

	json_decref(w);
	return out;
}

/* The fastest bar of a block: found on a first pass, marked on the second. */
struct fastest {
	double mbs;   /* highest median MB/s seen */
	unsigned x;   /* its bar */
	bool marking; /* second pass: mark bar x */
	struct plot_ctx *c;
	bool decided; /* the verdict names bar x's strategy the winner of its cell */
};

/* Runs whose I/O size is the fio job's (fio_bs_for, as the report pairs
 * them): stream beside the 64 KiB job, buffer beside the 1 MiB one. */
static json_t *same_bs(json_t *runs, const char *strategy, long long bs)
{
	json_t *out = json_array(), *r;
	size_t i;

	json_array_foreach(runs, i, r) {
		uint64_t want = fio_bs_for(strategy,
			(uint64_t)json_number_value(json_object_get(r, "chunk")),
			(uint64_t)json_number_value(json_object_get(r, "bufsize")));

		if (bs <= 0 || want == (uint64_t)bs)
			json_array_append(out, r);
	}
	return out;
}

static unsigned bars_for(struct dat *d, json_t *runs, const char *tok,
			 const char *fio_name, double fio_mbs, unsigned *x,
			 struct fastest *fa, const char *ds, long long bs)
{
	json_t *m0 = mirrored_runs(runs, tok), *m, *low;
	json_t *threads, *t;
	unsigned n = 0;
	char name[64];
	size_t i;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(tok, "+"), tok);
	m = same_bs(m0, name, bs);
	json_decref(m0);
	low = lowest_work(m);
	threads = rows_distinct(low, RC_THREADS);

	json_array_foreach(threads, i, t) {
		json_t *r = rows_where(low, RC_THREADS, t);
		struct summary s;
		char lab[200], tb[32], wb[32];

		rows_stat(r, RC_MB_S, 1, &s);
		json_decref(r);
		if (!s.n)
			continue;
		snprintf(lab, sizeof(lab), "%s: %s t%s w%s / %s", ds, tok, val_text(t, tb, sizeof(tb)),
			 val_text(json_object_get(json_array_get(low, 0), RC_WORK), wb, sizeof(wb)),
			 fio_name);
		fprintf(d->f, "%u ", (*x)++);
		dat_label(d, lab);
		dat_num(d, s.median / fio_mbs, true);
		dat_num(d, s.min / fio_mbs, true);
		dat_num(d, s.max / fio_mbs, true);
		dat_colour(d, name, PLOT_COLOURS);
		dat_num(d, s.median / fio_mbs, fa->marking && fa->decided && *x - 1 == fa->x);
		fputc('\n', d->f);
		if (!fa->marking && s.median > fa->mbs) {
			fa->mbs = s.median;
			fa->x = *x - 1;
			fa->decided = plot_decided(fa->c, ds, NULL, json_object_get(json_array_get(
						   low, 0), RC_WORK), t, name);
		}
		n++;
	}
	json_decref(threads);
	json_decref(low);
	json_decref(m);
	return n;
}

/* One fio job's bars so far, for each strategy its baseline_of names. */
struct job_bars {
	struct dat *d;
	json_t *same;
	const char *name, *ds;
	double fio_mbs;
	unsigned *x, n;
	struct fastest *fa;
	long long bufsize;
};

static int of_bars(char *strategy, void *ctx)
{
	struct job_bars *j = ctx;

	j->n += bars_for(j->d, j->same, strategy, j->name, j->fio_mbs, j->x, j->fa,
			 j->ds, j->bufsize);
	return 0;
}

/* Bars of one fio job (rows of one strategy=fio-X, cache) against runs. */
static unsigned job_bars(struct dat *d, json_t *runs, json_t *fio, unsigned *x,
			 struct fastest *fa, const char *ds)
{
	json_t *first = json_array_get(fio, 0);
	const char *name = json_string_value(json_object_get(first, RC_STRATEGY));
	const char *of = json_string_value(json_object_get(first, "baseline_of"));
	struct job_bars j = {
		d, rows_where(runs, "cache", json_object_get(first, "cache")),
		name ? name : "fio", ds, 0, x, 0, fa,
		(long long)json_number_value(json_object_get(first, "bufsize")),
	};
	struct summary s;

	rows_stat(fio, RC_MB_S, 1, &s);
	j.fio_mbs = s.median;
	if (s.n && s.median > 0 && of)
		words_each(of, " ,", of_bars, &j);
	json_decref(j.same);
	return j.n;
}

/* The bars of a data set into b (x counting on from *x). */
static unsigned block_bars(struct dat *b, json_t *runs, json_t *fio, json_t *jobs,
			   unsigned *x, struct fastest *fa, const char *ds)
{
	unsigned n = 0;
	json_t *id;
	size_t i;

	json_array_foreach(jobs, i, id) {
		json_t *rows = rows_where(fio, RC_CONFIG_ID, id);

		n += job_bars(b, runs, rows, x, fa, ds);
		json_decref(rows);
	}
	return n;
}

/* One block per data set; a data set without bars writes nothing.  Two
 * passes: the first finds the fastest bar, the second marks it. */
static unsigned dataset_block(struct plot_ctx *c, struct dat *d, json_t *runs, json_t *fio,
			      const char *ds, unsigned *x)
{
	json_t *jobs = rows_distinct(fio, RC_CONFIG_ID);
	struct fastest fa = { -1, 0, false, c, false };
	unsigned n = 0, x0 = *x;
	struct dat b;

	if (dat_begin(&b)) {
		json_decref(jobs);
		return 0;
	}
	block_bars(&b, runs, fio, jobs, x, &fa, ds);
	fclose(b.f);
	free(b.buf);
	*x = x0;
	fa.marking = true;
	if (dat_begin(&b)) {
		json_decref(jobs);
		return 0;
	}
	n = block_bars(&b, runs, fio, jobs, x, &fa, ds);
	fclose(b.f);
	if (n) {
		char lab[128];

		dat_block(d, x0);
		snprintf(lab, sizeof(lab), "data set %s", ds);
		dat_label(d, lab);
		fputs(" \"label\" ratio lo hi colour fastest\n", d->f);
		fwrite(b.buf, 1, b.len, d->f);
	}
	free(b.buf);
	json_decref(jobs);
	return n;
}

static const char *const need[] = { RC_DATASET, RC_STRATEGY, RC_MB_S, "cache",
				    "baseline_of", NULL };

/* The fio rows, when there are run rows beside them. */
static int beside_runs(struct plot_ctx *c, json_t **rows, char *why, size_t len)
{
	json_t *runs = rows_of_kind(c->rows, "run");
	int ret = 0;

	if (!json_array_size(runs)) {
		snprintf(why, len, "no run rows beside the fio rows");
		json_decref(*rows);
		*rows = NULL;
	} else if (rows_need(c, "fio", *rows, need))
		ret = -ENODATA;
	json_decref(runs);
	return ret;
}

static size_t fio_write(const struct fig_group *g, struct dat *d)
{
	json_t *runs = rows_of_kind(g->c->rows, "run"), *dsets = datasets_by_size(g->rows), *ds;
	unsigned n = 0, x = 0;
	size_t i;

	json_array_foreach(dsets, i, ds) {
		json_t *f = rows_where(g->rows, RC_DATASET, ds), *r = rows_where(runs, RC_DATASET, ds);
		char dn[96];

		n += dataset_block(g->c, d, r, f, val_text(ds, dn, sizeof(dn)), &x);
		json_decref(f);
		json_decref(r);
	}
	json_decref(dsets);
	json_decref(runs);
	return n;
}

const struct fig_kind fig_fio = {
	.kind = "fio", .none = "no fio baseline rows (profile key fio=1)", .select = beside_runs,
	.title = "Strategy throughput / its fio mirror job's (like for like; 1.0 = fio's pace, "
		 "the machine's limits: the limits figure)",
	.write = fio_write,
	.empty = "no run rows match the fio baselines (data set, cache, strategy)",
};
