// SPDX-License-Identifier: MIT
/* The column registry: the tables the rooms above results hand down type
 * the columns of rows read back; no column is typed by its name. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/commands.h"
#include "engine/bench.h"
#include "results/results.h"
#include "results/row.h"
#include "scratch.h"
#include "row_text.h"
#include "unit.h"

/* The probes' seek_p50_kb and fio's read_clat_p99_us are checked as their
 * rooms declare them once handed down, and only then. */
UNIT(probe_and_kind_columns_typed_by_their_declaration)
{
	char why[160];

	row_columns_forget();
	CHECK(!check_text("{\"config_id\":\"a\",\"seek_p50_kb\":-1}", why, sizeof(why)),
	      "typed before any table was handed down: %s", why);
	CHECK(!columns_hand_down(), "the hand-down refused a table");
	CHECK(check_text("{\"config_id\":\"a\",\"seek_p50_kb\":-1}", why,
			 sizeof(why)) == -EINVAL && strstr(why, "(a size)"),
	      "seek_p50_kb -1: '%s'", why);
	CHECK(check_text("{\"config_id\":\"a\",\"read_clat_p99_us\":1.5,"
			 "\"msgs_s\":-2}", why, sizeof(why)) == -EINVAL &&
	      strstr(why, "msgs_s") && strstr(why, "(a rate)"), "msgs_s -2: '%s'", why);
	CHECK(row_column_type("sched_setting") == COL_TEXT &&
	      row_column_type("wbt_lat_usec") == COL_SIGNED, "sched's columns");
	return 0;
}

/* A name no table holds is text, whatever its ending: no guess. */
UNIT(undeclared_column_not_typed_by_its_suffix)
{
	char why[160];

	row_columns_forget();
	CHECK(!columns_hand_down(), "the hand-down refused a table");
	CHECK(row_column_type("made_up_s") == COL_TEXT &&
	      row_column_type("made_up_mb_s") == COL_TEXT &&
	      row_column_type("made_up_kb") == COL_TEXT, "a suffix typed a column");
	CHECK(!check_text("{\"config_id\":\"a\",\"made_up_s\":-1}", why, sizeof(why)),
	      "made_up_s -1 refused: %s", why);
	return 0;
}

static const struct column first[] = {
	{ "unit_new_col", COL_SIZE, 0, "bytes", "unit", "a size", 0 },
	{ 0 },
};
static const struct column same[] = {
	{ "unit_new_col", COL_SIZE, 0, "bytes", "unit2", "the same size", 0 },
	{ 0 },
};
static const struct column other[] = {
	{ "unit_new_col", COL_TIME, 0, "s", "unit3", "a time", 0 },
	{ 0 },
};
static const struct column core_other[] = {
	{ "elapsed_s", COL_TEXT, 0, 0, "unit4", "text", 0 },
	{ 0 },
};

/* One column, two types: refused with both rooms named; the same type
 * twice is one column. */
UNIT(column_declared_twice_with_two_types_refused)
{
	const char *err;
	int a, b, c;

	if (scratch_make("row_registry"))
		return 1;
	row_columns_forget();
	CHECK(!row_columns_add(first) && !row_columns_add(same), "same type refused");
	scratch_capture();
	a = row_columns_add(other);
	b = row_columns_add(core_other);
	err = scratch_captured();
	c = scratch_done(0);
	CHECK(a == -EINVAL && b == -EINVAL, "two types taken: %d %d", a, b);
	CHECK(strstr(err, "unit_new_col: declared a size by unit and a time by unit3") &&
	      strstr(err, "elapsed_s: declared a time by harness and a text by unit4"),
	      "stderr: %s", err);
	row_columns_forget();
	return c;
}

/* Every room's table agrees with the others (what main checks at start),
 * and each column __columns lists is found with its listed type. */
static void found_alike(const struct column *c, void *ctx)
{
	struct column f;

	if (column_find(c->name, &f) || f.type != c->type)
		++*(int *)ctx;
}

UNIT(every_declared_column_found_with_its_type)
{
	int bad = 0;

	row_columns_forget();
	CHECK(!columns_hand_down(), "the hand-down refused a table");
	row_columns_each(found_alike, &bad);
	CHECK(!bad, "%d columns found with another type", bad);
	return 0;
}

/* A row column no table declares: a warning naming file:line, once a
 * column, and the row kept. */
UNIT(unknown_column_warned_with_file_and_line)
{
	char dir[PATH_MAX + 16], p[PATH_MAX + 64];
	const char *err;
	json_t *rows = NULL;
	FILE *f;
	int ret;

	if (scratch_make("row_registry"))
		return 1;
	snprintf(dir, sizeof(dir), "%s/r", scratch);
	mkdir(dir, 0755);
	snprintf(p, sizeof(p), "%s/results.jsonl", dir);
	f = fopen(p, "w");
	fputs("{\"schema\":1,\"config_id\":\"a\",\"elapsed_s\":1}\n"
	      "{\"schema\":1,\"config_id\":\"a\",\"elapsed_s\":1,\"zz_odd_s\":-1}\n"
	      "{\"schema\":1,\"config_id\":\"a\",\"elapsed_s\":1,\"zz_odd_s\":2}\n", f);
	fclose(f);
	scratch_capture();
	ret = results_load(dir, &rows);
	err = scratch_captured();
	CHECK(!ret && json_array_size(rows) == 3, "load: %d, %zu rows", ret,
	      json_array_size(rows));
	CHECK(strstr(err, "results.jsonl:2: column zz_odd_s is declared by no column table"),
	      "stderr: %s", err);
	CHECK(!strstr(strstr(err, "zz_odd_s") + 1, "zz_odd_s"), "warned twice: %s", err);
	json_decref(rows);
	return scratch_done(0);
}

/* A row's kind is checked against the engine's kind table, handed down:
 * a kind the table gains is known to the reader with no second list. */
UNIT(kinds_are_the_engine_tables)
{
	static const char *const two[] = { "run", "extra", NULL };
	char why[160];

	row_kinds_set(two);
	CHECK(!check_text("{\"config_id\":\"a\",\"kind\":\"extra\"}", why, sizeof(why)), "%s", why);
	CHECK(check_text("{\"config_id\":\"a\",\"kind\":\"limits\"}", why, sizeof(why)) == -EINVAL &&
	      strstr(why, "unknown (run, extra)"), "%s", why);
	row_kinds_set(bench_kind_names());
	CHECK(!check_text("{\"config_id\":\"a\",\"kind\":\"limits\"}", why, sizeof(why)), "%s", why);
	return 0;
}
