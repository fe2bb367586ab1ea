// SPDX-License-Identifier: MIT
/* The settings of a row read back, as text, and rows grouped by a key: see fields.h. */
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "config/jobopts.h"
#include "lib/text.h"

/* The column of s in row, as setting_store takes it; NULL if absent. */
static const char *column_text(const struct setting *s, json_t *row,
			       char *buf, size_t len)
{
	json_t *v = json_object_get(row, s->column);

	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_boolean(v))
		return json_is_true(v) ? "1" : "0";
	if (json_is_integer(v) && json_integer_value(v) > 0) {
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return buf;
	}
	return NULL;
}

static bool named(const char *name, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(name, *names))
			return true;
	return false;
}

const char *run_settings_text(json_t *row, char *buf, size_t len)
{
	static const char *const apart[] = { "threads", "work", NULL }; /* settings' names */

	return run_settings_text_except(row, apart, buf, len);
}

const char *run_settings_text_except(json_t *row, const char *const *skip,
				     char *buf, size_t len)
{
	struct run_config c;
	struct setting t[32];
	size_t n = 0;
	char val[64];

	memset(&c, 0, sizeof(c));
	jobopt_defaults(&c);
	for (const struct setting *s = run_settings; s->name && n < 31; s++) {
		const char *v = column_text(s, row, val, sizeof(val));

		if (named(s->name, skip))
			continue;
		if (v && setting_store(s, &c, s->column, v))
			continue; /* row_check let through what is not a setting */
		t[n++] = *s;
	}
	memset(&t[n], 0, sizeof(t[n]));
	buf[0] = 0;
	settings_id(t, &c, buf, len, 0);
	return buf[0] == '/' ? buf + 1 : buf;
}

json_t *group_by(json_t *rows, bool (*keep)(json_t *row),
		 void (*key_of)(json_t *row, char *key, size_t len), json_t *order)
{
	json_t *groups = json_object(), *r;
	size_t i;

	json_array_foreach(rows, i, r) {
		char key[700];
		json_t *g;

		if (!keep(r))
			continue;
		key_of(r, key, sizeof(key));
		g = json_object_get(groups, key);
		if (!g) {
			g = json_array();
			json_object_set_new(groups, key, g);
			if (order)
				json_array_append_new(order, json_text(key));
		}
		json_array_append(g, r);
	}
	return groups;
}
