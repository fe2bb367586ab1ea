// SPDX-License-Identifier: MIT
/* The machine's measured limits per cell and a strategy's attainable rate, binding limit and share (limits.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/strategy.h"
#include "results/row.h"
#include "results/stats_math.h"
#include "fields.h"
#include "limits.h"

/* The limits u meets, as a mask of 1 << enum limit.  The kernel's copy
 * is none of them: it is one way of doing the same copy (reads, then
 * writes, in the kernel), which a pipeline that overlaps its reads and
 * writes may beat; the report states it beside the limits. */
static unsigned limits_met(const struct limit_use *u)
{
	unsigned m = 1u << LIMIT_TRANSFORM;

	if (u->direct)
		return m | 1u << LIMIT_READ_DIRECT | 1u << LIMIT_WRITE_NEW_DIRECT;
	m |= 1u << LIMIT_WRITE_NEW_BUFFERED;
	if (u->cold)
		return m | 1u << LIMIT_READ_DIRECT;
	return m | 1u << LIMIT_PAGECACHE_COPY;
}

int limits_attain(const struct limit_est est[LIMIT_N], const struct limit_use *u,
		  struct limit_attain *a)
{
	unsigned met = limits_met(u);

	a->bind = -1;
	a->rate = a->lo = a->hi = NAN;
	for (int k = 0; k < LIMIT_N; k++) {
		double f = k == LIMIT_TRANSFORM ? (u->cores >= 1 ? u->cores : 1) : 1;

		if (!(met & 1u << k) || !est[k].n || !(est[k].median > 0))
			continue;
		if (a->bind >= 0 && !(est[k].median * f < a->rate))
			continue;
		a->bind = k;
		a->rate = est[k].median * f;
		a->lo = est[k].lo * f;
		a->hi = est[k].hi * f;
	}
	return a->bind < 0 ? -ENOENT : 0;
}

bool limits_exceeds(double s_lo, double s_median, const struct limit_attain *a,
		    double *pct)
{
	*pct = a->rate > 0 ? 100 * (s_median / a->rate - 1) : NAN;
	return a->bind >= 0 && isfinite(s_lo) && isfinite(a->hi) && s_lo > a->hi;
}

static bool is_limits(json_t *row, const void *unused)
{
	(void)unused;
	return !strcmp(sget(row, "kind"), "limits");
}

bool limits_present(json_t *rows)
{
	return rows_any(rows, is_limits, NULL);
}

static int limit_of(const char *name)
{
	for (int k = 0; k < LIMIT_N; k++)
		if (!strcmp(name, limit_names[k]))
			return k;
	return -1;
}

static bool same_transform(json_t *a, json_t *b)
{
	return !strcmp(limit_transform_of(a), limit_transform_of(b));
}

/* A good limits row of limit k standing for run summary s's cell. */
static bool stands_for(json_t *row, int k, json_t *s)
{
	const char *ds = sget(row, RC_DATASET);
	json_t *e = json_object_get(row, "error");

	if (strcmp(sget(row, "kind"), "limits") || limit_of(sget(row, "limit")) != k ||
	    (e && !json_is_null(e)) || !(nget(row, RC_MB_S) > 0))
		return false;
	if (*ds && strcmp(ds, sget(s, RC_DATASET)))
		return false;
	if (k == LIMIT_TRANSFORM)
		return iget(row, RC_WORK) == iget(s, RC_WORK) && same_transform(row, s);
	if (k == LIMIT_READ_DIRECT)
		return true;
	return !strcmp(sget(row, "fsync"), sget(s, "fsync"));
}

static void limit_one(json_t *rows, json_t *s, int k, struct limit_est *e)
{
	size_t n = json_array_size(rows), m = 0, i;
	double *v = calloc(n + 1, sizeof(double)), *c = calloc(n + 1, sizeof(double));
	json_t *row;

	if (!v || !c)
		abort();
	e->reused_from[0] = 0;
	json_array_foreach(rows, i, row) {
		if (!stands_for(row, k, s))
			continue;
		v[m] = nget(row, RC_MB_S);
		c[m++] = limit_cpu_s_gb(row, "cpu_user_s", "cpu_sys_s", "bytes");
		if (*sget(row, "reused_from"))
			snprintf(e->reused_from, sizeof(e->reused_from), "%s",
				 sget(row, "reused_from"));
	}
	limit_est_of(v, m, e);
	e->cpu_s_gb = limit_finite_median(c, m);
	free(v);
	free(c);
}

void limits_of_cell(json_t *rows, json_t *s, struct limit_est est[LIMIT_N])
{
	for (int k = 0; k < LIMIT_N; k++)
		limit_one(rows, s, k, &est[k]);
}

void limits_use_of(json_t *s, long long cpus, struct limit_use *u)
{
	const struct strategy *st = strategy_find(sget(s, RC_STRATEGY));
	unsigned f = st ? st->flags : 0;
	long long workers = iget(s, "workers"), th = iget(s, RC_THREADS);
	long long used = workers > 0 ? workers : th > 0 ? th : 1;

	u->direct = (f & STRAT_ALWAYS_DIRECT) ||
		    ((f & STRAT_DIRECT) && json_is_true(json_object_get(s, "direct")));
	u->cold = !strcmp(sget(s, "cache"), "cold");
	u->cores = (double)(cpus > 0 && used > cpus ? cpus : used);
}

void limits_strategy_est(json_t *rows, json_t *s, struct limit_est *e)
{
	size_t n = json_array_size(rows), m = 0, i;
	double *v = calloc(n + 1, sizeof(double)), *c = calloc(n + 1, sizeof(double));
	const char *id = sget(s, RC_CONFIG_ID);
	json_t *row;

	if (!v || !c)
		abort();
	json_array_foreach(rows, i, row) {
		if (strcmp(sget(row, RC_CONFIG_ID), id) || !row_timed(row) ||
		    !json_is_null(json_object_get(row, "error")) || !(nget(row, RC_MB_S) > 0))
			continue;
		v[m] = nget(row, RC_MB_S);
		c[m++] = limit_cpu_s_gb(row, RC_USER, RC_SYS, RC_BYTES_IN);
	}
	limit_est_of(v, m, e);
	e->cpu_s_gb = limit_finite_median(c, m);
	e->reused_from[0] = 0;
	free(v);
	free(c);
}
