// SPDX-License-Identifier: MIT
/* The machine's limits by name (limit.h). */
#include <math.h>
#include <stddef.h>

#include "limit.h"
#include "stats_math.h"

const char *const limit_names[LIMIT_N + 1] = {
	"read_direct", "write_new_buffered", "write_new_direct",
	"pagecache_copy", "copy_file_range", "transform", NULL,
};

const char *const limit_labels[LIMIT_N] = {
	"the direct read limit", "the new-file write limit (buffered)",
	"the new-file write limit (direct)", "the page-cache copy limit",
	"the kernel copy limit (copy_file_range)", "the CPU limit (transform)",
};

void limit_est_of(double *v, size_t n, struct limit_est *e)
{
	struct summary s;

	e->n = n;
	e->median = e->lo = e->hi = NAN;
	if (!n)
		return;
	summarize(v, n, &s);
	e->median = s.median;
	e->range = median_ci(v, n, LIMITS_LEVEL, &e->lo, &e->hi) != 0;
	if (e->range) { /* too few for the interval: the range holds them all */
		e->lo = s.min;
		e->hi = s.max;
	}
}

static double num_or_nan(json_t *row, const char *k)
{
	json_t *v = json_object_get(row, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

double limit_cpu_s_gb(json_t *row, const char *user, const char *sys, const char *bytes)
{
	double cpu = num_or_nan(row, user) + num_or_nan(row, sys);
	double k = num_or_nan(row, "kthread_s"), gb = num_or_nan(row, bytes) / 1e9;

	return gb > 0 ? (cpu + (isfinite(k) ? k : 0)) / gb : NAN;
}

double limit_finite_median(double *v, size_t n)
{
	struct summary s;
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[m++] = v[i];
	if (!m)
		return NAN;
	summarize(v, m, &s);
	return s.median;
}

const char *limit_transform_of(json_t *row)
{
	const char *t = json_string_value(json_object_get(row, "transform"));

	return t && *t ? t : "xor";
}
