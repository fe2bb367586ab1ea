// SPDX-License-Identifier: MIT
/* Which fio rows stand beside a run's: the matching the report, the verdict and the figures share. */
#include <string.h>

#include "fio.h"

static const char *text(json_t *o, const char *k)
{
	const char *v = json_string_value(json_object_get(o, k));

	return v ? v : "";
}

static bool same(json_t *a, json_t *b, const char *k)
{
	return !strcmp(text(a, k), text(b, k));
}

bool fio_same_ground(json_t *f, json_t *s)
{
	return same(f, s, RC_DATASET) && same(f, s, "cache") &&
	       !strcmp(text(f, "fsync"), "none") == !strcmp(text(s, "fsync"), "none");
}

bool fio_can_mirror(json_t *s)
{
	return !json_is_true(json_object_get(s, "dontcache"));
}
