// SPDX-License-Identifier: MIT
/* Is a result row read back a measurement?  Its numeric columns checked by their declared type. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "row.h"
#include "config/jobopts.h"
#include "core/strategy.h"
#include "lib/util.h"

static const struct column *in_table(const struct column *t, const char *name)
{
	for (; t && t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

/* A strategy's column: declared in its .columns, or a setting of its own. */
static int strategy_column(const struct strategy *st, const char *name,
			   struct column *out)
{
	const struct column *c = in_table(st->columns, name);
	const struct setting *s = st->opts ? settings_column(st->opts, name) : NULL;

	if (c)
		*out = *c;
	return c || (s && column_of_setting(s, out)) ? 0 : -ENOENT;
}

int column_find(const char *name, struct column *out)
{
	const struct column *c = in_table(row_columns, name);
	const struct setting *s = settings_column(run_settings, name);
	const struct strategy *st;

	if (c && !column_is_settings(c)) {
		*out = *c;
		return 0;
	}
	if (s && column_of_setting(s, out))
		return 0;
	for (size_t i = 0; (st = strategy_at(i)); i++)
		if (!strategy_column(st, name, out))
			return 0;
	return row_declared_find(name, out);
}

const char *column_values(const struct column *c, char *buf, size_t len)
{
	const struct setting *s = settings_column(run_settings, c->name);
	size_t n = 0;

	if (c->values || !s || s->type != SET_ENUM || !len)
		return c->values;
	buf[0] = '\0';
	for (const char *const *v = s->values; *v; v++)
		n += (size_t)snprintf(buf + MIN(n, len - 1), len - MIN(n, len - 1),
				      "%s%s", v == s->values ? "" : "|", *v);
	return buf;
}

enum col_type row_column_type(const char *name)
{
	struct column c;

	return column_find(name, &c) ? COL_TEXT : c.type;
}

static const char *const what[] = {
	[COL_TIME] = "a time", [COL_SIZE] = "a size",
	[COL_COUNT] = "a count", [COL_RATE] = "a rate",
};

/* One value of a checked column: null (not measured) or a finite,
 * non-negative number, whole for a count.  The reason, else NULL. */
static const char *bad_value(json_t *v, enum col_type t)
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
	if (t == COL_COUNT && x != floor(x))
		return "is not a whole number";
	return NULL;
}

/* Who the row is and how long it took: a config_id (one line, not
 * empty), and for a measurement (no error) an elapsed_s above 0. */
static int check_identity(json_t *row, char *why, size_t len)
{
	const char *cid = json_string_value(json_object_get(row, RC_CONFIG_ID));
	json_t *el = json_object_get(row, RC_ELAPSED);

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
	static const char *const roles[] = { "timed", "traced", NULL };
	json_t *schema = json_object_get(row, "schema");
	const char *kind = json_string_value(json_object_get(row, "kind"));
	const char *role = json_string_value(json_object_get(row, "role"));

	if (json_is_integer(schema) && json_integer_value(schema) != ROW_SCHEMA) {
		snprintf(why, len, "schema %lld, not %d (another iostrat's row)",
			 (long long)json_integer_value(schema), ROW_SCHEMA);
		return -EINVAL;
	}
	if (kind && !str_in(kind, row_kinds())) {
		char known[128] = "";

		for (const char *const *k = row_kinds(); *k; k++)
			snprintf(known + strlen(known), sizeof(known) - strlen(known),
				 "%s%s", known[0] ? ", " : "", *k);
		snprintf(why, len, "kind \"%.40s\" unknown (%s)", kind, known);
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
		enum col_type t = row_column_type(k);
		char *text;

		if (!COL_CHECKED(t) || !(bad = bad_value(v, t)))
			continue;
		text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		snprintf(why, len, "%s %.40s %s (%s)", k, text ? text : "?", bad,
			 what[t]);
		free(text);
		return -EINVAL;
	}
	return check_origin(row, why, len) ? -EINVAL : check_identity(row, why, len);
}
