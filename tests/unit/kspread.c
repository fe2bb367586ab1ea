// SPDX-License-Identifier: MIT
/* The kernel view's spread (src/report/kspread.c): the rule a probe
 * figure must meet to be quoted, the kernel view's cells and the
 * verdict's words over several traced repetitions. */
#include <math.h>
#include <string.h>

#include "report/report.h"
#include "report/verdict.h"
#include "results/results.h"
#include "lib/util.h"
#include "unit.h"

#define ID "big/uring/t1/w0/cold/fsync=file"

/* A run row of ID, timed (seq < 0: no probe figures) or traced. */
static json_t *row(const char *role, double seq, double req_kb, double hit)
{
	json_t *r = json_pack("{s:s,s:s,s:s,s:s,s:i,s:i,s:f,s:f,s:f,s:i,s:f,s:s,s:s,s:o}",
			      "kind", "run", "config_id", ID, "dataset", "big",
			      "strategy", "uring", "threads", 1, "work", 0, "elapsed_s", 1.0,
			      "user_s", 0.05, "sys_s", 0.15, "maxrss_kb", 10240,
			      "bytes_in", 100e6, "cache", "cold", "role", role,
			      "error", json_null());

	if (!r)
		abort();
	json_object_set_new(r, "fsync", json_string("file"));
	json_object_set_new(r, "traced", json_boolean(seq >= 0));
	if (seq >= 0) {
		json_object_set_new(r, "seq_pct", json_real(seq));
		json_object_set_new(r, "seq_pct_read", json_real(seq));
		json_object_set_new(r, "req_p50_kb", json_real(req_kb));
		json_object_set_new(r, "pc_hit_ratio", json_real(hit));
	}
	return r;
}

/* 3 timed rows and the traced ones of seq[], req[], hit[]. */
static json_t *rows_of(const double *seq, const double *req, const double *hit, int n)
{
	json_t *rows = json_array();

	for (int i = 0; i < 3; i++)
		json_array_append_new(rows, row("timed", -1, 0, 0));
	for (int i = 0; i < n; i++)
		json_array_append_new(rows, row("traced", seq[i], req[i], hit[i]));
	return rows;
}

/* The spread of three traced repetitions' values. */
static void spread(double a, double b, double c, struct kspread *ks)
{
	double v[] = { a, b, c };

	kspread_from(v, 3, ks);
}

/* Three traced repetitions of a column and what the column's rule says:
 * a share (%) within 15 points, a ratio within 0.15, a size within 25%
 * of its median; a probe's own column by its declared unit (14-26% is
 * 12 points, not 50% of the median); an unknown unit, the relative rule. */
static const struct rule_row {
	const char *column;
	double v[3];
	enum kspread_say want;
	const char *what;
} rule_rows[] = {
	{ "seq_pct", { 80, 95, 88 }, KS_STEADY, "15 points" },
	{ "seq_pct", { 49, 76, 60 }, KS_VARIES, "27 points" },
	{ "seq_pct_read", { 14.26, 17.59, 26.08 }, KS_STEADY, "a probe's share, 12 points" },
	{ "seq_pct_write", { 14.26, 17.59, 26.08 }, KS_STEADY, "a probe's share, 12 points" },
	{ "no_such_column", { 14.26, 17.59, 26.08 }, KS_VARIES, "unknown unit" },
	{ "pc_hit_ratio", { 0.0, 0.1, 0.15 }, KS_STEADY, "0.15" },
	{ "pc_hit_ratio", { 0.0, 0.1, 0.5 }, KS_VARIES, "0.5" },
	{ "req_p50_kb", { 800, 1000, 1250 }, KS_STEADY, "-20% +25%" },
	{ "req_p50_kb", { 12, 896, 1024 }, KS_VARIES, "12 to 1024" },
	{ "req_p50_kb", { 0, 0, 0 }, KS_STEADY, "all zero" },
};

UNIT(each_column_is_judged_by_its_units_rule)
{
	for (size_t i = 0; i < ARRAY_SIZE(rule_rows); i++) {
		const struct rule_row *r = &rule_rows[i];
		struct kspread ks;

		spread(r->v[0], r->v[1], r->v[2], &ks);
		CHECK(kspread_rule(r->column, &ks) == r->want, "%s %g %g %g (%s): %d",
		      r->column, r->v[0], r->v[1], r->v[2], r->what,
		      (int)kspread_rule(r->column, &ks));
	}
	return 0;
}

UNIT(three_repetitions_give_their_median_and_range)
{
	struct kspread ks;

	spread(80, 95, 88, &ks);
	CHECK(ks.n == 3 && ks.med == 88 && ks.lo == 80 && ks.hi == 95, "summary");
	return 0;
}

UNIT(fewer_than_3_repetitions_leave_the_spread_unknown)
{
	double v[] = { 50, 50 };
	struct kspread ks;

	kspread_from(v, 2, &ks);
	CHECK(kspread_rule("seq_pct", &ks) == KS_FEW, "2: few");
	kspread_from(v, 0, &ks);
	CHECK(kspread_rule("seq_pct", &ks) == KS_NONE && isnan(ks.med), "none");
	return 0;
}

UNIT(verdict_says_varies_with_the_range_and_n)
{
	struct kspread all, rd, wr = { 0, NAN, NAN, NAN };
	char buf[200];

	spread(49, 76, 60, &all);
	rd = all;
	verdict_seq_spread_text(&all, &rd, &wr, buf, sizeof(buf));
	CHECK(!strcmp(buf, "reads vary: 49-76% sequential over 3 traced repetitions"),
	      "%s", buf);
	spread(95, 99, 97, &rd);
	verdict_seq_spread_text(&all, &rd, &wr, buf, sizeof(buf));
	CHECK(!strcmp(buf, "reads 97% sequential"), "%s", buf);
	kspread_from((double[]){ 49 }, 1, &rd);
	verdict_seq_spread_text(&all, &rd, &wr, buf, sizeof(buf));
	CHECK(!strcmp(buf, "reads 49% sequential (partly random; 1 traced repetition, "
		      "spread unknown)"), "%s", buf);
	spread(0.1, 0.6, 0.3, &rd);
	verdict_hit_spread_text(&rd, "cold", buf, sizeof(buf));
	CHECK(!strcmp(buf, "page-cache hit ratio varies: 10-60% cold over 3 traced "
		      "repetitions"), "%s", buf);
	return 0;
}

/* The traced rows, not the timed ones (their figures are null). */
UNIT(kernel_view_gives_median_range_and_n_of_the_traced_rows)
{
	const double seq[] = { 49, 76, 60 }, req[] = { 1000, 1024, 900 }, hit[] = { 0, 0, 0 };
	struct rrun r = { .rows = rows_of(seq, req, hit, 3) };
	const struct rtable *t;
	struct rdoc d;
	json_t *v;

	r.sum = results_summarize(r.rows);
	rdoc_init(&d);
	report_kernel_view(&r, &d);
	t = rdoc_find(&d, "kernel view (eBPF, traced runs)");
	CHECK(t, "no kernel view");
	v = rtable_cell(t, 0, "traced_n");
	CHECK(json_integer_value(v) == 3, "traced_n");
	v = rtable_cell(t, 0, "seq_pct");
	CHECK(!strcmp(json_string_value(v) ?: "", "60 (49-76) varies"), "seq_pct %s",
	      json_string_value(v));
	v = rtable_cell(t, 0, "req_p50_kb");
	CHECK(!strcmp(json_string_value(v) ?: "", "1000 (900-1024)"), "req %s",
	      json_string_value(v));
	rdoc_free(&d);
	json_decref(r.sum);
	json_decref(r.rows);
	return 0;
}

UNIT(verdict_cell_quotes_only_steady_figures)
{
	const double seq[] = { 49, 76, 60 }, req[] = { 1, 1, 1 }, hit[] = { 0, 0.01, 0 };
	struct rrun r = { .rows = rows_of(seq, req, hit, 3) };
	json_t *cells;
	const char *text;

	r.sum = results_summarize(r.rows);
	r.env = json_pack("{s:i}", "cpus", 2);
	cells = verdict_cells(&r);
	text = json_string_value(json_object_get(json_array_get(cells, 0), "text"));
	CHECK(text, "no sentence");
	CHECK(strstr(text, "reads vary: 49-76% sequential over 3 traced repetitions"),
	      "%s", text);
	CHECK(strstr(text, "page-cache hit ratio 0% cold (read from the device)"), "%s", text);
	CHECK(!strstr(text, "60%"), "the median of a varying share is not quoted: %s", text);
	CHECK(json_integer_value(json_object_get(json_array_get(cells, 0), "traced_n")) == 3,
	      "traced_n");
	json_decref(cells);
	json_decref(r.sum);
	json_decref(r.env);
	json_decref(r.rows);
	return 0;
}
