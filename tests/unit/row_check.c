// SPDX-License-Identifier: MIT
/* The row validator every reader loads through: fixture rows, good and bad,
 * each bad one for its own reason, and the column list kept in step. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "cmd/commands.h"
#include "core/strategy.h"
#include "results/row.h"
#include "row_text.h"
#include "unit.h"

#define GOOD "{\"schema\":1,\"config_id\":\"a\",\"rep\":2,\"elapsed_s\":0.25," \
	"\"bytes_in\":204800,\"maxrss_kb\":2048,\"mb_s\":819.2,\"minflt\":0," \
	"\"seq_pct\":null,\"read_mb_s\":3.5,\"fio_wall_s\":1,\"ret\":-1," \
	"\"wbt_lat_usec\":-1,\"error\":null}"

UNIT(measured_row_passes)
{
	char why[160];

	CHECK(check_text(GOOD, why, sizeof(why)) == 0, "%s", why);
	/* an error row has no figures: nulls are not wrong */
	CHECK(check_text("{\"config_id\":\"a\",\"elapsed_s\":null,\"error\":\"EIO\"}",
			 why, sizeof(why)) == 0, "%s", why);
	return 0;
}

static int one_bad(const char *col, const char *val, const char *want)
{
	char text[512], why[160];

	snprintf(text, sizeof(text), "{\"config_id\":\"a\",\"%s\":%s}", col, val);
	CHECK(check_text(text, why, sizeof(why)) == -EINVAL, "%s=%s passed", col, val);
	CHECK(strstr(why, col) && strstr(why, want), "%s=%s: why '%s', want '%s'",
	      col, val, why, want);
	return 0;
}

UNIT(negative_time_size_count_rate_refused)
{
	return one_bad("elapsed_s", "-1.0", "elapsed_s -1.0 is negative (a time)") ||
	       one_bad("bytes_in", "-5", "is negative (a size)") ||
	       one_bad("majflt", "-1", "is negative (a count)") ||
	       one_bad("mb_s", "-0.5", "is negative (a rate)") ||
	       one_bad("read_clat_p99_us", "-3", "(a time)") ||
	       one_bad("buffer_bytes", "-1", "(a size)");
}

UNIT(wrong_type_refused)
{
	return one_bad("elapsed_s", "\"fast\"", "is not a number") ||
	       one_bad("maxrss_kb", "true", "is not a number") ||
	       one_bad("rep", "1.5", "is not a whole number (a count)") ||
	       one_bad("user_s", "[1]", "is not a number");
}

/* Every core column is a line of the table (or a run setting's), so
 * its type is declared, never guessed from its name. */
UNIT(every_core_column_is_declared)
{
	struct column c;

	for (size_t i = 0; row_core_columns()[i]; i++)
		CHECK(!column_find(row_core_columns()[i], &c), "core column %s: "
		      "not in the column table", row_core_columns()[i]);
	return 0;
}

/* A column two strategies add (chunk_bytes, qd_used) is one column: the
 * same type in each declaration; none shadows a core column. */
UNIT(strategies_declare_a_shared_column_alike)
{
	const struct strategy *a, *b;
	struct column c;

	for (size_t i = 0; (a = strategy_at(i)); i++)
		for (const struct column *x = a->columns; x && x->name; x++) {
			CHECK(!column_find(x->name, &c) && c.type == x->type,
			      "%s: %s typed %d here, %d first", a->name, x->name,
			      x->type, c.type);
			for (size_t j = 0; (b = strategy_at(j)); j++)
				for (const struct column *y = b->columns; y && y->name; y++)
					CHECK(strcmp(x->name, y->name) || x->type == y->type,
					      "%s: %s and %s differ", x->name, a->name, b->name);
		}
	return 0;
}

/* A strategy's knob is checked as its declared type: a negative
 * chunk_bytes (a size, declared by direct, mmap, uring) is refused. */
UNIT(strategy_column_checked_by_its_declaration)
{
	return one_bad("chunk_bytes", "-1", "is negative (a size)") ||
	       one_bad("uring_reads", "2.5", "is not a whole number (a count)");
}

UNIT_FIXTURE(columns_hand_down, NULL)
