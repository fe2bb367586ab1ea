// SPDX-License-Identifier: MIT
/*
 * fio's JSON (--output-format=json) into a result row.  Jobs are summed
 * per direction; a stonewalled read-then-write job file takes the sum of
 * the phases' runtimes as its elapsed time, concurrent jobs (same group)
 * the longest runtime.
 */
#include <errno.h>
#include <string.h>

#include "fio.h"

struct dir_sum {
	double bytes, iops, bw_bytes;
	double clat_p50_ns, clat_p99_ns; /* of the largest job in bytes */
	double best_bytes;
};

static int num(json_t *o, const char *key, double *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_number(v))
		return -EINVAL;
	*out = json_number_value(v);
	return 0;
}

static double pct(json_t *dir, const char *p)
{
	json_t *c = json_object_get(json_object_get(dir, "clat_ns"), "percentile");

	return json_number_value(json_object_get(c, p));
}

static int add_dir(json_t *job, const char *name, struct dir_sum *s,
		   const char **why)
{
	json_t *d = json_object_get(job, name);
	double bytes, iops, bw;

	if (!json_is_object(d) || num(d, "io_bytes", &bytes) ||
	    num(d, "iops", &iops) || num(d, "bw_bytes", &bw)) {
		*why = name;
		return -EINVAL;
	}
	s->bytes += bytes;
	s->iops += iops;
	s->bw_bytes += bw;
	if (bytes > s->best_bytes) {
		s->best_bytes = bytes;
		s->clat_p50_ns = pct(d, "50.000000");
		s->clat_p99_ns = pct(d, "99.000000");
	}
	return 0;
}

/* runtime of a job in ms: the larger of its read and write phases */
static double job_ms(json_t *job)
{
	double r = 0, w = 0;

	num(json_object_get(job, "read"), "runtime", &r);
	num(json_object_get(job, "write"), "runtime", &w);
	return r > w ? r : w;
}

static void set_real(json_t *row, const char *k, double v)
{
	json_object_set_new(row, k, json_real(v));
}

/* fio's own per-phase bandwidth and IOPS, summed over concurrent jobs */
static void set_dir(json_t *row, const char *prefix, const struct dir_sum *s)
{
	char k[64];

	snprintf(k, sizeof(k), "%s_mb_s", prefix);
	set_real(row, k, s->bw_bytes / 1e6);
	snprintf(k, sizeof(k), "%s_iops", prefix);
	set_real(row, k, s->iops);
	snprintf(k, sizeof(k), "%s_clat_p50_us", prefix);
	set_real(row, k, s->clat_p50_ns / 1e3);
	snprintf(k, sizeof(k), "%s_clat_p99_us", prefix);
	set_real(row, k, s->clat_p99_ns / 1e3);
}

int fio_parse_json(json_t *fio, json_t *row, const char **why)
{
	struct dir_sum rd = { 0 }, wr = { 0 };
	json_t *jobs = json_object_get(fio, "jobs"), *job, *groups = json_object();
	double usr = 0, sys = 0, secs = 0;
	const char *k;
	json_t *v;
	size_t i;

	*why = "jobs";
	if (!json_is_array(jobs) || !json_array_size(jobs)) {
		json_decref(groups);
		return -EINVAL;
	}
	json_array_foreach(jobs, i, job) {
		char gid[32];
		double ms = job_ms(job), prev, u = 0, s = 0;

		if (add_dir(job, "read", &rd, why) || add_dir(job, "write", &wr, why)) {
			json_decref(groups);
			return -EINVAL;
		}
		num(job, "usr_cpu", &u);
		num(job, "sys_cpu", &s);
		usr += u * ms;
		sys += s * ms;
		snprintf(gid, sizeof(gid), "%lld",
			 (long long)json_integer_value(json_object_get(job, "groupid")));
		prev = json_number_value(json_object_get(groups, gid));
		if (ms > prev)
			json_object_set_new(groups, gid, json_real(ms));
	}
	json_object_foreach(groups, k, v)
		secs += json_real_value(v) / 1e3;
	json_decref(groups);
	json_object_set_new(row, "fio_version",
			    json_incref(json_object_get(fio, "fio version")) ?: json_null());
	json_object_set_new(row, RC_BYTES_IN, json_integer((json_int_t)rd.bytes));
	json_object_set_new(row, "bytes_out", json_integer((json_int_t)wr.bytes));
	set_real(row, "fio_elapsed_s", secs);
	/* the same definition as a strategy's mb_s: input bytes / elapsed */
	set_real(row, RC_MB_S, secs > 0 ? (rd.bytes ? rd.bytes : wr.bytes) / secs / 1e6 : 0);
	set_dir(row, "read", &rd);
	set_dir(row, "write", &wr);
	set_real(row, "fio_usr_cpu_pct", secs > 0 ? usr / (secs * 1e3) : 0);
	set_real(row, "fio_sys_cpu_pct", secs > 0 ? sys / (secs * 1e3) : 0);
	*why = NULL;
	return 0;
}
