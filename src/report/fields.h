/* SPDX-License-Identifier: MIT */
/* A summary's or row's fields as the report reads them: missing is a default, not a crash. */
#ifndef IOSTRAT_REPORT_FIELDS_H
#define IOSTRAT_REPORT_FIELDS_H

#include <math.h>
#include <string.h>

#include <jansson.h>

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

#endif
