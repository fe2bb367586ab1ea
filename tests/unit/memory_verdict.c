// SPDX-License-Identifier: MIT
/* The memory verdict (docs/memory.md): a configuration the limit killed is
 * said so with where it was killed, one that ran is set against its
 * unlimited twin, and configurations without memory_max are not judged. */
#include <math.h>
#include <string.h>

#include "report/memory_verdict.h"
#include "results/row.h"
#include "unit.h"

#define MIB 1048576.0

static json_t *row(const char *strategy, double limit, double elapsed, double peak,
		   bool killed)
{
	char id[128];

	snprintf(id, sizeof(id), "big/%s/t1/w0/cold/fsync=file%s", strategy,
		 limit > 0 ? "/memory_max=268435456" : "");
	return json_pack("{s:s, s:s, s:s, s:s, s:o, s:f, s:f, s:b, s:o, s:f}",
			 "kind", "run", "config_id", id, "strategy", strategy,
			 "dataset", "big", "memory_max",
			 limit > 0 ? json_real(limit) : json_null(),
			 "elapsed_s", elapsed, "mem_peak_bytes", peak, "oom_kill", killed,
			 "error", killed ? json_string("killed") : json_null(),
			 "bytes_in", killed ? 0.0 : 1024 * MIB);
}

static const char *text_of(json_t *cells, const char *strategy)
{
	json_t *c;
	size_t i;

	json_array_foreach(cells, i, c)
		if (!strcmp(json_string_value(json_object_get(c, "strategy")), strategy))
			return json_string_value(json_object_get(c, "text"));
	return "";
}

/* The first line of the data-set summary of rows; *lines, if given, how
 * many lines it has. */
static const char *summary_first(json_t *rows, size_t *lines)
{
	static char buf[400];
	json_t *cells = memory_verdict_cells(rows), *sum = memory_verdict_summary(cells);

	snprintf(buf, sizeof(buf), "%s", json_string_value(json_array_get(sum, 0)));
	if (lines)
		*lines = json_array_size(sum);
	json_decref(sum);
	json_decref(cells);
	return buf;
}

static const char *summary0(json_t *rows)
{
	return summary_first(rows, NULL);
}

UNIT(killed_configuration_says_where)
{
	char buf[160];

	CHECK(!strcmp(memory_killed_text("buffer", 256 * MIB, 251 * MIB, 3, 3, buf,
					 sizeof(buf)),
		      "buffer cannot run in 256 MiB with these files (killed at 251 MiB)"),
	      "%s", buf);
	memory_killed_text("buffer", 256 * MIB, 251 * MIB, 1, 3, buf, sizeof(buf));
	CHECK(strstr(buf, "(killed at 251 MiB in 1 of 3 repetitions)"), "%s", buf);
	return 0;
}

UNIT(cells_from_rows)
{
	json_t *rows = json_array(), *cells;

	for (int i = 0; i < 3; i++) {
		json_array_append_new(rows, row("buffer", 256 * MIB, 0.5, (250 + i) * MIB, true));
		json_array_append_new(rows, row("stream", 256 * MIB, 2.0 + i * 0.1, 256 * MIB, false));
		json_array_append_new(rows, row("stream", 0, 1.0 + i * 0.1, 300 * MIB, false));
	}
	cells = memory_verdict_cells(rows);
	CHECK(json_array_size(cells) == 2, "%zu cells: only limited configurations",
	      json_array_size(cells));
	CHECK(!strcmp(text_of(cells, "buffer"),
		      "big: buffer cannot run in 256 MiB with these files (killed at 252 MiB)"),
	      "%s", text_of(cells, "buffer"));
	CHECK(!strcmp(text_of(cells, "stream"), "big: stream runs in 256 MiB on data 4.0x the "
		      "limit: median 2.100 s against 1.100 s unlimited (1.91x)"),
	      "%s", text_of(cells, "stream"));
	json_decref(cells);
	json_decref(rows);
	return 0;
}

/* The twin is found by its columns, its traced rows out of its median;
 * two unlimited configurations with the same columns are no one twin. */
UNIT(twin_by_columns_from_timed_rows)
{
	json_t *rows = json_array(), *traced, *cells;

	json_array_append_new(rows, row("stream", 256 * MIB, 2.0, 256 * MIB, false));
	json_array_append_new(rows, row("stream", 0, 1.0, 300 * MIB, false));
	traced = row("stream", 0, 50.0, 300 * MIB, false);
	json_object_set_new(traced, "role", json_string("traced"));
	json_array_append_new(rows, traced);
	cells = memory_verdict_cells(rows);
	CHECK(strstr(text_of(cells, "stream"), "against 1.000 s unlimited (2.00x)"), "%s",
	      text_of(cells, "stream"));
	json_decref(cells);
	traced = row("stream", 0, 1.0, 300 * MIB, false);
	json_object_set_new(traced, "config_id", json_string("big/stream/t1/w0/x=1"));
	json_array_append_new(rows, traced);
	cells = memory_verdict_cells(rows);
	CHECK(!strstr(text_of(cells, "stream"), "unlimited"), "%s", text_of(cells, "stream"));
	json_decref(cells);
	json_decref(rows);
	return 0;
}

/* A killed row without mem_peak_bytes (v2 before Linux 5.19: no
 * memory.peak) is killed at its sampled anon + page cache peak, or at a
 * peak unknown: never "killed at 0 MiB". */
UNIT(killed_without_memory_peak_says_sampled_or_unknown)
{
	json_t *rows = json_array(), *r, *cells;
	bool sampled;
	char buf[160];

	r = row("buffer", 256 * MIB, 0.5, 0, true);
	json_object_set_new(r, "mem_peak_bytes", json_null());
	json_object_set_new(r, "mem_peak_anon_bytes", json_integer(200 * 1048576));
	json_object_set_new(r, "mem_peak_file_bytes", json_integer(40 * 1048576));
	CHECK(row_mem_peak(r, &sampled) == 240 * MIB && sampled, "not the sampled peak");
	json_array_append_new(rows, r);
	cells = memory_verdict_cells(rows);
	CHECK(strstr(text_of(cells, "buffer"), "(killed at 240 MiB)"), "%s", text_of(cells, "buffer"));
	json_decref(cells);
	json_object_set_new(r, "mem_peak_anon_bytes", json_null());
	CHECK(isnan(row_mem_peak(r, &sampled)), "a peak from nothing measured");
	cells = memory_verdict_cells(rows);
	CHECK(strstr(text_of(cells, "buffer"), "(killed, peak unknown)"), "%s",
	      text_of(cells, "buffer"));
	json_decref(cells);
	memory_killed_text("buffer", 256 * MIB, NAN, 1, 3, buf, sizeof(buf));
	CHECK(strstr(buf, "(killed, peak unknown in 1 of 3 repetitions)"), "%s", buf);
	json_decref(rows);
	return 0;
}

/* A configuration's repetitions are its timed ones that were killed by
 * the limit or completed: a traced one, or one failed otherwise (its
 * output differs), is not counted. */
UNIT(only_timed_repetitions_are_counted)
{
	json_t *rows = json_array(), *r, *cells;

	json_array_append_new(rows, row("buffer", 256 * MIB, 0.5, 251 * MIB, true));
	json_array_append_new(rows, row("buffer", 256 * MIB, 0.5, 200 * MIB, false));
	r = row("buffer", 256 * MIB, 0.5, 300 * MIB, true);
	json_object_set_new(r, "role", json_string("traced"));
	json_array_append_new(rows, r);
	r = row("buffer", 256 * MIB, 0.5, 200 * MIB, false);
	json_object_set_new(r, "error", json_string("output differs"));
	json_array_append_new(rows, r);
	r = row("stream", 256 * MIB, 2.0, 300 * MIB, true);
	json_object_set_new(r, "role", json_string("traced"));
	json_array_append_new(rows, r);
	json_array_append_new(rows, row("stream", 256 * MIB, 2.0, 200 * MIB, false));
	cells = memory_verdict_cells(rows);
	CHECK(strstr(text_of(cells, "buffer"), "(killed at 251 MiB in 1 of 2 repetitions)"),
	      "%s", text_of(cells, "buffer"));
	CHECK(strstr(text_of(cells, "stream"), "stream runs in 256 MiB"), "%s",
	      text_of(cells, "stream"));
	json_decref(cells);
	json_decref(rows);
	return 0;
}

UNIT(data_set_summary_when_every_strategy_was_killed)
{
	json_t *rows = json_array();

	json_array_append_new(rows, row("buffer", 32 * MIB, 0.5, 31 * MIB, true));
	CHECK(!strcmp(summary0(rows), "big in 32 MiB: none ran in the limit; killed: buffer"),
	      "%s", summary0(rows));
	json_decref(rows);
	return 0;
}

UNIT(data_set_summary_names_who_scales)
{
	json_t *rows = json_array();
	const char *first;
	size_t lines;

	json_array_append_new(rows, row("buffer", 256 * MIB, 0.5, 251 * MIB, true));
	json_array_append_new(rows, row("stream", 256 * MIB, 2.0, 256 * MIB, false));
	json_array_append_new(rows, row("mmap", 256 * MIB, 2.5, 256 * MIB, false));
	first = summary_first(rows, &lines);
	CHECK(lines == 1, "%zu lines", lines);
	CHECK(!strcmp(first, "big in 256 MiB (data 4.0x the limit): scale to data larger "
		      "than the limit: mmap, stream; killed: buffer"), "%s", first);
	json_decref(rows);
	return 0;
}

/* Cells that differ by a run setting (dontcache) say it; a strategy
 * killed in one configuration of a group is not among those that scale. */
UNIT(settings_apart_and_killed_do_not_scale)
{
	json_t *rows = json_array(), *r, *cells, *sum;

	json_array_append_new(rows, row("buffer", 256 * MIB, 2.0, 256 * MIB, false));
	r = row("buffer", 256 * MIB, 0.5, 251 * MIB, true);
	json_object_set_new(r, "config_id", json_string("big/buffer/t1/w100/memory_max=1"));
	json_object_set_new(r, "work", json_integer(100));
	json_array_append_new(rows, r);
	r = row("stream", 256 * MIB, 2.0, 256 * MIB, false);
	json_object_set_new(r, "config_id", json_string("big/stream/dontcache"));
	json_object_set_new(r, "dontcache", json_true());
	json_array_append_new(rows, r);
	cells = memory_verdict_cells(rows);
	CHECK(!strncmp(text_of(cells, "stream"), "big dontcache: stream runs", 26), "%s",
	      text_of(cells, "stream"));
	sum = memory_verdict_summary(cells);
	CHECK(json_array_size(sum) == 2, "%zu lines", json_array_size(sum));
	CHECK(!strcmp(json_string_value(json_array_get(sum, 0)),
		      "big in 256 MiB (data 4.0x the limit): none ran in the limit; killed: buffer"),
	      "%s", json_string_value(json_array_get(sum, 0)));
	json_decref(sum);
	json_decref(cells);
	json_decref(rows);
	return 0;
}

/* Data smaller than the limit shows that a strategy ran in it, not that
 * it scales to data larger than the limit. */
UNIT(data_smaller_than_the_limit_claims_no_scaling)
{
	json_t *rows = json_array(), *r;

	r = row("stream", 100 * MIB, 1.0, 30 * MIB, false);
	json_object_set_new(r, "bytes_in", json_real(40 * MIB));
	json_array_append_new(rows, r);
	r = row("buffer", 100 * MIB, 1.0, 50 * MIB, false);
	json_object_set_new(r, "bytes_in", json_real(40 * MIB));
	json_array_append_new(rows, r);
	CHECK(!strcmp(summary0(rows), "big in 100 MiB (data 0.4x the limit): ran on data "
		      "smaller than the limit: buffer, stream"), "%s", summary0(rows));
	json_decref(rows);
	return 0;
}

/* buffer holds a whole file: data larger than the limit in files smaller
 * than it shows nothing of data larger than the limit; a file larger
 * than the limit does. */
UNIT(whole_file_strategy_scales_only_with_files_larger_than_the_limit)
{
	json_t *rows = json_array(), *r;

	json_array_append_new(rows, row("stream", 256 * MIB, 2.0, 256 * MIB, false));
	r = row("buffer", 256 * MIB, 2.0, 200 * MIB, false);
	json_object_set_new(r, "files", json_integer(16)); /* 64 MiB each */
	json_array_append_new(rows, r);
	CHECK(!strcmp(summary0(rows), "big in 256 MiB (data 4.0x the limit): scale to data "
		      "larger than the limit: stream; ran with files smaller than the "
		      "limit: buffer"), "%s", summary0(rows));
	json_object_set_new(r, "files", json_integer(2)); /* 512 MiB each */
	CHECK(!strcmp(summary0(rows), "big in 256 MiB (data 4.0x the limit): scale to data "
		      "larger than the limit: buffer, stream"), "%s", summary0(rows));
	json_decref(rows);
	return 0;
}

/* uring killed with its pool ((qd + threads) x chunk) above the limit is
 * killed by its pool, whatever the data. */
UNIT(kill_by_its_own_pool_is_named_for_the_pool)
{
	json_t *rows = json_array(), *r, *cells;

	r = row("stream", 32 * MIB, 2.0, 20 * MIB, false);
	json_object_set_new(r, "chunk", json_integer(1048576));
	json_object_set_new(r, "qd", json_integer(64)); /* one group, nothing apart */
	json_array_append_new(rows, r);
	r = row("uring", 32 * MIB, 0.5, 31 * MIB, true);
	json_object_set_new(r, "chunk", json_integer(1048576));
	json_object_set_new(r, "qd", json_integer(64));
	json_array_append_new(rows, r);
	cells = memory_verdict_cells(rows);
	CHECK(!strcmp(text_of(cells, "uring"), "big: uring cannot run in 32 MiB: its own "
		      "buffer pool, 65 MiB, is above the limit (killed at 31 MiB)"),
	      "%s", text_of(cells, "uring"));
	json_decref(cells);
	CHECK(!strcmp(summary0(rows), "big in 32 MiB (data 32.0x the limit): scale to data "
		      "larger than the limit: stream; killed by its own buffer pool: uring"),
	      "%s", summary0(rows));
	json_object_set_new(r, "qd", json_integer(4)); /* 5 MiB: the data killed it */
	json_object_set_new(json_array_get(rows, 0), "qd", json_integer(4));
	CHECK(strstr(summary0(rows), "; killed: uring"), "%s", summary0(rows));
	json_decref(rows);
	return 0;
}

/* Limits are printed as given: two limits under 1 MiB never both read
 * "0 MiB", one of 1.5 MiB is not "2 MiB". */
UNIT(limits_print_as_given)
{
	char a[160], b[160];

	memory_killed_text("buffer", 512 * 1024, NAN, 1, 1, a, sizeof(a));
	memory_killed_text("buffer", 768 * 1024, NAN, 1, 1, b, sizeof(b));
	CHECK(strstr(a, "cannot run in 512 KiB") && strstr(b, "cannot run in 768 KiB"), "%s / %s", a, b);
	memory_killed_text("buffer", 1536 * 1024, NAN, 1, 1, a, sizeof(a));
	CHECK(strstr(a, "cannot run in 1536 KiB"), "%s", a);
	return 0;
}
