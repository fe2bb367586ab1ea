// SPDX-License-Identifier: MIT
/* The limits table (src/engine/limits_table.c): one line per limit and
 * W, in limit order; the median with a 95% interval from 6 rows on, else
 * min..max; CPU s per GB the median of (user + sys) / GB; rows of other
 * kinds, failed or traced rows left out; reused rows counted. */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "engine/limits.h"
#include "results/row.h"
#include "unit.h"

static json_t *row(const char *limit, unsigned work, double mb_s, double cpu_s)
{
	json_t *r = row_new("t", "limits");

	json_object_set_new(r, "limit", json_string(limit));
	json_object_set_new(r, "work", json_integer(work));
	json_object_set_new(r, "mb_s", json_real(mb_s));
	json_object_set_new(r, "bytes", json_integer(500000000));
	json_object_set_new(r, "cpu_user_s", json_real(cpu_s / 2));
	json_object_set_new(r, "cpu_sys_s", json_real(cpu_s / 2));
	return r;
}

/* Row r with key set to the string value. */
static json_t *with(json_t *r, const char *key, const char *value)
{
	json_object_set_new(r, key, json_string(value));
	return r;
}

/* An array of the rows given, up to NULL. */
static json_t *rows_of(json_t *first, ...)
{
	json_t *rows = json_array();
	va_list ap;

	va_start(ap, first);
	for (json_t *r = first; r; r = va_arg(ap, json_t *))
		json_array_append_new(rows, r);
	va_end(ap);
	return rows;
}

/* The table of rows (a reference kept): NULL on failure or no line. */
static struct limit_summary *lines(json_t *rows, size_t *n)
{
	struct limit_summary *s = NULL;

	*n = 99;
	if (limits_summarize(rows, &s, n))
		*n = 99;
	return s;
}

UNIT(lines_in_limit_then_w_order)
{
	json_t *rows = rows_of(row("transform", 100, 50, 1), row("transform", 0, 500, 1),
			       row("copy_file_range", 0, 300, 1), row("read_direct", 0, 900, 1),
			       NULL);
	size_t n;
	struct limit_summary *s = lines(rows, &n);

	CHECK(n == 4, "%zu lines", n);
	CHECK(!strcmp(s[0].name, "read_direct") && !strcmp(s[1].name, "copy_file_range") &&
	      !strcmp(s[2].name, "transform w=0") && !strcmp(s[3].name, "transform w=100"),
	      "%s %s %s %s", s[0].name, s[1].name, s[2].name, s[3].name);
	free(s);
	json_decref(rows);
	return 0;
}

UNIT(three_rows_give_min_max_six_a_95_interval)
{
	json_t *rows = json_array();
	struct limit_summary *s;
	size_t n;

	for (int i = 1; i <= 3; i++)
		json_array_append_new(rows, row("read_direct", 0, 100 * i, 0.5 * i));
	s = lines(rows, &n);
	CHECK(n == 1, "%zu lines", n);
	CHECK(s[0].est.range && s[0].est.lo == 100 && s[0].est.hi == 300 && s[0].est.median == 200,
	      "range %d %g..%g median %g", s[0].est.range, s[0].est.lo, s[0].est.hi, s[0].est.median);
	/* 1.0 s per 0.5 GB at the median */
	CHECK(fabs(s[0].est.cpu_s_gb - 2.0) < 1e-9, "%g s/GB", s[0].est.cpu_s_gb);
	free(s);
	for (int i = 4; i <= 6; i++)
		json_array_append_new(rows, row("read_direct", 0, 100 * i, 1));
	s = lines(rows, &n);
	CHECK(n == 1 && s[0].est.n == 6, "%zu lines", n);
	CHECK(!s[0].est.range && s[0].est.lo == 100 && s[0].est.hi == 600, "range %d %g..%g",
	      s[0].est.range, s[0].est.lo, s[0].est.hi);
	free(s);
	json_decref(rows);
	return 0;
}

UNIT(failed_traced_and_other_rows_left_out_reused_counted)
{
	json_t *rows = rows_of(row("read_direct", 0, 100, 1),
			       with(row("read_direct", 0, 9999, 1), "error", "boom"),
			       with(row("read_direct", 0, 9999, 1), "role", "traced"),
			       with(row("read_direct", 0, 9999, 1), "kind", "fio"),
			       with(row("read_direct", 0, 200, 1), "reused_from", "results/x"),
			       NULL);
	size_t n;
	struct limit_summary *s = lines(rows, &n);

	CHECK(n == 1, "%zu lines", n);
	CHECK(s[0].est.n == 2 && s[0].reused == 1 && s[0].est.hi == 200, "n %zu reused %zu hi %g",
	      s[0].est.n, s[0].reused, s[0].est.hi);
	free(s);
	json_decref(rows);
	return 0;
}

UNIT(no_rows_no_lines)
{
	json_t *rows = json_array();
	size_t n;
	struct limit_summary *s = lines(rows, &n);

	CHECK(n == 0 && !s, "n %zu", n);
	json_decref(rows);
	return 0;
}
