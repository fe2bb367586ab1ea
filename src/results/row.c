// SPDX-License-Identifier: MIT
/* Result rows: the column table, merging a command's own, writing JSON lines and CSV. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "row.h"
#include "config/jobopts.h"
#include "lib/util.h"

#define T COL_TEXT
#define F COL_FLAG
#define CORE COLF_CORE
#define ID COLF_IDENT

/*
 * The core columns, in CSV order (COLF_CORE: every row holds them, null
 * until written), then those a kind's rows add (COLF_IDENT: which
 * configuration, copied to summary.csv, never a median).  The empty name
 * is where the run settings' own columns go, in their table's order
 * (run_settings, config/jobopts.c: it types them).  A new column is one
 * line here (or in its strategy's or probe's .columns) and its writer;
 * docs/results.md holds `iostrat __columns --markdown` (tests/columns.sh;
 * tests/tools/columns-doc.sh build/iostrat writes it).
 */
const struct column row_columns[] = {
	{ "schema", COL_COUNT, 0, 0, "results", "the row format's version (ROW_SCHEMA)", CORE | ID },
	{ "bench", T, 0, 0, "harness", "the bench (profile) the row belongs to", CORE },
	{ "kind", T, "run|sweep|net|fio|limits", 0, "harness", "the kind of configuration", CORE },
	{ "config_id", T, 0, 0, "results", "the configuration's identity (config_id_make)", CORE },
	{ "rep", COL_COUNT, 0, 0, "harness", "the repetition of the configuration", CORE | ID },
	{ "round", COL_COUNT, 0, 0, "harness", "the engine's round it ran in", CORE | ID },
	{ "role", T, "timed|traced", 0, "harness", "timed, or traced with the probes attached", CORE },
	{ RC_DATASET, T, 0, 0, "harness", "the data set's name", CORE },
	{ "files", COL_COUNT, 0, 0, "harness", "input files", CORE | ID },
	{ RC_BYTES_IN, COL_SIZE, 0, "bytes", "harness", "bytes read", CORE | ID },
	{ "bytes_out", COL_SIZE, 0, "bytes", "harness", "bytes written", CORE | ID },
	{ RC_STRATEGY, T, 0, 0, "harness", "the strategy (iostrat list)", CORE },
	{ "", T, 0, 0, "config", "the run settings' columns (run_settings)", CORE },
	{ "resident_pct_before", COL_RATE, 0, "%", "harness", "inputs in the page cache at the start", CORE },
	{ RC_ELAPSED, COL_TIME, 0, "s", "harness", "wall time of the repetition", CORE },
	{ RC_USER, COL_TIME, 0, "s", "harness", "user CPU of the child", CORE },
	{ RC_SYS, COL_TIME, 0, "s", "harness", "system CPU of the child", CORE },
	{ RC_MAXRSS, COL_SIZE, 0, "KiB", "harness", "the child's peak RSS", CORE },
	{ "minflt", COL_COUNT, 0, 0, "harness", "minor page faults", CORE },
	{ "majflt", COL_COUNT, 0, 0, "harness", "major page faults", CORE },
	{ "nvcsw", COL_COUNT, 0, 0, "harness", "voluntary context switches", CORE },
	{ "nivcsw", COL_COUNT, 0, 0, "harness", "involuntary context switches", CORE },
	{ RC_MB_S, COL_RATE, 0, "MB/s", "harness", "bytes_in / elapsed_s / 10^6", CORE },
	{ "checksum", T, 0, 0, "harness", "checksum of the outputs", CORE },
	{ "verified", F, 0, 0, "harness", "the outputs match the reference", CORE },
	{ "traced", F, 0, 0, "trace", "the probes were attached", CORE },
	{ "seq_pct", COL_RATE, 0, "%", "trace", "device requests starting where the previous one ended", CORE },
	{ "pc_hits", COL_COUNT, 0, "pages", "trace", "page-cache hits", CORE },
	{ "pc_misses", COL_COUNT, 0, "pages", "trace", "page-cache misses", CORE },
	{ "pc_hit_ratio", COL_RATE, 0, "ratio", "trace", "the share (0..1) of the pages reads asked for found in the page cache", CORE },
	{ "ra_pages", COL_COUNT, 0, "pages", "trace", "pages read ahead", CORE },
	{ "req_p50_kb", COL_SIZE, 0, "KiB", "trace", "median device request size", CORE },
	{ "lat_p50_us", COL_TIME, 0, "us", "trace", "median device request latency", CORE },
	{ "lat_p99_us", COL_TIME, 0, "us", "trace", "99th percentile device request latency", CORE },
	{ "kernel", T, 0, 0, "harness", "the kernel's release", CORE },
	{ "scheduler", T, 0, 0, "sched", "the device's I/O scheduler", CORE },
	{ "device", T, 0, 0, "harness", "the block device of the inputs", CORE },
	{ "fs", T, 0, 0, "harness", "the file system of the inputs", CORE },
	{ "host", T, 0, 0, "harness", "the host name", CORE },
	{ "error", T, 0, 0, "harness", "why the repetition failed, or null", CORE },
	{ "cgroup", T, "v1|v2", 0, "harness", "the repetition's cgroup version", CORE },
	{ "cgroup_error", T, 0, 0, "harness", "why there was no cgroup", CORE },
	{ "oom_kill", F, 0, 0, "harness", "its own memory_max's OOM killer ended the child", CORE },
	{ "oom_elsewhere", T, 0, 0, "harness", "an OOM kill not its own limit's: the enclosing limit", CORE },
	{ "mem_peak_bytes", COL_SIZE, 0, "bytes", "harness", "peak memory charged", CORE },
	{ "mem_peak_anon_bytes", COL_SIZE, 0, "bytes", "harness", "peak anonymous memory", CORE },
	{ "mem_peak_file_bytes", COL_SIZE, 0, "bytes", "harness", "peak page cache charged", CORE },
	{ "mem_file_end_bytes", COL_SIZE, 0, "bytes", "harness", "page cache charged at the end", CORE },
	{ "pgscan", COL_COUNT, 0, "pages", "harness", "pages scanned by reclaim", CORE },
	{ "pgsteal", COL_COUNT, 0, "pages", "harness", "pages reclaimed", CORE },
	{ "workingset_refault", COL_COUNT, 0, "pages", "harness", "refaults of reclaimed pages", CORE },
	{ "reclaim_source", T, 0, 0, "harness", "cgroup or system", CORE },
	{ "dev_read_bytes", COL_SIZE, 0, "bytes", "harness", "bytes read from the device", CORE },
	{ "dev_write_bytes", COL_SIZE, 0, "bytes", "harness", "bytes written to the device", CORE },
	{ "dev_reads", COL_COUNT, 0, 0, "harness", "device read requests", CORE },
	{ "dev_writes", COL_COUNT, 0, 0, "harness", "device write requests", CORE },
	{ "dev_source", T, 0, 0, "harness", "cgroup or system", CORE },
	{ "psi_io_some_us", COL_TIME, 0, "us", "harness", "PSI io some stall", CORE },
	{ "psi_io_full_us", COL_TIME, 0, "us", "harness", "PSI io full stall", CORE },
	{ "psi_mem_some_us", COL_TIME, 0, "us", "harness", "PSI memory some stall", CORE },
	{ "psi_mem_full_us", COL_TIME, 0, "us", "harness", "PSI memory full stall", CORE },
	{ "psi_source", T, 0, 0, "harness", "cgroup or system", CORE },
	{ "kthread_s", COL_TIME, 0, "s", "harness", "CPU of kernel threads", CORE },
	{ "kswapd_s", COL_TIME, 0, "s", "harness", "CPU of kswapd", CORE },
	{ "kworker_s", COL_TIME, 0, "s", "harness", "CPU of kworkers", CORE },
	{ "ksoftirqd_s", COL_TIME, 0, "s", "harness", "CPU of ksoftirqd", CORE },
	/* a run row's own, after the core */
	{ "cache_method", T, "drop_caches|fadvise|read|none", 0, "harness", "how the cache state was made", 0 },
	{ "residency_method", T, "cachestat|mincore", 0, "harness", "how residency was measured", 0 },
	{ "cold_ok", F, 0, 0, "harness", "a cold cache was reached", 0 },
	{ "input_changed", F, 0, 0, "harness", "an input changed while the run read it", 0 },
	{ "cache_left_mib", COL_SIZE, 0, "MiB", "harness", "inputs and outputs left in the page cache", 0 },
	{ "transform_version", COL_COUNT, 0, 0, "harness", "the transform's declared version (a plug-in's bump when its output changes)", 0 },
	{ "transform_spec", T, 0, 0, "harness", "the transform as given (a plug-in's path and ARG)", 0 },
	{ "transform_hash", T, 0, 0, "harness", "xxh3-64 of the plug-in's file (built-ins: none)", 0 },
	{ "io_series", T, 0, "MB/s", "harness", "the disk's read/write MB/s per interval of a timed repetition (STEP_MS:R/W ...)", 0 },
	/* the other kinds' own, and the engine's */
	{ "order_seed", COL_COUNT, 0, 0, "harness", "the seed of the rounds' shuffled order", ID },
	{ "block_size", COL_SIZE, 0, "bytes", "sweep", "the sweep's block size", ID },
	{ "alignment", COL_SIZE, 0, "bytes", "sweep", "the sweep's buffer alignment", ID },
	{ "syscalls", COL_COUNT, 0, 0, "sweep", "read and write calls made", 0 },
	{ "kernel_reads", COL_COUNT, 0, 0, "sweep", "read calls the kernel counted (syscr)", 0 },
	{ "kernel_writes", COL_COUNT, 0, 0, "sweep", "write calls the kernel counted (syscw)", 0 },
	{ "msg_size", COL_SIZE, 0, "bytes", "net", "the message size", ID },
	{ "count", COL_COUNT, 0, 0, "net", "messages per run", ID },
	{ "limit", T, "read_direct|write_new_buffered|write_new_direct|pagecache_copy|copy_file_range|transform", 0, "engine", "the machine's limit measured (docs/limits.md)", 0 },
	{ "bytes", COL_SIZE, 0, "bytes", "engine", "limits: bytes read (the input's size)", 0 },
	{ "bs", COL_SIZE, 0, "bytes", "engine", "limits: the I/O size", 0 },
	{ "cpu_user_s", COL_TIME, 0, "s", "engine", "limits: user CPU of the measuring child", 0 },
	{ "cpu_sys_s", COL_TIME, 0, "s", "engine", "limits: system CPU of the measuring child", 0 },
	{ "machine_id", T, 0, 0, "engine", "limits: /etc/machine-id, the reuse key's machine", 0 },
	{ "limits_method", COL_COUNT, 0, 0, "engine", "limits: the measurements' version (LIMITS_METHOD), part of the reuse key", 0 },
	{ "measured_at", COL_COUNT, 0, "s", "engine", "limits: when it was measured (Unix time), for the reuse window", 0 },
	{ "reused_from", T, 0, 0, "engine", "limits: the results directory a reused row came from", 0 },
	{ "run_id", T, 0, 0, "engine", "limits: the results directory the row was written in", 0 },
	{ 0 },
};

bool column_is_settings(const struct column *c)
{
	return c->name && !c->name[0];
}

/* A run setting's column, its type from the settings table. */
static enum col_type setting_type(const struct setting *s)
{
	return s->type == SET_SIZE ? COL_SIZE :
	       s->type == SET_UINT || s->type == SET_COUNT ? COL_COUNT :
	       s->type == SET_BOOL ? COL_FLAG : COL_TEXT;
}

bool column_of_setting(const struct setting *s, struct column *c)
{
	if (!s->column)
		return false;
	*c = (struct column){ s->column, setting_type(s), NULL,
			      s->type == SET_SIZE ? "bytes" : NULL, "config",
			      s->help, COLF_CORE };
	return true;
}

const char *const *row_core_columns(void)
{
	static const char *cols[ARRAY_SIZE(row_columns) + 32];
	size_t n = 0;

	if (cols[0])
		return cols;
	for (const struct column *c = row_columns; c->name; c++) {
		if (!(c->flags & COLF_CORE))
			continue;
		if (!column_is_settings(c)) {
			cols[n++] = c->name;
			continue;
		}
		for (const struct setting *s = run_settings; s->name; s++)
			if (s->column && n < ARRAY_SIZE(cols) - ARRAY_SIZE(row_columns))
				cols[n++] = s->column;
	}
	return cols;
}

json_t *row_new(const char *bench, const char *kind)
{
	const char *const *cols = row_core_columns();
	json_t *r = json_object();

	for (size_t i = 0; cols[i]; i++)
		json_object_set_new(r, cols[i], json_null());
	json_object_set_new(r, "schema", json_integer(ROW_SCHEMA));
	json_object_set_new(r, "bench", bench ? json_text(bench) : json_null());
	json_object_set_new(r, "kind", json_text(kind));
	return r;
}

void row_merge(json_t *row, json_t *extra)
{
	const char *k;
	json_t *v;

	if (!extra)
		return;
	json_object_foreach(extra, k, v)
		json_object_set(row, k, v);
}

bool rows_any(json_t *rows, row_pred *pred, const void *arg)
{
	json_t *r;
	size_t i;

	json_array_foreach(rows, i, r)
		if (pred(r, arg))
			return true;
	return false;
}

bool row_timed(json_t *row)
{
	const char *role = json_string_value(json_object_get(row, "role"));

	return !role || strcmp(role, "traced");
}

double row_mem_peak(json_t *row, bool *sampled)
{
	json_t *peak = json_object_get(row, "mem_peak_bytes");
	json_t *anon = json_object_get(row, "mem_peak_anon_bytes");
	json_t *file = json_object_get(row, "mem_peak_file_bytes");

	*sampled = false;
	if (json_is_number(peak))
		return json_number_value(peak);
	if (!json_is_number(anon) || !json_is_number(file))
		return NAN;
	*sampled = true;
	return json_number_value(anon) + json_number_value(file);
}

unsigned row_round(json_t *row)
{
	json_t *r = json_object_get(row, "round");

	if (!json_is_integer(r))
		r = json_object_get(row, "rep");
	return json_is_integer(r) ? (unsigned)json_integer_value(r) : 0;
}

int row_write_jsonl(FILE *f, json_t *row)
{
	char *s = json_dumps(row, JSON_COMPACT | JSON_PRESERVE_ORDER |
					  JSON_REAL_PRECISION(9));

	if (!s)
		return -1;
	fputs(s, f);
	fputc('\n', f);
	free(s);
	return ferror(f) ? -1 : 0;
}

void csv_field(FILE *f, json_t *v)
{
	const char *s;

	switch (json_typeof(v)) {
	case JSON_NULL:
		return;
	case JSON_TRUE:
		fputs("true", f);
		return;
	case JSON_FALSE:
		fputs("false", f);
		return;
	case JSON_INTEGER:
		fprintf(f, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return;
	case JSON_REAL:
		fprintf(f, "%.9g", json_real_value(v));
		return;
	case JSON_STRING:
		s = json_string_value(v);
		if (!strpbrk(s, ",\"\n\r")) {
			fputs(s, f);
			return;
		}
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
		return;
	default: {
		char *d = json_dumps(v, JSON_COMPACT);
		json_t *tmp = json_text(d ? d : "");

		csv_field(f, tmp);
		json_decref(tmp);
		free(d);
	}
	}
}

int row_write_csv(FILE *f, json_t *rows)
{
	json_t *cols = json_array(), *seen = json_object(), *row, *c;
	const char *k;
	json_t *v;
	size_t i, j;

	for (i = 0; row_core_columns()[i]; i++) {
		json_array_append_new(cols, json_text(row_core_columns()[i]));
		json_object_set_new(seen, row_core_columns()[i], json_true());
	}
	json_array_foreach(rows, i, row) {
		json_object_foreach(row, k, v) {
			if (json_object_get(seen, k))
				continue;
			json_object_set_new(seen, k, json_true());
			json_array_append_new(cols, json_text(k));
		}
	}
	json_array_foreach(cols, j, c)
		fprintf(f, "%s%s", j ? "," : "", json_string_value(c));
	fputc('\n', f);
	json_array_foreach(rows, i, row) {
		json_array_foreach(cols, j, c) {
			if (j)
				fputc(',', f);
			v = json_object_get(row, json_string_value(c));
			if (v)
				csv_field(f, v);
		}
		fputc('\n', f);
	}
	json_decref(cols);
	json_decref(seen);
	return ferror(f) ? -1 : 0;
}
