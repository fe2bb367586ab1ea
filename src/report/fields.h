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

/* The settings of a run config_id after DATASET/STRATEGY/tN/wN. */
static inline const char *rest_of(const char *id)
{
	const char *p = id;

	for (int i = 0; i < 4 && p; i++) {
		p = strchr(p, '/');
		if (p)
			p++;
	}
	return p ? p : "";
}

#endif
