// SPDX-License-Identifier: MIT
/* The row schema against its table (results/row.c): a new row holds every
 * core column, and a row `iostrat run` writes holds them typed as the table
 * says, each of its columns a declared one.  docs/results.md is checked
 * against the table by tests/columns.sh. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/row.h"
#include "unit.h"

/* Set in every verified `run -s stream` row (the measurement itself);
 * any other column may be null there (no probes, no cgroup). */
static const char *const always_set[] = {
	"schema", "kind", "config_id", "rep", "round", "role", "dataset",
	"files", "bytes_in", "bytes_out", "strategy", "threads", "work", "cache",
	"fsync", "direct", "dontcache", "sink", "accounting",
	"resident_pct_before", "elapsed_s", "user_s", "sys_s", "maxrss_kb",
	"minflt", "majflt", "nvcsw", "nivcsw", "mb_s", "checksum", "verified",
	"traced", "kernel", "host", NULL,
};

static bool nullable(const char *name)
{
	for (size_t i = 0; always_set[i]; i++)
		if (!strcmp(always_set[i], name))
			return false;
	return true;
}

/* v is one of "a|b" */
static bool one_of(const char *values, const char *v)
{
	size_t len = strlen(v);

	for (const char *p = values; (p = strstr(p, v)); p += len)
		if ((p == values || p[-1] == '|') && (!p[len] || p[len] == '|'))
			return true;
	return false;
}

static bool typed(const struct column *c, json_t *v)
{
	char buf[256];
	const char *vals = column_values(c, buf, sizeof(buf));

	switch (c->type) {
	case COL_COUNT: return json_is_integer(v) && json_integer_value(v) >= 0;
	case COL_SIZE: case COL_TIME: case COL_RATE:
		return json_is_number(v) && json_number_value(v) >= 0;
	case COL_SIGNED: return json_is_number(v);
	case COL_FLAG: return json_is_boolean(v);
	case COL_TEXT:
		return json_is_string(v) && (!vals || one_of(vals, json_string_value(v)));
	}
	return false;
}

UNIT(row_new_holds_every_core_column)
{
	json_t *row = row_new("b", "run");
	size_t n = 0;

	for (; row_core_columns()[n]; n++)
		CHECK(json_object_get(row, row_core_columns()[n]), "%s missing",
		      row_core_columns()[n]);
	CHECK(json_object_size(row) == n, "%zu keys, %zu core columns",
	      json_object_size(row), n);
	json_decref(row);
	return 0;
}

/* One row from the real writer: `iostrat run -s stream ... --json`. */
static json_t *run_row(void)
{
	static char tmp[] = "/tmp/iostrat-unit-rows.XXXXXX";
	const char *bin = getenv("IOSTRAT");
	char cmd[8192];
	json_t *row;
	FILE *f;

	if (!bin)
		bin = "build/iostrat";
	if (access(bin, X_OK) || !mkdtemp(tmp))
		return NULL;
	snprintf(cmd, sizeof(cmd), "mkdir %s/in && printf 'a b\\nc\\n' >%s/in/f && "
		 "printf 'x\\n' >%s/in/g", tmp, tmp, tmp);
	if (system(cmd))
		return NULL;
	snprintf(cmd, sizeof(cmd), "'%s' run -s stream %s/in %s/out -r 1 --cache asis "
		 "--json 2>/dev/null", bin, tmp, tmp);
	f = popen(cmd, "r");
	row = f ? json_loadf(f, JSON_DISABLE_EOF_CHECK, NULL) : NULL;
	if (f)
		pclose(f);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd))
		return row;
	return row;
}

/* The run's row, made once for every test (freed by main). */
static json_t *once;

static json_t *the_row(void)
{
	if (!once)
		once = run_row();
	return once ? json_incref(once) : NULL;
}

UNIT(run_row_holds_every_core_column_typed_as_declared)
{
	json_t *row = the_row(), *v;
	struct column c;

	if (!row && access(getenv("IOSTRAT") ? getenv("IOSTRAT") : "build/iostrat", X_OK))
		SKIP("no iostrat binary (IOSTRAT or build/iostrat)");
	CHECK(row, "`iostrat run -s stream --json` printed no row");
	for (size_t i = 0; row_core_columns()[i]; i++) {
		const char *n = row_core_columns()[i];

		v = json_object_get(row, n);
		CHECK(v, "%s: not in the row", n);
		CHECK(!column_find(n, &c), "%s: not declared", n);
		CHECK(json_is_null(v) ? nullable(n) : typed(&c, v), "%s: %s is not "
		      "its declared type %d", n, json_dumps(v, JSON_ENCODE_ANY), c.type);
	}
	json_decref(row);
	return 0;
}

/* Every column a run row holds (the run's own, stream's knobs) is a line
 * of the table or a strategy's declaration, typed so: none is guessed. */
UNIT(every_column_of_a_run_row_is_declared)
{
	json_t *row = the_row(), *v;
	struct column c;
	const char *k;

	if (!row && access(getenv("IOSTRAT") ? getenv("IOSTRAT") : "build/iostrat", X_OK))
		SKIP("no iostrat binary (IOSTRAT or build/iostrat)");
	CHECK(row, "`iostrat run -s stream --json` printed no row");
	json_object_foreach(row, k, v) {
		CHECK(!column_find(k, &c), "%s: in the row, not declared", k);
		CHECK(json_is_null(v) || typed(&c, v), "%s: %s is not its declared "
		      "type %d", k, json_dumps(v, JSON_ENCODE_ANY), c.type);
	}
	json_decref(row);
	return 0;
}

static int row_freed(int failed)
{
	json_decref(once);
	return failed;
}
static bool has_value(json_t *row, const void *want)
{
	return json_integer_value(json_object_get(row, "rep")) == *(const int *)want;
}

/* rows_any: true once a row answers, false for none and for no rows; the
 * argument reaches the predicate. */
UNIT(rows_any_is_true_only_when_a_row_answers)
{
	json_t *rows = json_pack("[{s:i}, {s:i}, {s:i}]", "rep", 1, "rep", 2, "rep", 3);
	json_t *none = json_array();
	int two = 2, nine = 9;

	CHECK(rows && none, "out of memory");
	CHECK(rows_any(rows, has_value, &two), "rep 2 not found");
	CHECK(!rows_any(rows, has_value, &nine), "rep 9 found");
	CHECK(!rows_any(none, has_value, &two), "a row in an empty array");
	json_decref(rows);
	json_decref(none);
	return 0;
}

UNIT_FIXTURE(NULL, row_freed)
