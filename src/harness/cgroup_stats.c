// SPDX-License-Identifier: MIT
/* A repetition's cgroup accounting: peak memory (anon and cache apart), reclaim, OOM, device I/O, PSI. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "lib/util.h"

static void path_of(const struct cgroup_rep *cg, const char *file, char *p, size_t len)
{
	snprintf(p, len, "%s/%s", cg->dir, file);
}

/* memory.stat's text into text: reread from the open file (no open, no
 * allocation: the sampler and the settle), else read by its path */
static int stat_text(const struct cgroup_rep *cg, char *text, size_t len)
{
	char p[PATH_MAX + 32];
	ssize_t n;

	if (!cg->stat_open) {
		path_of(cg, "memory.stat", p, sizeof(p));
		return read_sysfs(p, text, len);
	}
	n = pread(cg->stat_fd, text, len - 1, 0);
	if (n < 0)
		return -errno;
	text[n] = 0;
	return 0;
}

/* anon and page cache charged now (v2 anon/file, v1 rss/cache): 0, or
 * -errno with *anon and *file untouched */
static int charged(const struct cgroup_rep *cg, uint64_t *anon, uint64_t *file)
{
	char text[8192];
	uint64_t a, f;
	int ret = stat_text(cg, text, sizeof(text));

	if (!ret)
		ret = cg_key_in(text, cg->version == 2 ? "anon" : "rss", &a);
	if (!ret)
		ret = cg_key_in(text, cg->version == 2 ? "file" : "cache", &f);
	if (ret)
		return ret;
	*anon = a;
	*file = f;
	return 0;
}

void cgroup_rep_settle(struct cgroup_rep *cg)
{
	static const struct timespec ms = { 0, 1000 * 1000 };
	uint64_t anon, file;

	for (int i = 0; i < 1000; i++) {
		if (charged(cg, &anon, &file) || !anon)
			return;
		nanosleep(&ms, NULL);
	}
}

/* Sleep 20 ms or until stopped; whether to go on. */
static bool tick(struct cgroup_rep *cg)
{
	struct timespec until;
	bool go;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += 20 * 1000 * 1000;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&cg->mu);
	while (!cg->stop && pthread_cond_timedwait(&cg->wake, &cg->mu, &until) == 0)
		;
	go = !cg->stop;
	pthread_mutex_unlock(&cg->mu);
	return go;
}

static void *sample_loop(void *arg)
{
	struct cgroup_rep *cg = arg;
	uint64_t anon, file;

	do {
		if (charged(cg, &anon, &file))
			continue; /* tick() is still the loop's condition */
		atomic_store(&cg->sampled, true);
		if (anon > atomic_load(&cg->peak_anon))
			atomic_store(&cg->peak_anon, anon);
		if (file > atomic_load(&cg->peak_file))
			atomic_store(&cg->peak_file, file);
	} while (tick(cg));
	return NULL;
}

void cgroup_rep_sample(struct cgroup_rep *cg)
{
	pthread_condattr_t ca;

	if (!cg->version || cg->sampling)
		return;
	cg->stop = false;
	pthread_mutex_init(&cg->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&cg->wake, &ca);
	pthread_condattr_destroy(&ca);
	cg->sampling = !pthread_create(&cg->sampler, NULL, sample_loop, cg);
	if (!cg->sampling) {
		pthread_cond_destroy(&cg->wake);
		pthread_mutex_destroy(&cg->mu);
	}
}

void cgroup_rep_unsample(struct cgroup_rep *cg)
{
	if (!cg->sampling)
		return;
	pthread_mutex_lock(&cg->mu);
	cg->stop = true;
	pthread_cond_signal(&cg->wake);
	pthread_mutex_unlock(&cg->mu);
	pthread_join(cg->sampler, NULL);
	pthread_cond_destroy(&cg->wake);
	pthread_mutex_destroy(&cg->mu);
	cg->sampling = false;
}

static void set_u64(json_t *row, const char *col, int ret, uint64_t v)
{
	json_object_set_new(row, col, ret ? json_null() : json_integer((json_int_t)v));
}

/*
 * The rule of what follows: a figure the cgroup's file gave is written,
 * with its label where a group of figures has one (dev_source,
 * reclaim_source, psi_source), only when the whole group was read; a
 * file that could not be read (io.stat without the io controller, which
 * is enabled best effort; memory.peak before Linux 5.19) leaves the
 * system's figures and label (kcost.c), or null: never a zero that was
 * not measured.
 */

/* "8:0 rbytes=1 wbytes=2 rios=3 wios=4 ..." lines of v2 io.stat */
static uint64_t iostat_sum(const char *text, const char *key)
{
	const char *p;
	uint64_t sum = 0;
	size_t k = strlen(key);

	for (p = text; (p = strstr(p, key)); p += k)
		if (p > text && p[-1] == ' ')
			sum += strtoull(p + k, NULL, 10);
	return sum;
}

static void device_io(const struct cgroup_rep *cg, json_t *row)
{
	static const char *const keys[] = { "rbytes=", "wbytes=", "rios=", "wios=" };
	static const char *const cols[] = { "dev_read_bytes", "dev_write_bytes",
					    "dev_reads", "dev_writes" };
	char p[PATH_MAX + 32], *text;

	if (cg->version != 2)
		return; /* v1: the system's (kcost.c) */
	path_of(cg, "io.stat", p, sizeof(p));
	if (read_file_small(p, &text, NULL))
		return;
	for (int i = 0; i < 4; i++)
		json_object_set_new(row, cols[i], json_integer((json_int_t)
					iostat_sum(text, keys[i])));
	free(text);
	json_object_set_new(row, "dev_source", json_text("cgroup v2 io.stat"));
}

/* Refaults (v1 and v2) and v2's pgscan, pgsteal of the cgroup: 0, or
 * -errno when one of them is not in its memory.stat. */
static int reclaim_read(const struct cgroup_rep *cg, uint64_t v[4])
{
	static const char *const v1[] = { "total_workingset_refault_anon",
					  "total_workingset_refault_file", NULL };
	static const char *const v2[] = { "workingset_refault_anon",
		"workingset_refault_file", "pgscan", "pgsteal", NULL };
	const char *const *keys = cg->version == 2 ? v2 : v1;
	char p[PATH_MAX + 32];
	int ret = 0;

	path_of(cg, "memory.stat", p, sizeof(p));
	for (int i = 0; keys[i] && !ret; i++)
		ret = cg_read_key(p, keys[i], &v[i]);
	return ret;
}

/* v2: reclaim and refaults of the cgroup; v1 its refaults, the system's pgscan/pgsteal */
static void reclaim(const struct cgroup_rep *cg, json_t *row)
{
	uint64_t v[4];

	if (reclaim_read(cg, v))
		return;
	json_object_set_new(row, "workingset_refault", json_integer((json_int_t)(v[0] + v[1])));
	if (cg->version == 1) {
		json_object_set_new(row, "reclaim_source",
				    json_text("cgroup v1 (refaults), system (pgscan, pgsteal)"));
		return;
	}
	json_object_set_new(row, "pgscan", json_integer((json_int_t)v[2]));
	json_object_set_new(row, "pgsteal", json_integer((json_int_t)v[3]));
	json_object_set_new(row, "reclaim_source", json_text("cgroup v2"));
}

static void pressure(const struct cgroup_rep *cg, json_t *row)
{
	static const char *const cols[] = { "psi_io_some_us", "psi_io_full_us",
					    "psi_mem_some_us", "psi_mem_full_us" };
	char p[PATH_MAX + 32];
	uint64_t v[4];

	if (cg->version != 2)
		return; /* v1: the system's (kcost.c) */
	path_of(cg, "io.pressure", p, sizeof(p));
	if (cg_read_psi(p, &v[0], &v[1]))
		return;
	path_of(cg, "memory.pressure", p, sizeof(p));
	if (cg_read_psi(p, &v[2], &v[3]))
		return;
	for (int i = 0; i < 4; i++)
		json_object_set_new(row, cols[i], json_integer((json_int_t)v[i]));
	json_object_set_new(row, "psi_source", json_text("cgroup v2"));
}

/* The kernel charges a cgroup in batches of 64 pages: a peak this close
 * to the limit is the limit reached. */
#define CHARGE_BATCH (64 * 4096)

/* Whether the cgroup reached its own limit: v2 its "oom" event (counted
 * in the cgroup whose limit was reached, and its ancestors: a repetition's
 * cgroup has no children); v1 a failed charge against its own counters
 * (memory or memory + swap; an ancestor's failure is counted there), or
 * its peak at the limit (limits of a few batches fail with failcnt 0). */
static bool own_limit_hit(const struct cgroup_rep *cg)
{
	char p[PATH_MAX + 32];
	uint64_t n = 0, sw = 0, peak = 0;

	if (cg->version == 2) {
		path_of(cg, "memory.events", p, sizeof(p));
		return !cg_read_key(p, "oom", &n) && n > 0;
	}
	path_of(cg, "memory.failcnt", p, sizeof(p));
	if (cg_read_u64(p, &n))
		return true; /* unreadable: the limit it was given */
	path_of(cg, "memory.memsw.failcnt", p, sizeof(p));
	if (!cg_read_u64(p, &sw))
		n += sw;
	path_of(cg, "memory.max_usage_in_bytes", p, sizeof(p));
	if (!cg_read_u64(p, &peak) && peak + CHARGE_BATCH >= cg->limit)
		n++;
	return n > 0;
}

/* A limit file's value: 0 for none ("max", v1's page-counter maximum). */
static uint64_t limit_in(const char *dir, int version)
{
	char p[PATH_MAX + 32];
	uint64_t v = 0;

	snprintf(p, sizeof(p), "%s/%s", dir, version == 2 ? "memory.max" :
		 "memory.limit_in_bytes");
	if (cg_read_u64(p, &v) || v >= (UINT64_C(1) << 62))
		return 0;
	return v;
}

/* The smallest limit of the cgroups above cg (up to the hierarchy's
 * root, the first directory without the limit file): 0 when none. */
static uint64_t enclosing_limit(const struct cgroup_rep *cg, char *where, size_t len)
{
	char dir[PATH_MAX], f[PATH_MAX + 32], *slash;
	uint64_t best = 0, v;

	snprintf(dir, sizeof(dir), "%s", cg->dir);
	while ((slash = strrchr(dir, '/')) && slash != dir) {
		*slash = 0;
		snprintf(f, sizeof(f), "%s/%s", dir, cg->version == 2 ? "memory.max" :
			 "memory.limit_in_bytes");
		if (access(f, F_OK))
			break;
		v = limit_in(dir, cg->version);
		if (v && (!best || v < best)) {
			best = v;
			snprintf(where, len, "%s", dir);
		}
	}
	return best;
}

/* An OOM kill that is not its memory_max's: oom_elsewhere names the
 * cause (docs/results.md), the row is a failure, not a result. */
static void oom_elsewhere(const struct cgroup_rep *cg, json_t *row)
{
	char where[PATH_MAX], lim[32], why[PATH_MAX + 96];
	uint64_t v = enclosing_limit(cg, where, sizeof(where));

	if (v) {
		fmt_limit(v, lim, sizeof(lim));
		snprintf(why, sizeof(why), "the limit of the enclosing cgroup %s (%s)",
			 where, lim);
	} else {
		snprintf(why, sizeof(why), "no limit of its own was reached and no "
			 "enclosing limit could be read (the machine's memory)");
	}
	json_object_set_new(row, "oom_elsewhere", json_text(why));
}

/* Peak memory charged; the sampled peaks, null when neither the samples
 * nor the end read memory.stat; oom_kill null when its file was not read. */
static void memory(struct cgroup_rep *cg, json_t *row)
{
	char p[PATH_MAX + 32];
	uint64_t peak = 0, anon = 0, file = 0, oom = 0;
	int ret, end;

	path_of(cg, cg->version == 2 ? "memory.peak" : "memory.max_usage_in_bytes",
		p, sizeof(p));
	ret = cg_read_u64(p, &peak);
	set_u64(row, "mem_peak_bytes", ret, peak);
	end = charged(cg, &anon, &file);
	ret = end && !atomic_load(&cg->sampled);
	set_u64(row, "mem_peak_anon_bytes", ret, MAX(anon, atomic_load(&cg->peak_anon)));
	set_u64(row, "mem_peak_file_bytes", ret, MAX(file, atomic_load(&cg->peak_file)));
	set_u64(row, "mem_file_end_bytes", end, file);
	path_of(cg, cg->version == 2 ? "memory.events" : "memory.oom_control",
		p, sizeof(p));
	ret = cg_read_key(p, "oom_kill", &oom);
	cg->oom = !ret && oom > 0 && cg->limit && own_limit_hit(cg);
	json_object_set_new(row, "oom_kill", ret ? json_null() : json_boolean(cg->oom));
	if (!ret && oom > 0 && !cg->oom)
		oom_elsewhere(cg, row);
}

void cgroup_rep_finish(struct cgroup_rep *cg, json_t *row)
{
	cgroup_rep_unsample(cg);
	if (!cg->version) {
		json_object_set_new(row, "cgroup_error", json_text(cg->why));
		return;
	}
	json_object_set_new(row, "cgroup", json_text(cg->version == 2 ? "v2" : "v1"));
	memory(cg, row);
	reclaim(cg, row);
	device_io(cg, row);
	pressure(cg, row);
}

bool cgroup_rep_oom(const struct cgroup_rep *cg)
{
	return cg->oom;
}
