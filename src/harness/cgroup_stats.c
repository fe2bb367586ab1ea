// SPDX-License-Identifier: MIT
/* A repetition's cgroup accounting: peak memory (anon and cache apart), reclaim, OOM, device I/O, PSI. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgroup.h"
#include "lib/util.h"

static void path_of(const struct cgroup_rep *cg, const char *file, char *p, size_t len)
{
	snprintf(p, len, "%s/%s", cg->dir, file);
}

/* anon and page cache charged now: v2 anon/file, v1 rss/cache */
static void charged(const struct cgroup_rep *cg, uint64_t *anon, uint64_t *file)
{
	char p[PATH_MAX + 32];

	path_of(cg, "memory.stat", p, sizeof(p));
	*anon = *file = 0;
	cg_read_key(p, cg->version == 2 ? "anon" : "rss", anon);
	cg_read_key(p, cg->version == 2 ? "file" : "cache", file);
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
		charged(cg, &anon, &file);
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

/* "8:0 rbytes=1 wbytes=2 rios=3 wios=4 ..." lines of v2 io.stat */
static uint64_t iostat_sum(const char *path, const char *key)
{
	char *text, *p;
	uint64_t sum = 0;
	size_t k = strlen(key);

	if (read_file_small(path, &text, NULL))
		return 0;
	for (p = text; (p = strstr(p, key)); p += k)
		if (p > text && p[-1] == ' ')
			sum += strtoull(p + k, NULL, 10);
	free(text);
	return sum;
}

static void device_io(const struct cgroup_rep *cg, json_t *row)
{
	char b[PATH_MAX + 48];

	if (cg->version != 2)
		return; /* v1: the system's (kcost.c) */
	snprintf(b, sizeof(b), "%s/io.stat", cg->dir);
	json_object_set_new(row, "dev_read_bytes", json_integer((json_int_t)
				iostat_sum(b, "rbytes=")));
	json_object_set_new(row, "dev_write_bytes", json_integer((json_int_t)
				iostat_sum(b, "wbytes=")));
	json_object_set_new(row, "dev_reads", json_integer((json_int_t)
				iostat_sum(b, "rios=")));
	json_object_set_new(row, "dev_writes", json_integer((json_int_t)
				iostat_sum(b, "wios=")));
	json_object_set_new(row, "dev_source", json_text("cgroup v2 io.stat"));
}

/* v2: reclaim and refaults of the cgroup; v1 keeps the system's pgscan/pgsteal */
static void reclaim(const struct cgroup_rep *cg, json_t *row)
{
	char p[PATH_MAX + 32];
	uint64_t a = 0, f = 0, v;
	int ra, rf;

	path_of(cg, "memory.stat", p, sizeof(p));
	ra = cg_read_key(p, cg->version == 2 ? "workingset_refault_anon" :
			 "total_workingset_refault_anon", &a);
	rf = cg_read_key(p, cg->version == 2 ? "workingset_refault_file" :
			 "total_workingset_refault_file", &f);
	if (!ra || !rf)
		json_object_set_new(row, "workingset_refault", json_integer((json_int_t)(a + f)));
	if (cg->version == 1) {
		json_object_set_new(row, "reclaim_source", json_text(ra && rf ? "system" :
				    "cgroup v1 (refaults), system (pgscan, pgsteal)"));
		return;
	}
	if (!cg_read_key(p, "pgscan", &v))
		json_object_set_new(row, "pgscan", json_integer((json_int_t)v));
	if (!cg_read_key(p, "pgsteal", &v))
		json_object_set_new(row, "pgsteal", json_integer((json_int_t)v));
	json_object_set_new(row, "reclaim_source", json_text("cgroup v2"));
}

static void pressure(const struct cgroup_rep *cg, json_t *row)
{
	char p[PATH_MAX + 32];
	uint64_t s, f;

	if (cg->version != 2)
		return; /* v1: the system's (kcost.c) */
	path_of(cg, "io.pressure", p, sizeof(p));
	if (cg_read_psi(p, &s, &f))
		return;
	json_object_set_new(row, "psi_io_some_us", json_integer((json_int_t)s));
	json_object_set_new(row, "psi_io_full_us", json_integer((json_int_t)f));
	path_of(cg, "memory.pressure", p, sizeof(p));
	if (cg_read_psi(p, &s, &f))
		return;
	json_object_set_new(row, "psi_mem_some_us", json_integer((json_int_t)s));
	json_object_set_new(row, "psi_mem_full_us", json_integer((json_int_t)f));
	json_object_set_new(row, "psi_source", json_text("cgroup v2"));
}

static void memory(struct cgroup_rep *cg, json_t *row)
{
	char p[PATH_MAX + 32];
	uint64_t peak = 0, anon, file, oom = 0;
	int ret;

	path_of(cg, cg->version == 2 ? "memory.peak" : "memory.max_usage_in_bytes",
		p, sizeof(p));
	ret = cg_read_u64(p, &peak);
	charged(cg, &anon, &file);
	set_u64(row, "mem_peak_bytes", ret, peak);
	set_u64(row, "mem_peak_anon_bytes", 0, MAX(anon, atomic_load(&cg->peak_anon)));
	set_u64(row, "mem_peak_file_bytes", 0, MAX(file, atomic_load(&cg->peak_file)));
	set_u64(row, "mem_file_end_bytes", 0, file);
	path_of(cg, cg->version == 2 ? "memory.events" : "memory.oom_control",
		p, sizeof(p));
	cg_read_key(p, "oom_kill", &oom);
	cg->oom = oom > 0;
	json_object_set_new(row, "oom_kill", json_boolean(cg->oom));
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
