// SPDX-License-Identifier: MIT
/* A repetition's cgroup figures (cgroup_stats.c) read from a fake v2 cgroup
 * directory: what was read is written with the cgroup's label; what could
 * not be read keeps the system-wide figure and its label, or is null --
 * never a zero that was not measured. */
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/cgroup.h"
#include "scratch.h"
#include "unit.h"

/* A scratch directory for this binary's cases. */
UNIT_SCRATCH("cgroup_stats")

static struct cgroup_rep cg;

/* A fresh fake v2 cgroup scratch/NAME holding FILE=TEXT pairs (NULL-ended). */
static void fake_cgroup(const char *name, ...)
{
	char p[PATH_MAX + 64];
	const char *file;
	va_list ap;

	memset(&cg, 0, sizeof(cg));
	cg.version = 2;
	snprintf(cg.dir, sizeof(cg.dir), "%s/%s", scratch, name);
	mkdir(cg.dir, 0755);
	va_start(ap, name);
	while ((file = va_arg(ap, const char *))) {
		FILE *f;

		snprintf(p, sizeof(p), "%s/%s", cg.dir, file);
		f = fopen(p, "w");
		if (f) {
			fputs(va_arg(ap, const char *), f);
			fclose(f);
		}
	}
	va_end(ap);
}

/* A row as kcost_end leaves it: the system's figures and labels. */
static json_t *system_row(void)
{
	return json_pack("{s:i, s:i, s:i, s:i, s:s, s:i, s:i, s:i, s:s, s:i, s:i, s:i, s:i, s:s}",
			 "dev_read_bytes", 4096, "dev_write_bytes", 8192, "dev_reads", 1,
			 "dev_writes", 2, "dev_source", "system /proc/diskstats vda",
			 "pgscan", 7, "pgsteal", 6, "workingset_refault", 5,
			 "reclaim_source", "system", "psi_io_some_us", 11,
			 "psi_io_full_us", 12, "psi_mem_some_us", 13, "psi_mem_full_us", 14,
			 "psi_source", "system");
}

/* The row as JSON, for a failed check's message (a static buffer). */
static const char *dump(json_t *row)
{
	static char buf[2048];
	size_t n = json_dumpb(row, buf, sizeof(buf) - 1, JSON_COMPACT);

	buf[n < sizeof(buf) ? n : 0] = 0;
	return buf;
}

static json_int_t n_of(json_t *row, const char *k)
{
	return json_integer_value(json_object_get(row, k));
}

static const char *s_of(json_t *row, const char *k)
{
	const char *s = json_string_value(json_object_get(row, k));

	return s ? s : "(null)";
}

static const char stat_text[] = "anon 100\nfile 200\nworkingset_refault_anon 1\n"
				"workingset_refault_file 2\npgscan 3\npgsteal 4\n";
static const char psi_text[] = "some avg10=0.00 avg60=0.00 avg300=0.00 total=21\n"
			       "full avg10=0.00 avg60=0.00 avg300=0.00 total=22\n";

UNIT(what_was_read_is_the_cgroups)
{
	json_t *row = system_row();

	fake_cgroup("all", "memory.stat", stat_text, "memory.peak", "300\n",
		    "memory.events", "oom 1\noom_kill 1\n",
		    "io.stat", "8:0 rbytes=10 wbytes=20 rios=1 wios=2 dbytes=0 dios=0\n"
		    "8:16 rbytes=5 wbytes=0 rios=1 wios=0 dbytes=0 dios=0\n",
		    "io.pressure", psi_text, "memory.pressure", psi_text, NULL);
	cg.limit = 1 << 30;
	cgroup_rep_finish(&cg, row);
	CHECK(n_of(row, "mem_peak_bytes") == 300 && n_of(row, "mem_peak_anon_bytes") == 100 &&
	      n_of(row, "mem_file_end_bytes") == 200 && json_is_true(json_object_get(row, "oom_kill")),
	      "%s", dump(row));
	CHECK(n_of(row, "dev_read_bytes") == 15 && n_of(row, "dev_writes") == 2 &&
	      !strcmp(s_of(row, "dev_source"), "cgroup v2 io.stat"), "%s", dump(row));
	CHECK(n_of(row, "pgscan") == 3 && n_of(row, "workingset_refault") == 3 &&
	      !strcmp(s_of(row, "reclaim_source"), "cgroup v2"), "%s", dump(row));
	CHECK(n_of(row, "psi_mem_full_us") == 22 && !strcmp(s_of(row, "psi_source"), "cgroup v2"),
	      "%s", dump(row));
	json_decref(row);
	return 0;
}

/* io.stat absent (the io controller not enabled: best effort): the
 * system's /proc/diskstats figures stay, labelled so. */
UNIT(io_stat_unread_keeps_the_system_figures)
{
	json_t *row = system_row();

	fake_cgroup("noio", "memory.stat", stat_text, NULL);
	cgroup_rep_finish(&cg, row);
	CHECK(n_of(row, "dev_read_bytes") == 4096 && n_of(row, "dev_writes") == 2 &&
	      !strcmp(s_of(row, "dev_source"), "system /proc/diskstats vda"),
	      "%s", dump(row));
	json_decref(row);
	return 0;
}

/* memory.stat, memory.peak, memory.events absent: null, not 0 or false. */
UNIT(memory_unread_is_null_not_zero)
{
	static const char *const cols[] = { "mem_peak_bytes", "mem_peak_anon_bytes",
		"mem_peak_file_bytes", "mem_file_end_bytes", "oom_kill", NULL };
	json_t *row = system_row();

	fake_cgroup("nomem", NULL);
	cgroup_rep_finish(&cg, row);
	for (int i = 0; cols[i]; i++)
		CHECK(json_is_null(json_object_get(row, cols[i])), "%s: %s", cols[i],
		      dump(row));
	CHECK(!strcmp(s_of(row, "cgroup"), "v2"), "%s", dump(row));
	json_decref(row);
	return 0;
}

/* Half of a group read (io.pressure but no memory.pressure; refaults but
 * no pgscan): the whole group stays the system's, not a mix under one label. */
UNIT(half_read_groups_stay_the_systems)
{
	json_t *row = system_row();

	fake_cgroup("half", "memory.stat", "anon 1\nfile 2\nworkingset_refault_anon 1\n"
		    "workingset_refault_file 2\n", "io.pressure", psi_text, NULL);
	cgroup_rep_finish(&cg, row);
	CHECK(n_of(row, "psi_io_some_us") == 11 && !strcmp(s_of(row, "psi_source"), "system"),
	      "%s", dump(row));
	CHECK(n_of(row, "pgscan") == 7 && n_of(row, "workingset_refault") == 5 &&
	      !strcmp(s_of(row, "reclaim_source"), "system"), "%s", dump(row));
	json_decref(row);
	return 0;
}

/* A file DIR/NAME of scratch holding text. */
static void put(const char *dir, const char *name, const char *text)
{
	char p[PATH_MAX + 64];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s/%s", scratch, dir, name);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* An enclosing cgroup, scratch/dir, whose file says its limit. */
static void enclosing(const char *dir, const char *file, const char *limit)
{
	char d[PATH_MAX];

	snprintf(d, sizeof(d), "%s/%s", scratch, dir);
	mkdir(d, 0755);
	put(dir, file, limit);
}

/* v2: killed (oom_kill 1) while its own limit was never reached (oom 0),
 * under a parent limited to 16 MiB: not its memory_max's, the parent named. */
UNIT(a_kill_for_an_enclosing_v2_limit_names_it)
{
	json_t *row = system_row();

	enclosing("encl2", "memory.max", "16777216\n");
	fake_cgroup("encl2/rep", "memory.events", "oom 0\noom_kill 1\n", NULL);
	cg.limit = 1 << 30;
	cgroup_rep_finish(&cg, row);
	CHECK(json_is_false(json_object_get(row, "oom_kill")), "%s", dump(row));
	CHECK(strstr(s_of(row, "oom_elsewhere"), "encl2 (16 MiB)"), "%s", dump(row));
	json_decref(row);
	return 0;
}

/* v1: a kill with no failed charge of its own (failcnt 0) is the
 * enclosing limit's; with one, its memory_max's. */
UNIT(v1_failcnt_says_whose_limit_killed)
{
	json_t *row = system_row();

	enclosing("encl1", "memory.limit_in_bytes", "524288\n");
	fake_cgroup("encl1/rep", "memory.oom_control", "under_oom 0\noom_kill 1\n",
		    "memory.failcnt", "0\n", NULL);
	cg.version = 1;
	cg.limit = 1 << 30;
	cgroup_rep_finish(&cg, row);
	CHECK(json_is_false(json_object_get(row, "oom_kill")) &&
	      strstr(s_of(row, "oom_elsewhere"), "encl1 (512 KiB)"), "%s", dump(row));
	json_decref(row);
	row = system_row();
	put("encl1/rep", "memory.failcnt", "3\n");
	cgroup_rep_finish(&cg, row);
	CHECK(json_is_true(json_object_get(row, "oom_kill")) &&
	      !json_object_get(row, "oom_elsewhere"), "%s", dump(row));
	json_decref(row);
	return 0;
}

/* Accounting without a limit: an OOM kill is never charged to memory_max. */
UNIT(a_kill_without_a_limit_is_not_memory_max)
{
	json_t *row = system_row();

	fake_cgroup("nolimit", "memory.events", "oom 1\noom_kill 1\n", NULL);
	cgroup_rep_finish(&cg, row);
	CHECK(json_is_false(json_object_get(row, "oom_kill")) &&
	      strstr(s_of(row, "oom_elsewhere"), "no limit of its own"), "%s", dump(row));
	json_decref(row);
	return 0;
}
