// SPDX-License-Identifier: MIT
/* The report's "a run's whole cost" table (src/report/cost.c,
 * docs/memory.md): per run configuration the medians of its timed
 * repetitions that completed, a column no row has left empty, the
 * sources the rows name in the note; no table without kthread_s. */
#include <math.h>
#include <string.h>

#include "report/report.h"
#include "results/results.h"
#include "unit.h"

#define TITLE "a run's whole cost"

/* A row of config id: CPU user, kthread k (< 0: no kthread_s), device
 * bytes read rd (< 0: no dev columns). */
static json_t *row(const char *id, const char *role, double user, double k, double rd,
		   const char *error)
{
	json_t *r = json_pack("{s:s, s:s, s:s, s:i, s:s, s:f, s:f, s:f, s:f, s:f, s:I, s:I, "
			      "s:I, s:s, s:s, s:f, s:s, s:f, s:s?}",
			      "kind", "run", "config_id", id, "role", role, "threads", 1,
			      "strategy", "stream", "elapsed_s", 1.0, "user_s", user,
			      "sys_s", 0.5, "bytes_in", 2e9, "psi_io_some_us", user * 1000,
			      "pgscan", (json_int_t)(user * 10), "pgsteal", (json_int_t)user,
			      "workingset_refault", (json_int_t)3, "reclaim_source",
			      "cgroup v1 (refaults), system (pgscan, pgsteal)", "psi_source",
			      "system", "mem_peak_bytes", user * 1048576, "cgroup", "v1",
			      "psi_mem_some_us", 0.0, "error", error);

	if (!r)
		abort(); /* the format and the arguments disagree */
	if (k >= 0)
		json_object_set_new(r, "kthread_s", json_real(k));
	if (rd >= 0) {
		json_object_set_new(r, "dev_read_bytes", json_real(rd));
		json_object_set_new(r, "dev_write_bytes", json_real(rd / 2));
		json_object_set_new(r, "dev_source", json_string("system /proc/diskstats sda"));
	}
	return r;
}

/* The table of rows (NULL when the report has none), into d. */
static const struct rtable *cost_table(json_t *rows, struct rdoc *d)
{
	struct rrun r = { .rows = rows, .sum = results_summarize(rows) };

	rdoc_init(d);
	report_cost(&r, d);
	json_decref(r.sum);
	return rdoc_find(d, TITLE);
}

static bool near(json_t *v, double want)
{
	return json_is_number(v) && fabs(json_number_value(v) - want) < 1e-9;
}

#define NEAR(t, r, col, want) \
	CHECK(near(rtable_cell(t, r, col), want), "%s %g, want %g", col, \
	      json_number_value(rtable_cell(t, r, col)), (double)(want))

static json_t *fixture(void)
{
	json_t *rows = json_array();

	/* a: user 1, 2, 3 s; kthread 0.5, 1, 1.5 s; the traced repetition
	 * and the failed one would move every median */
	json_array_append_new(rows, row("a", "timed", 1, 0.5, 1e6, NULL));
	json_array_append_new(rows, row("a", "timed", 3, 1.5, 3e6, NULL));
	json_array_append_new(rows, row("a", "traced", 90, 90, 9e9, NULL));
	json_array_append_new(rows, row("a", "timed", 2, 1.0, 2e6, NULL));
	json_array_append_new(rows, row("a", "timed", 80, 80, 8e9, "EIO"));
	/* b: no kthread_s and no device figures */
	json_array_append_new(rows, row("b", "timed", 1, -1, -1, NULL));
	json_array_append_new(rows, row("b", "timed", 1, -1, -1, NULL));
	return rows;
}

/* The fixture's rows and their table, once for the cases that read it. */
static json_t *fix_rows;
static struct rdoc fix_doc;
static const struct rtable *fix_t;

static int fixture_table(void)
{
	fix_rows = fixture();
	fix_t = cost_table(fix_rows, &fix_doc);
	return 0;
}

static int fixture_free(int failed)
{
	rdoc_free(&fix_doc);
	json_decref(fix_rows);
	return failed;
}

UNIT_FIXTURE(fixture_table, fixture_free)

UNIT(cost_is_the_median_of_timed_repetitions_that_completed)
{
	const struct rtable *t = fix_t;

	CHECK(t, "no table");
	CHECK(json_array_size(t->rows) == 2, "%zu rows", json_array_size(t->rows));
	CHECK(!strcmp(json_string_value(rtable_cell(t, 0, "config_id")), "a"), "first row");
	NEAR(t, 0, "cpu_s", 2.5);
	NEAR(t, 0, "kthread_s", 1.0);
	NEAR(t, 0, "outside_pct", 100 / 3.5);
	NEAR(t, 0, "cpu_s_per_gb", 3.5 / 2); /* user + sys + kthread over 2 GB */
	NEAR(t, 0, "psi_io_some_ms", 2.0);
	NEAR(t, 0, "psi_mem_some_ms", 0.0);
	CHECK(json_integer_value(rtable_cell(t, 0, "pgscan")) == 20 &&
	      json_integer_value(rtable_cell(t, 0, "pgsteal")) == 2 &&
	      json_integer_value(rtable_cell(t, 0, "refaults")) == 3, "counts");
	NEAR(t, 0, "dev_read_mb", 2.0);
	NEAR(t, 0, "dev_write_mb", 1.0);
	NEAR(t, 0, "mem_peak_mib", 2.0);
	return 0;
}

/* b's rows have no kthread_s and no dev_*: empty cells, not 0 */
UNIT(column_no_row_has_is_empty)
{
	const struct rtable *t = fix_t;

	CHECK(t, "no table");
	NEAR(t, 1, "cpu_s", 1.5);
	CHECK(json_is_null(rtable_cell(t, 1, "kthread_s")), "kthread_s not empty");
	CHECK(json_is_null(rtable_cell(t, 1, "outside_pct")), "outside_pct not empty");
	CHECK(json_is_null(rtable_cell(t, 1, "cpu_s_per_gb")), "cpu_s_per_gb counts all three");
	CHECK(json_is_null(rtable_cell(t, 1, "dev_read_mb")) && json_is_null(rtable_cell(t, 1, "dev_write_mb")),
	      "dev_*_mb not empty");
	return 0;
}

UNIT(note_names_each_columns_source)
{
	const struct rtable *t = fix_t;

	CHECK(t && t->note, "no note");
	CHECK(strstr(t->note, "stall time, system;"), "psi: %s", t->note);
	CHECK(strstr(t->note, "cgroup v1 (refaults), system (pgscan, pgsteal)"), "reclaim: %s",
	      t->note);
	CHECK(strstr(t->note, "system /proc/diskstats sda"), "dev: %s", t->note);
	CHECK(strstr(t->note, "cgroup (v1)"), "cgroup: %s", t->note);
	CHECK(strstr(t->note, "system-wide: an upper bound"), "kthread_s: %s", t->note);
	return 0;
}

/* rows from before kthread_s (or with it only on a traced repetition):
 * no table, not one of empty cells */
UNIT(no_table_without_kthread_s)
{
	json_t *rows = json_array();
	struct rdoc d;

	json_array_append_new(rows, row("b", "timed", 1, -1, 1e6, NULL));
	json_array_append_new(rows, row("b", "traced", 1, 0.5, 1e6, NULL));
	CHECK(!cost_table(rows, &d), "a table without kthread_s");
	rdoc_free(&d);
	json_decref(rows);
	return 0;
}
