// SPDX-License-Identifier: MIT
/* The report's limits tables, the verdict's share of the binding limit, and the VM's "cold" note. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "fields.h"
#include "limits.h"

/* "380-400", or "-" without an interval. */
static const char *range(double lo, double hi, char *buf, size_t len)
{
	if (isfinite(lo) && isfinite(hi))
		snprintf(buf, len, "%.0f-%.0f", lo, hi);
	else
		snprintf(buf, len, "-");
	return buf;
}

static bool is_run(json_t *s)
{
	return !strcmp(sget(s, "kind"), "run") && iget(s, "n") > 0;
}

/* The limits of the rows of config id into e[], the first of them returned. */
static json_t *limit_group(json_t *rows, const char *id, struct limit_est *e)
{
	json_t *first = NULL, *row, *one = json_array();
	size_t i;

	json_array_foreach(rows, i, row)
		if (!strcmp(sget(row, "kind"), "limits") && !strcmp(sget(row, RC_CONFIG_ID), id)) {
			first = first ? first : row;
			json_array_append(one, row);
		}
	if (first) /* the first row's cell: its own data set, fsync and work */
		limits_of_cell(one, first, e);
	json_decref(one);
	return first;
}

static void limits_table(const struct rrun *r, struct rdoc *d)
{
	static const char *const cols[] = { "limit", RC_DATASET, "fsync", RC_WORK, RC_MB_S,
		"interval", "n", "cpu_s_gb", "reused_from", NULL };
	struct rtable *t = rdoc_table(d, "the machine's limits", cols);
	json_t *s;
	size_t i;

	rtable_note(t, "each limit measured like a result (kind limits, one row per "
		    "repetition): median MB/s, its %.0f%% interval (distribution-free; "
		    "below 6 repetitions the range, min-max), CPU seconds (user + system, "
		    "and kernel threads where the rows have them) per GB; "
		    "transform: one core at W, no I/O, chunk by chunk in a cache-hot buffer", 100 * LIMITS_LEVEL);
	json_array_foreach(r->sum, i, s) {
		struct limit_est e[LIMIT_N];
		char iv[64];
		int k;

		if (strcmp(sget(s, "kind"), "limits"))
			continue;
		k = 0;
		while (k < LIMIT_N && strcmp(limit_names[k], sget(s, "limit")))
			k++;
		if (k == LIMIT_N || !limit_group(r->rows, sget(s, RC_CONFIG_ID), e))
			continue;
		rtable_add(t, json_pack("[s,s,s,I,o,s,I,o,s]", limit_names[k], sget(s, RC_DATASET),
					sget(s, "fsync"), (json_int_t)iget(s, RC_WORK),
					rnum(e[k].median), range(e[k].lo, e[k].hi, iv, sizeof(iv)),
					(json_int_t)e[k].n, rnum(e[k].cpu_s_gb), e[k].reused_from));
	}
}

/* Strategy summary s against its cell's limits: *a, its own *se; 0 or -ENOENT. */
static int against(const struct rrun *r, json_t *s, struct limit_est *se,
		   struct limit_attain *a)
{
	struct limit_est est[LIMIT_N];
	struct limit_use u;

	limits_of_cell(r->rows, s, est);
	limits_use_of(s, iget(r->env, "cpus"), &u);
	limits_strategy_est(r->rows, s, se);
	return limits_attain(est, &u, a);
}

static void shares_table(const struct rrun *r, struct rdoc *d)
{
	static const char *const cols[] = { RC_CONFIG_ID, RC_MB_S, "interval", "cpu_s_gb",
		"attainable_mb_s", "binding", "share", "model", NULL };
	struct rtable *t = rdoc_table(d, "strategies against their limits", cols);
	json_t *s;
	size_t i;

	rtable_note(t, "attainable = the lowest limit the strategy's bytes and CPU "
		    "meet (its read and new-file write limits by its I/O kind, the "
		    "transform x min(workers or threads, CPUs); not the kernel copy, a "
		    "way of copying a pipeline can beat); share = "
		    "median MB/s / the binding limit's; interval: 95%%, or below 6 "
		    "repetitions the range; model: where the strategy's interval lies "
		    "above the binding limit's, which limit failed");
	json_array_foreach(r->sum, i, s) {
		struct limit_est se;
		struct limit_attain a;
		char iv[64], why[512] = "";
		json_t *c = json_object();
		double pct;

		if (!is_run(s) || against(r, s, &se, &a)) {
			json_decref(c);
			continue;
		}
		if (limits_exceeds(se.lo, se.median, &a, &pct))
			limits_reason(r, s, c, why, sizeof(why));
		json_decref(c);
		rtable_add(t, json_pack("[s,o,s,o,o,s,o,s]", sget(s, RC_CONFIG_ID),
					rnum(se.median), range(se.lo, se.hi, iv, sizeof(iv)),
					rnum(se.cpu_s_gb), rnum(a.rate), limit_names[a.bind],
					rnum(a.rate > 0 ? se.median / a.rate : NAN), why));
	}
}

void report_limits(const struct rrun *r, struct rdoc *d)
{
	char vm[512];

	if (!limits_present(r->rows))
		return;
	limits_table(r, d);
	shares_table(r, d);
	if (*limits_vm_note(r, vm, sizeof(vm)))
		rdoc_meta(d, "cold reads", "%s", vm);
}

const char *limits_reason(const struct rrun *r, json_t *s, json_t *c, char *buf,
			  size_t len)
{
	struct limit_est se;
	struct limit_attain a;
	char x[64], y[64];
	double pct;
	bool over;

	buf[0] = 0;
	if (!limits_present(r->rows) || against(r, s, &se, &a))
		return buf;
	over = limits_exceeds(se.lo, se.median, &a, &pct);
	json_object_set_new(c, "limit", json_text(limit_names[a.bind]));
	json_object_set_new(c, "limit_mb_s", rnum(a.rate));
	json_object_set_new(c, "limit_share", rnum(se.median / a.rate));
	json_object_set_new(c, "limit_exceeded", json_boolean(over));
	if (over)
		snprintf(buf, len, "the model is wrong: %s exceeds %s by %.0f%% (interval "
			 "%s MB/s against %s MB/s)", sget(s, RC_STRATEGY), limit_labels[a.bind],
			 pct, range(se.lo, se.hi, x, sizeof(x)), range(a.lo, a.hi, y, sizeof(y)));
	else
		snprintf(buf, len, "%.2f of %s, %.0f MB/s", se.median / a.rate,
			 limit_labels[a.bind], a.rate);
	return buf;
}

/* The fastest cold read of the directory beside read_direct's interval:
 * a run summary's median MB/s or a fio one's read side (read_mb_s: its
 * reads alone, a copy's MB/s is also bound by its writes), cold, into
 * *who. */
static double best_cold_read(const struct rrun *r, const char **who)
{
	double best = NAN;
	json_t *s;
	size_t i;

	json_array_foreach(r->sum, i, s) {
		double v = nget(s, RC_MB_S), rd = nget(s, "read_mb_s");

		if (rd > v)
			v = rd;

		if ((strcmp(sget(s, "kind"), "run") && strcmp(sget(s, "kind"), "fio")) ||
		    strcmp(sget(s, "cache"), "cold") || !(v > 0) || v <= best)
			continue;
		best = v;
		*who = sget(s, RC_CONFIG_ID);
	}
	return best;
}

const char *limits_vm_note(const struct rrun *r, char *buf, size_t len)
{
	const char *virt = sget(r->env, "virt"), *who = "";
	struct limit_est e[LIMIT_N];
	double best;
	json_t *s, *first = NULL;
	size_t i;

	buf[0] = 0;
	json_array_foreach(r->sum, i, s)
		if (!first && !strcmp(sget(s, "kind"), "limits") &&
		    !strcmp(sget(s, "limit"), "read_direct"))
			first = s;
	if (!*virt || !strcmp(virt, "none") || !first)
		return buf;
	limits_of_cell(r->rows, first, e);
	best = best_cold_read(r, &who);
	if (!(best > (isfinite(e[LIMIT_READ_DIRECT].hi) ? e[LIMIT_READ_DIRECT].hi :
		      e[LIMIT_READ_DIRECT].median)))
		return buf;
	snprintf(buf, len, "this machine is a VM (%s) and a cold read (%s, %.0f MB/s) beats "
		 "the calibrated direct read (%.0f MB/s): the host may be caching the "
		 "disk, so \"cold\" here means the guest's page cache was dropped, not "
		 "that the bytes came from the device", virt, who, best,
		 e[LIMIT_READ_DIRECT].median);
	return buf;
}
