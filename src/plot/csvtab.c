// SPDX-License-Identifier: MIT
/*
 * One table of a report's `--format csv` text ("# title" line, a header,
 * rows, a blank line; fields quoted with "" for a quote), read back as
 * JSON rows: numbers become numbers, empty fields null.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "lib/util.h"

/* Split line (modified in place) into at most max fields; the count. */
static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *w = line, *r = line;

	while (n < max) {
		bool q = *r == '"';

		f[n++] = w;
		if (q)
			r++;
		for (; *r; r++) {
			if (q && *r == '"' && r[1] == '"') {
				*w++ = *r++;
				continue;
			}
			if (q && *r == '"') {
				q = false;
				continue;
			}
			if (!q && *r == ',')
				break;
			*w++ = *r;
		}
		if (!*r) {
			*w = 0;
			break;
		}
		*w++ = 0;
		r++;
	}
	return n;
}

static json_t *value(const char *s)
{
	char *end;
	double v;

	if (!*s)
		return json_null();
	v = strtod(s, &end);
	if (end != s && !*end)
		return json_real(v);
	return json_text(s);
}

#define CSV_MAX_COLS 64

int csv_table(const char *text, const char *title, json_t **cols, json_t **rows)
{
	char *dup = strdup(text ? text : ""), *save = NULL, *f[CSV_MAX_COLS];
	size_t tl = strlen(title);
	bool in = false;
	int ret = -ENOENT;

	*cols = NULL;
	*rows = NULL;
	if (!dup)
		return -ENOMEM;
	/* strtok_r skips the blank line that ends a table: a title ends it too */
	for (char *l = strtok_r(dup, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		size_t n;
		json_t *row;

		l[strcspn(l, "\r")] = 0;
		if (l[0] == '#') {
			if (in)
				break;
			in = !strncmp(l + strspn(l, "# "), title, tl);
			continue;
		}
		if (!in)
			continue;
		n = split(l, f, CSV_MAX_COLS);
		if (!*cols) {
			*cols = json_array();
			*rows = json_array();
			for (size_t i = 0; i < n; i++)
				json_array_append_new(*cols, json_text(f[i]));
			ret = 0;
			continue;
		}
		row = json_object();
		for (size_t i = 0; i < n && i < json_array_size(*cols); i++)
			json_object_set_new(row, json_string_value(json_array_get(*cols, i)),
					    value(f[i]));
		json_array_append_new(*rows, row);
	}
	free(dup);
	return ret;
}
