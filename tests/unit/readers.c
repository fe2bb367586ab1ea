// SPDX-License-Identifier: MIT
/* The readers of results directories, fed fixture rows
 * (the .jsonl files of tests/unit/fixtures/) through their C entry points: report and
 * compare's loader (rrun_load, results_load inside), their tables, and
 * plot's row helpers. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plot/plot.h"
#include "report/report.h"
#include "scratch.h"
#include "unit.h"

/* A scratch directory for this binary's cases. */
UNIT_SCRATCH("readers")

/* A results directory scratch/NAME holding fixture FIXTURE as results.jsonl. */
static const char *dir_of(const char *name, const char *fixture)
{
	static char dir[PATH_MAX];
	const char *src = getenv("TOP");
	char cmd[3 * PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/%s", scratch, name);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && cp '%s/tests/unit/fixtures/%s' "
		 "'%s/results.jsonl'", dir, src ? src : ".", fixture, dir);
	return system(cmd) ? NULL : dir;
}

static double num(json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

UNIT(report_loader_leaves_out_rows_that_are_not_measurements)
{
	const char *dir = dir_of("bad", "some-not-measurements.jsonl");
	struct rrun r;
	double *v;
	json_t *s;
	size_t n;
	int ret;

	CHECK(dir, "fixture not copied");
	scratch_capture();
	ret = rrun_load(dir, &r);
	scratch_captured();
	CHECK(!ret, "rrun_load: %d", ret);
	CHECK(json_array_size(r.rows) == 2, "%zu rows kept, want 2 of 4",
	      json_array_size(r.rows));
	CHECK(json_array_size(r.sum) == 1, "%zu summaries", json_array_size(r.sum));
	s = json_array_get(r.sum, 0);
	CHECK(json_integer_value(json_object_get(s, "n")) == 2 && num(s, "min") == 0.5 &&
	      num(s, "max") == 0.7 && num(s, "median") > 0.5999 && num(s, "median") < 0.6001,
	      "summary n %lld min %g max %g median %g",
	      json_integer_value(json_object_get(s, "n")), num(s, "min"), num(s, "max"),
	      num(s, "median"));
	n = rrun_samples(&r, "big/stream/t1", &v);
	CHECK(n == 2 && v[0] == 0.5 && v[1] == 0.7, "samples: %zu", n);
	free(v);
	CHECK(!strcmp(rrun_name(&r), "fixture"), "name %s", rrun_name(&r));
	rrun_free(&r);
	return 0;
}

/* Rows another iostrat, another bench or nobody wrote (schema, bench,
 * kind, role): each named at its first line, once a kind, and left out. */
UNIT(foreign_rows_are_named_once_each_and_left_out)
{
	const char *dir = dir_of("foreign", "foreign-rows.jsonl"), *err;
	struct rrun r;
	int ret;

	CHECK(dir, "fixture not copied");
	scratch_capture();
	ret = rrun_load(dir, &r);
	err = scratch_captured();
	CHECK(!ret, "rrun_load: %d", ret);
	CHECK(json_array_size(r.rows) == 2, "%zu rows kept, want 2 of 8: %s",
	      json_array_size(r.rows), err);
	CHECK(strstr(err, "results.jsonl:3: ") && strstr(err, "schema 2"), "%s", err);
	CHECK(strstr(err, "results.jsonl:4: ") && strstr(err, "bench \"another\", not \"fixture\""),
	      "%s", err);
	CHECK(strstr(err, "results.jsonl:5: ") && strstr(err, "kind \"frob\""), "%s", err);
	CHECK(strstr(err, "results.jsonl:6: ") && strstr(err, "role \"warmup\""), "%s", err);
	CHECK(!strstr(err, "results.jsonl:7: ") && !strstr(err, "results.jsonl:8: "),
	      "a kind named twice: %s", err);
	rrun_free(&r);
	return 0;
}

/* The directory's bench is the one env.json names, not its first row's:
 * a row of another bench appended before every row of its own is the one
 * left out. */
UNIT(env_json_names_the_bench_of_the_directory)
{
	const char *dir = dir_of("envbench", "foreign-rows.jsonl"), *err;
	char p[PATH_MAX];
	struct rrun r;
	FILE *f;

	CHECK(dir, "fixture not copied");
	snprintf(p, sizeof(p), "%s/env.json", dir);
	f = fopen(p, "w");
	CHECK(f, "env.json");
	fputs("{\"schema\": 1, \"profile\": \"another\"}\n", f);
	fclose(f);
	scratch_capture();
	CHECK(!rrun_load(dir, &r), "rrun_load");
	err = scratch_captured();
	CHECK(json_array_size(r.rows) == 1, "%zu rows kept, want 1: %s",
	      json_array_size(r.rows), err);
	CHECK(strstr(err, "results.jsonl:1: ") && strstr(err, "bench \"fixture\", not \"another\""),
	      "%s", err);
	rrun_free(&r);
	return 0;
}

static const struct rtable *table_titled(const struct rdoc *d, const char *title)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->t[i].title, title))
			return &d->t[i];
	return NULL;
}

UNIT(report_table_is_of_the_good_rows_only)
{
	const char *dir = dir_of("bad-report", "some-not-measurements.jsonl");
	const struct rtable *t;
	struct rdoc d;
	struct rrun r;

	CHECK(dir, "fixture not copied");
	scratch_capture();
	CHECK(!rrun_load(dir, &r), "rrun_load");
	scratch_captured();
	rdoc_init(&d);
	report_build(&r, &d);
	t = table_titled(&d, "configurations (kind run)");
	CHECK(t, "no table 'configurations (kind run)'");
	CHECK(json_array_size(t->rows) == 1, "%zu rows", json_array_size(t->rows));
	CHECK(json_integer_value(rtable_cell(t, 0, "n")) == 2 &&
	      json_number_value(rtable_cell(t, 0, "min_s")) == 0.5 &&
	      json_number_value(rtable_cell(t, 0, "max_s")) == 0.7, "n %lld min_s %g max_s %g",
	      json_integer_value(rtable_cell(t, 0, "n")), json_number_value(rtable_cell(t, 0, "min_s")),
	      json_number_value(rtable_cell(t, 0, "max_s")));
	rdoc_free(&d);
	rrun_free(&r);
	return 0;
}

UNIT(compare_median_is_of_the_good_rows_only)
{
	const char *a = dir_of("a", "compare-a.jsonl"), *b;
	struct rrun runs[2];
	struct rdoc d;
	json_t *m;

	CHECK(a && !rrun_load(a, &runs[0]), "A");
	b = dir_of("b", "compare-b.jsonl");
	scratch_capture();
	CHECK(b && !rrun_load(b, &runs[1]), "B");
	scratch_captured();
	rdoc_init(&d);
	compare_build(runs, 2, &d, false);
	CHECK(d.n && json_array_size(d.t[0].rows) == 1, "first table: %zu rows",
	      d.n ? json_array_size(d.t[0].rows) : 0);
	m = rtable_cell(&d.t[0], 0, "B_median");
	CHECK(json_is_number(m) && json_number_value(m) > 2.05 - 1e-9 &&
	      json_number_value(m) < 2.05 + 1e-9, "B_median %g, want 2.05 (of 2.0 and 2.1)",
	      json_number_value(m));
	rdoc_free(&d);
	rrun_free(&runs[0]);
	rrun_free(&runs[1]);
	return 0;
}

#define ROWS "[{\"kind\":\"run\",\"config_id\":\"a\",\"threads\":4,\"error\":null}," \
	"{\"config_id\":\"b\",\"threads\":1}," \
	"{\"kind\":\"run\",\"config_id\":\"c\",\"threads\":2,\"error\":\"EIO\"}," \
	"{\"kind\":\"sweep\",\"config_id\":\"d\",\"threads\":1,\"error\":null}]"

UNIT(plot_run_rows_take_rows_without_kind_and_leave_errors_out)
{
	json_t *rows = json_loads(ROWS, 0, NULL), *runs, *sweeps;

	CHECK(rows, "fixture");
	runs = rows_of_kind(rows, "run");
	sweeps = rows_of_kind(rows, "sweep");
	CHECK(json_array_size(runs) == 2, "%zu run rows", json_array_size(runs));
	CHECK(!strcmp(json_string_value(json_object_get(json_array_get(runs, 1),
							"config_id")), "b"), "no-kind row");
	CHECK(json_array_size(sweeps) == 1, "%zu sweep rows", json_array_size(sweeps));
	json_decref(runs);
	json_decref(sweeps);
	json_decref(rows);
	return 0;
}

UNIT(plot_distinct_numbers_ascend_and_where_matches_equal_values)
{
	json_t *rows = json_loads(ROWS, 0, NULL), *d, *one = json_real(1.0), *w;

	CHECK(rows, "fixture");
	d = rows_distinct(rows, "threads");
	CHECK(json_array_size(d) == 3 && json_number_value(json_array_get(d, 0)) == 1 &&
	      json_number_value(json_array_get(d, 1)) == 2 &&
	      json_number_value(json_array_get(d, 2)) == 4, "distinct threads");
	w = rows_where(rows, "threads", one); /* 1.0 matches the integer 1 */
	CHECK(json_array_size(w) == 2, "%zu rows with threads 1", json_array_size(w));
	json_decref(w);
	json_decref(d);
	json_decref(one);
	json_decref(rows);
	return 0;
}
