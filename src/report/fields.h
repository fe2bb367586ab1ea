/* SPDX-License-Identifier: MIT */
/* A summary's or row's fields as the report reads them (missing is a default, not a crash), and rows grouped by a key. */
#ifndef IOSTRAT_REPORT_FIELDS_H
#define IOSTRAT_REPORT_FIELDS_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <jansson.h>

#include "lib/column.h"

/* The fields of a summary or a row, as report.c and verdict.c read them:
 * a missing or mistyped field is "", NAN or 0, never a crash. */
static inline const char *sget(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static inline double nget(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static inline long long iget(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? (long long)json_number_value(v) : 0;
}

/* The run settings of a row or summary as config_id writes them, from
 * its columns (no reader parses config_id), threads and work aside (the
 * report names them apart): "cold/fsync=file/bufsize=4096"; in buf. */
const char *run_settings_text(json_t *row, char *buf, size_t len);
/* The same without the settings named in skip (NULL-terminated). */
const char *run_settings_text_except(json_t *row, const char *const *skip,
				     char *buf, size_t len);

/* The rows of rows that keep() takes, grouped under the key key_of()
 * writes into key (len bytes): an object of arrays; each key also appended
 * to order, in first-seen order, when order is not NULL. */
json_t *group_by(json_t *rows, bool (*keep)(json_t *row),
		 void (*key_of)(json_t *row, char *key, size_t len), json_t *order);

#endif
