// SPDX-License-Identifier: MIT
/* Result rows: the core columns, merging a command's own, writing JSON lines and CSV. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "row.h"
#include "config/jobopts.h"
#include "lib/util.h"

/* The core columns around the run settings' own (config/jobopts.c). */
static const char *const core_head[] = {
	"schema", "bench", "kind", "config_id", "rep", "round", "role", "dataset", "files",
	"bytes_in", "bytes_out", "strategy", NULL,
};
static const char *const core_tail[] = {
	"resident_pct_before", "elapsed_s",
	"user_s", "sys_s", "maxrss_kb", "minflt", "majflt", "nvcsw", "nivcsw",
	"mb_s", "checksum", "verified", "traced", "seq_pct", "pc_hits",
	"pc_misses", "pc_hit_ratio", "ra_pages", "req_p50_kb", "lat_p50_us",
	"lat_p99_us", "kernel", "scheduler", "device", "fs", "host", "error",
	NULL,
};
/* A repetition's whole cost (harness/cgroup.h, kcost.h; docs/results.md):
 * its cgroup, memory, reclaim, device I/O, stalls, kernel threads' CPU. */
static const char *const cost_tail[] = {
	"cgroup", "cgroup_error", "oom_kill", "oom_elsewhere", "mem_peak_bytes",
	"mem_peak_anon_bytes", "mem_peak_file_bytes", "mem_file_end_bytes",
	"pgscan", "pgsteal", "workingset_refault", "reclaim_source",
	"dev_read_bytes", "dev_write_bytes", "dev_reads", "dev_writes",
	"dev_source", "psi_io_some_us", "psi_io_full_us", "psi_mem_some_us",
	"psi_mem_full_us", "psi_source", "kthread_s", "kswapd_s", "kworker_s",
	"ksoftirqd_s", NULL,
};

const char *const *row_core_columns(void)
{
	static const char *cols[ARRAY_SIZE(core_head) + ARRAY_SIZE(core_tail) +
				ARRAY_SIZE(cost_tail) + 32];
	size_t n = 0;

	if (cols[0])
		return cols;
	for (size_t i = 0; core_head[i]; i++)
		cols[n++] = core_head[i];
	for (const struct setting *s = run_settings; s->name; s++)
		if (s->column && n < ARRAY_SIZE(cols) - ARRAY_SIZE(core_tail) -
					 ARRAY_SIZE(cost_tail))
			cols[n++] = s->column;
	for (size_t i = 0; core_tail[i]; i++)
		cols[n++] = core_tail[i];
	for (size_t i = 0; cost_tail[i]; i++)
		cols[n++] = cost_tail[i];
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
