// SPDX-License-Identifier: MIT
/* The verdict's headline (docs/verdict.md "The headline"): one table per cell -- strategy,
 * median with its interval, x fastest with its interval, decision, limited by -- and one
 * sentence ending in the next step the rows show. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/headline.h"
#include "report/verdict.h"
#include "results/results.h"
#include "results/stats_math.h"
#include "unit.h"

/* A run row of round k: elapsed e seconds, cpu seconds of user time. */
static json_t *row(const char *strat, double e, double cpu, int k)
{
	char id[128];

	snprintf(id, sizeof(id), "big/%s/t1/w0/cold/fsync=file", strat);
	return json_pack("{s:s,s:s,s:s,s:s,s:i,s:i,s:f,s:f,s:f,s:i,s:f,s:f,s:s,s:s,s:o,s:i,s:i}",
			 "kind", "run", "config_id", id, "dataset", "big", "strategy", strat,
			 "threads", 1, "work", 0, "elapsed_s", e, "user_s", cpu, "sys_s", 0.0,
			 "maxrss_kb", 10240, "bytes_in", 100e6, "mb_s", 100e6 / e / 1e6,
			 "cache", "cold", "fsync", "file", "error", json_null(), "round", k,
			 "rep", k);
}

/* Rounds of uring against stream, and the headline of their rows. */
struct race {
	json_t *rows;
	struct rrun r;
	struct rdoc d;
};

/* Round k: uring in ue seconds with uc of CPU, stream in se with sc. */
static void race_round(struct race *x, int k, double ue, double uc, double se, double sc)
{
	if (!x->rows)
		x->rows = json_array();
	json_array_append_new(x->rows, row("uring", ue, uc, k));
	json_array_append_new(x->rows, row("stream", se, sc, k));
}

/* The headline of the rows (two cpus): the document's first table. */
static const struct rtable *race_headline(struct race *x)
{
	x->r.rows = x->rows;
	x->r.sum = results_summarize(x->rows);
	x->r.env = json_pack("{s:i}", "cpus", 2);
	rdoc_init(&x->d);
	report_verdict(&x->r, &x->d);
	return x->d.n ? &x->d.t[0] : NULL;
}

static void race_done(struct race *x)
{
	rdoc_free(&x->d);
	json_decref(x->rows);
	json_decref(x->r.sum);
	json_decref(x->r.env);
}

static const char *cell(const struct rtable *t, size_t i, const char *col)
{
	return json_string_value(rtable_cell(t, i, col)) ?: "";
}

UNIT(median_interval_is_order_statistics)
{
	double v[10] = { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 }, lo, hi;

	/* n = 10: P(B <= 1) = 11/1024 <= 2.5% < P(B <= 2) = 56/1024: x(2), x(9) */
	CHECK(!median_ci(v, 10, VERDICT_LEVEL, &lo, &hi) && lo == 2 && hi == 9, "%g-%g", lo, hi);
	CHECK(median_ci(v, 5, VERDICT_LEVEL, &lo, &hi) == -EDOM && isnan(lo), "5 values: none");
	return 0;
}

/* uring 1.3x faster than stream in each of 8 rounds: the table comes first,
 * uring "winner", stream "behind (1.31x)", the sentence names both. */
UNIT(winner_headline_comes_first_with_one_row_per_strategy)
{
	const double q[] = { 1.30, 1.31, 1.32, 1.29, 1.33, 1.28, 1.34, 1.305 };
	struct race x = { 0 };
	const struct rtable *t;

	for (int k = 0; k < 8; k++) {
		race_round(&x, k + 1, 1.0 + k * 0.01, 0.2, (1.0 + k * 0.01) * q[k], 0.2);
	}
	t = race_headline(&x);
	CHECK(t && !strcmp(t->title, "headline: big (100 MB), W=0, 1 thread"), "title %s",
	      t ? t->title : "none");
	CHECK(json_array_size(t->rows) == 2, "two strategies");
	CHECK(!strcmp(cell(t, 0, "strategy"), "uring") && !strcmp(cell(t, 0, "decision"), "winner"),
	      "winner row: %s %s", cell(t, 0, "strategy"), cell(t, 0, "decision"));
	CHECK(!strcmp(cell(t, 1, "decision"), "behind (1.31x)"), "%s", cell(t, 1, "decision"));
	CHECK(!strncmp(cell(t, 1, "x fastest [CI]"), "1.31x [1.27-1.35]", 17), "%s",
	      cell(t, 1, "x fastest [CI]"));
	CHECK(strstr(cell(t, 0, "median s [95% CI]"), " ["), "median interval: %s",
	      cell(t, 0, "median s [95% CI]"));
	CHECK(!strcmp(cell(t, 0, "limited by"), "I/O-bound"), "%s", cell(t, 0, "limited by"));
	CHECK(t->note && !strncmp(t->note, "uring wins: 1.31x stream [1.27-1.35]", 36), "%s",
	      t->note);
	race_done(&x);
	return 0;
}

/* An interval end just above 1 keeps its side: "[1.004-..." in the table
 * and the sentence, never "[1.00-..." (the verdict's own ends). */
UNIT(interval_end_near_1_shows_its_side)
{
	const double q[] = { 1.02, 1.08, 1.02, 1.08, 1.02, 1.08, 1.02, 1.08, 1.02, 1.08 };
	struct race x = { 0 };
	const struct rtable *t;

	for (int k = 0; k < 10; k++) {
		race_round(&x, k + 1, 1.0 + k * 0.01, 0.2, (1.0 + k * 0.01) * q[k], 0.2);
	}
	t = race_headline(&x);
	CHECK(t && json_array_size(t->rows) == 2, "two strategies");
	printf("  %s; %s\n", cell(t, 1, "x fastest [CI]"), t->note);
	CHECK(strchr(cell(t, 1, "x fastest [CI]"), '-') - strchr(cell(t, 1, "x fastest [CI]"), '[') >= 6,
	      "the lower end with 3 decimals: %s", cell(t, 1, "x fastest [CI]"));
	CHECK(!strstr(t->note, "[1.00-"), "%s", t->note);
	race_done(&x);
	return 0;
}

/* A CPU-bound fastest on one thread of two CPUs: the sentence ends in
 * "try -D threads=2". */
UNIT(cpu_bound_cell_with_idle_cpus_says_try_more_threads)
{
	struct race x = { 0 };
	const struct rtable *t;

	for (int k = 0; k < 8; k++) {
		race_round(&x, k + 1, 1.0, 0.95, 1.5 + k * 0.01, 1.4);
	}
	t = race_headline(&x);
	CHECK(t && !strcmp(cell(t, 0, "limited by"), "CPU-bound"), "bound");
	CHECK(strstr(t->note, "try -D threads=2."), "%s", t->note);
	race_done(&x);
	return 0;
}

/* Alternating leaders: no winner, both contenders named, more rounds asked. */
UNIT(undecided_headline_names_the_contenders)
{
	struct race x = { 0 };
	const struct rtable *t;

	for (int k = 0; k < 8; k++) {
		race_round(&x, k + 1, 1.0 + (k % 2) * 0.2, 0.2, 1.0 + (k % 2 ? 0 : 0.21), 0.2);
	}
	t = race_headline(&x);
	CHECK(t && !strcmp(cell(t, 1, "decision"), "undecided"), "%s", cell(t, 1, "decision"));
	CHECK(strstr(t->note, "no winner yet between ") && strstr(t->note, "uring") &&
	      strstr(t->note, "stream") && strstr(t->note, "more rounds"), "%s", t->note);
	race_done(&x);
	return 0;
}
