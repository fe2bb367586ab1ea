// SPDX-License-Identifier: MIT
/* A run's whole cost per configuration: CPU in and outside the process, PSI, reclaim, the device, peak memory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "report.h"
#include "results/row.h"
#include "results/stats_math.h"

#define MIB (1024.0 * 1024.0)

/* A repetition the table takes: a timed one of a run that completed (a
 * traced one ran with the probes attached; a failed or killed one did
 * not read its bytes_in). */
static bool taken(json_t *row)
{
	json_t *e = json_object_get(row, "error");

	return !strcmp(sget(row, "kind"), "run") && row_timed(row) && (!e || json_is_null(e));
}

/* The median of column k over the taken rows of config id that have it
 * (k "mem_peak" is row_mem_peak's, *sampled set when one row's was the
 * sampler's); NAN when none has it, never 0. */
static double median_of(json_t *rows, const char *id, const char *k, double *v,
			bool *sampled)
{
	size_t n = 0, i;
	struct summary s;
	json_t *row;
	bool smp;
	double x;

	json_array_foreach(rows, i, row) {
		if (!taken(row) || strcmp(sget(row, RC_CONFIG_ID), id))
			continue;
		if (!strcmp(k, "mem_peak")) {
			x = row_mem_peak(row, &smp);
			if (!isnan(x) && smp)
				*sampled = true;
		} else {
			x = nget(row, k);
		}
		if (!isnan(x))
			v[n++] = x;
	}
	if (!n)
		return NAN;
	summarize(v, n, &s);
	return s.median;
}

/* A count's median: whole, an integer (a median of two may be half). */
static json_t *rcount(double v)
{
	return isfinite(v) && v == floor(v) && fabs(v) < 1e15 ? json_integer((json_int_t)v) :
	       rnum(v);
}

/* Append s to the list under key in o, once. */
static void source_add(json_t *o, const char *key, const char *s)
{
	json_t *l = json_object_get(o, key), *x;
	size_t i;

	if (!*s)
		return;
	if (!l) {
		l = json_array();
		json_object_set_new(o, key, l);
	}
	json_array_foreach(l, i, x)
		if (!strcmp(json_string_value(x), s))
			return;
	json_array_append_new(l, json_string(s));
}

/* The list under key as "a; b" in buf, "none" when empty. */
static const char *source_of(json_t *o, const char *key, char *buf, size_t len)
{
	json_t *l = json_object_get(o, key), *x;
	size_t i, at = 0;

	snprintf(buf, len, "none");
	json_array_foreach(l, i, x)
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? "; " : "",
					       json_string_value(x));
	return buf;
}

/* A figure of kernel threads to show: a taken row with kthread_s. */
static bool with_kthread(json_t *row, const void *unused)
{
	(void)unused;
	return taken(row) && json_is_number(json_object_get(row, "kthread_s"));
}

/* The sources the taken rows name, each column's, and the cgroup versions. */
static json_t *sources(json_t *rows)
{
	json_t *o = json_object(), *row;
	size_t i;

	json_array_foreach(rows, i, row) {
		if (!taken(row))
			continue;
		if (json_is_number(json_object_get(row, "psi_io_some_us")) ||
		    json_is_number(json_object_get(row, "psi_mem_some_us")))
			source_add(o, "psi", sget(row, "psi_source"));
		if (json_is_number(json_object_get(row, "pgscan")) ||
		    json_is_number(json_object_get(row, "workingset_refault")))
			source_add(o, "reclaim", sget(row, "reclaim_source"));
		if (json_is_number(json_object_get(row, "dev_read_bytes")) ||
		    json_is_number(json_object_get(row, "dev_write_bytes")))
			source_add(o, "dev", sget(row, "dev_source"));
		if (*sget(row, "cgroup"))
			source_add(o, "cgroup", sget(row, "cgroup"));
	}
	return o;
}

void report_cost(const struct rrun *r, struct rdoc *d)
{
	static const char *const cols[] = { RC_CONFIG_ID, "cpu_s", "kthread_s",
		"outside_pct", "cpu_s_per_gb", "psi_io_some_ms", "psi_mem_some_ms",
		"pgscan", "pgsteal", "refaults", "dev_read_mb", "dev_write_mb",
		"mem_peak_mib", NULL };
	double *v = calloc(json_array_size(r->rows) + 1, sizeof(double));
	bool sampled = false;
	struct rtable *t;
	json_t *s, *src;
	char b[4][256];
	size_t i;

	if (!v || !rows_any(r->rows, with_kthread, NULL)) {
		free(v);
		return;
	}
	t = rdoc_table(d, "a run's whole cost", cols);
	json_array_foreach(r->sum, i, s) {
		const char *id = sget(s, RC_CONFIG_ID);
		double u, sy, k, all, in;

		if (strcmp(sget(s, "kind"), "run"))
			continue;
#define MED(col) median_of(r->rows, id, col, v, &sampled)
		u = MED(RC_USER);
		sy = MED(RC_SYS);
		k = MED("kthread_s");
		in = MED(RC_BYTES_IN);
		all = u + sy + k;
		rtable_add(t, json_pack("[s,o,o,o,o,o,o,o,o,o,o,o,o]", id, rnum(u + sy),
					rnum(k), rnum(all > 0 ? 100 * k / all : NAN),
					rnum(in > 0 ? all / (in / 1e9) : NAN),
					rnum(MED("psi_io_some_us") / 1e3),
					rnum(MED("psi_mem_some_us") / 1e3),
					rcount(MED("pgscan")), rcount(MED("pgsteal")),
					rcount(MED("workingset_refault")),
					rnum(MED("dev_read_bytes") / 1e6),
					rnum(MED("dev_write_bytes") / 1e6),
					rnum(MED("mem_peak") / MIB)));
#undef MED
	}
	free(v);
	src = sources(r->rows);
	rtable_note(t, "medians over the timed repetitions that completed (traced "
		    "ones left out), each column of the repetitions that have it "
		    "(empty: none has); cpu_s = user+sys, the process's; kthread_s = "
		    "CPU of kernel threads (kswapd, kworkers, ksoftirqd) during the "
		    "repetition, system-wide: an upper bound of the run's share on a "
		    "shared machine; outside_pct = kthread_s / (cpu_s + kthread_s); "
		    "cpu_s_per_gb = (user + sys + kthread) s per GB (10^9 bytes) of "
		    "bytes_in: CPU per GB counts all three; psi_*_some_ms: stall time, "
		    "%s; pgscan, pgsteal, refaults (workingset_refault): %s; "
		    "dev_*_mb (10^6 bytes): %s; mem_peak_mib: the peak charged to the "
		    "repetition's cgroup (%s)%s (docs/memory.md)",
		    source_of(src, "psi", b[0], sizeof(b[0])),
		    source_of(src, "reclaim", b[1], sizeof(b[1])),
		    source_of(src, "dev", b[2], sizeof(b[2])),
		    source_of(src, "cgroup", b[3], sizeof(b[3])),
		    sampled ? ", the sampled anon + page cache where the kernel "
		    "keeps no peak (Linux before 5.19)" : "");
	json_decref(src);
}
