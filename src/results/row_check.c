// SPDX-License-Identifier: MIT
/* Is a result row read back a measurement?  Its numeric columns checked by kind. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "row.h"
#include "config/jobopts.h"
#include "lib/util.h"

struct col_kind {
	const char *name;
	enum row_col_type type;
};

/*
 * The numeric columns by name (every numeric core column of row.c is here;
 * tests/unit/row_check.c holds the two lists together), then by suffix for
 * the columns each kind adds (read_mb_s, fio_wall_s, buffer_bytes, ...).
 * A column not named either way is not checked: it is text, a flag, or a
 * figure whose sign means something (a sysfs -1, an exit status).
 */
static const struct col_kind named[] = {
	{ "elapsed_s", ROWCOL_TIME }, { "user_s", ROWCOL_TIME },
	{ "sys_s", ROWCOL_TIME }, { "lat_p50_us", ROWCOL_TIME },
	{ "lat_p99_us", ROWCOL_TIME },
	{ "bytes_in", ROWCOL_SIZE }, { "bytes_out", ROWCOL_SIZE },
	{ "maxrss_kb", ROWCOL_SIZE }, { "req_p50_kb", ROWCOL_SIZE },
	{ "cache_left_mib", ROWCOL_SIZE },
	{ "bytes", ROWCOL_SIZE }, { "block_size", ROWCOL_SIZE },
	{ "msg_size", ROWCOL_SIZE }, { "alignment", ROWCOL_SIZE },
	{ "schema", ROWCOL_COUNT }, { "rep", ROWCOL_COUNT }, { "round", ROWCOL_COUNT },
	{ "files", ROWCOL_COUNT }, { "minflt", ROWCOL_COUNT },
	{ "majflt", ROWCOL_COUNT }, { "nvcsw", ROWCOL_COUNT },
	{ "nivcsw", ROWCOL_COUNT }, { "pc_hits", ROWCOL_COUNT },
	{ "pc_misses", ROWCOL_COUNT }, { "ra_pages", ROWCOL_COUNT },
	{ "count", ROWCOL_COUNT }, { "syscalls", ROWCOL_COUNT },
	{ "kernel_reads", ROWCOL_COUNT }, { "kernel_writes", ROWCOL_COUNT },
	{ "mb_s", ROWCOL_RATE }, { "seq_pct", ROWCOL_RATE },
	{ "pc_hit_ratio", ROWCOL_RATE }, { "resident_pct_before", ROWCOL_RATE },
	{ "pgscan", ROWCOL_COUNT }, { "pgsteal", ROWCOL_COUNT },
	{ "workingset_refault", ROWCOL_COUNT }, { "dev_reads", ROWCOL_COUNT },
	{ "dev_writes", ROWCOL_COUNT },
};

static const struct col_kind suffixes[] = { /* first match wins */
	{ "mb_s", ROWCOL_RATE }, { "_iops", ROWCOL_RATE }, { "_pct", ROWCOL_RATE },
	{ "_ratio", ROWCOL_RATE }, { "_s", ROWCOL_TIME }, { "_ms", ROWCOL_TIME },
	{ "_us", ROWCOL_TIME }, { "_ns", ROWCOL_TIME }, { "_kb", ROWCOL_SIZE },
	{ "_bytes", ROWCOL_SIZE },
};

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/* A run setting's column, by its type in the settings table. */
static enum row_col_type setting_column_type(const char *name)
{
	const struct setting *s = settings_column(run_settings, name);

	if (!s)
		return ROWCOL_OTHER;
	return s->type == SET_SIZE ? ROWCOL_SIZE :
	       s->type == SET_UINT || s->type == SET_COUNT ? ROWCOL_COUNT :
	       ROWCOL_OTHER;
}

enum row_col_type row_column_type(const char *name)
{
	if (settings_column(run_settings, name))
		return setting_column_type(name);
	for (size_t i = 0; i < ARRAY_SIZE(named); i++)
		if (!strcmp(name, named[i].name))
			return named[i].type;
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (ends_with(name, suffixes[i].name))
			return suffixes[i].type;
	return ROWCOL_OTHER;
}

static const char *const what[] = {
	[ROWCOL_TIME] = "a time", [ROWCOL_SIZE] = "a size",
	[ROWCOL_COUNT] = "a count", [ROWCOL_RATE] = "a rate",
};

/* One value of a checked column: null (not measured) or a finite,
 * non-negative number, whole for a count.  The reason, else NULL. */
static const char *bad_value(json_t *v, enum row_col_type t)
{
	double x;

	if (json_is_null(v))
		return NULL;
	if (!json_is_number(v))
		return "is not a number";
	x = json_number_value(v);
	if (!isfinite(x))
		return "is not finite";
	if (x < 0)
		return "is negative";
	if (t == ROWCOL_COUNT && x != floor(x))
		return "is not a whole number";
	return NULL;
}

/* Who the row is and how long it took: a config_id (one line, not
 * empty), and for a measurement (no error) an elapsed_s above 0. */
static int check_identity(json_t *row, char *why, size_t len)
{
	const char *cid = json_string_value(json_object_get(row, "config_id"));
	json_t *el = json_object_get(row, "elapsed_s");

	if (!cid || !*cid) {
		snprintf(why, len, "no config_id");
		return -EINVAL;
	}
	if (strpbrk(cid, "\r\n")) {
		snprintf(why, len, "config_id holds a newline");
		return -EINVAL;
	}
	if (json_is_null(json_object_get(row, "error")) && json_is_number(el) &&
	    !(json_number_value(el) > 0)) {
		snprintf(why, len, "elapsed_s %g is not above 0", json_number_value(el));
		return -EINVAL;
	}
	return 0;
}

static bool str_in(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

/* Who wrote the row: this iostrat's schema, a kind and role it writes
 * (each may be absent: rows written before it was). */
static int check_origin(json_t *row, char *why, size_t len)
{
	static const char *const kinds[] = { "run", "fio", "net", "sweep", NULL };
	static const char *const roles[] = { "timed", "traced", NULL };
	json_t *schema = json_object_get(row, "schema");
	const char *kind = json_string_value(json_object_get(row, "kind"));
	const char *role = json_string_value(json_object_get(row, "role"));

	if (json_is_integer(schema) && json_integer_value(schema) != ROW_SCHEMA) {
		snprintf(why, len, "schema %lld, not %d (another iostrat's row)",
			 (long long)json_integer_value(schema), ROW_SCHEMA);
		return -EINVAL;
	}
	if (kind && !str_in(kind, kinds)) {
		snprintf(why, len, "kind \"%.40s\" unknown (run, fio, net, sweep)", kind);
		return -EINVAL;
	}
	if (role && !str_in(role, roles)) {
		snprintf(why, len, "role \"%.40s\" unknown (timed, traced)", role);
		return -EINVAL;
	}
	return 0;
}

int row_check(json_t *row, char *why, size_t len)
{
	const char *k, *bad;
	json_t *v;

	json_object_foreach(row, k, v) {
		enum row_col_type t = row_column_type(k);
		char *text;

		if (t == ROWCOL_OTHER || !(bad = bad_value(v, t)))
			continue;
		text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		snprintf(why, len, "%s %.40s %s (%s)", k, text ? text : "?", bad,
			 what[t]);
		free(text);
		return -EINVAL;
	}
	return check_origin(row, why, len) ? -EINVAL : check_identity(row, why, len);
}
