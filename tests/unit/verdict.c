// SPDX-License-Identifier: MIT
/* The verdict of `iostrat report` (docs/verdict.md): each rule on its
 * thresholds, and whole cells from fixture rows -- a clear winner, two
 * strategies that cannot be told apart, the reasons taken from the rows'
 * own columns (CPU, fio baseline, peak RSS, the kernel view). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/verdict.h"
#include "results/results.h"
#include "unit.h"

UNIT(bound_rule)
{
	double per;

	/* 0.18 s of CPU in 1 s on one thread: I/O-bound */
	CHECK(verdict_bound(0.18, 1.0, 1, 2, &per) == VB_IO && fabs(per - 0.18) < 1e-12, "io");
	CHECK(verdict_bound(0.35, 1.0, 1, 2, &per) == VB_IO, "io at the threshold");
	CHECK(verdict_bound(0.36, 1.0, 1, 2, &per) == VB_MIXED, "mixed just above");
	CHECK(verdict_bound(0.75, 1.0, 1, 2, &per) == VB_CPU, "cpu at the threshold");
	/* 1.6 CPU-seconds per second on 2 threads: 0.8 per thread, CPU-bound */
	CHECK(verdict_bound(1.6, 1.0, 2, 2, &per) == VB_CPU && fabs(per - 0.8) < 1e-12, "2t");
	CHECK(verdict_bound(1.0, 1.0, 2, 2, &per) == VB_MIXED, "2t half busy: mixed");
	/* 4 threads on 2 CPUs: counted as 2 */
	CHECK(verdict_bound(1.6, 1.0, 4, 2, &per) == VB_CPU && fabs(per - 0.8) < 1e-12,
	      "threads capped by CPUs: %g", per);
	/* unknown CPU count: the threads */
	CHECK(verdict_bound(1.6, 1.0, 4, 0, &per) == VB_MIXED && fabs(per - 0.4) < 1e-12,
	      "cpus unknown: %g", per);
	CHECK(verdict_bound(NAN, 1.0, 1, 2, &per) == VB_UNKNOWN && isnan(per), "no cpu");
	CHECK(verdict_bound(0.1, 0, 1, 2, &per) == VB_UNKNOWN, "no elapsed");
	CHECK(!strcmp(verdict_bound_name(VB_CPU), "CPU-bound") &&
	      !strcmp(verdict_bound_name(VB_IO), "I/O-bound"), "names");
	return 0;
}

UNIT(device_rule)
{
	CHECK(!strcmp(verdict_device(0.98), "at the device's pace"), "0.98");
	CHECK(!strcmp(verdict_device(0.8), "at the device's pace"), "0.8 at the threshold");
	CHECK(!strcmp(verdict_device(0.79), "below the device"), "0.79");
	CHECK(!strcmp(verdict_device(0.5), "below the device"), "0.5");
	CHECK(!strcmp(verdict_device(0.49), "well below the device"), "0.49");
	CHECK(!strcmp(verdict_device(NAN), ""), "no baseline");
	CHECK(!strcmp(verdict_device(1.05), "at the device's pace"), "1.05 at the threshold");
	CHECK(!strcmp(verdict_device(1.06), "above the yardstick"), "1.06: above");
	return 0;
}

UNIT(bs_is_said_in_binary_units)
{
	char bs[32];

	CHECK(!strcmp(verdict_bs(4096, bs, sizeof(bs)), "4 KiB") &&
	      !strcmp(verdict_bs(1536, bs, sizeof(bs)), "1536 B") &&
	      !strcmp(verdict_bs(2097152, bs, sizeof(bs)), "2 MiB"), "verdict_bs");
	return 0;
}

UNIT(seq_is_said_for_reads_and_writes_apart)
{
	char buf[160];

	CHECK(!strcmp(verdict_seq_text(81, 99, 97, buf, sizeof(buf)),
		      "reads 99% sequential, writes 97% sequential"), "%s", buf);
	CHECK(!strcmp(verdict_seq_text(50, 99.6, 40, buf, sizeof(buf)),
		      "reads 100% sequential, writes 40% sequential (partly random)"), "%s", buf);
	CHECK(!strcmp(verdict_seq_text(89, 89.9, NAN, buf, sizeof(buf)),
		      "reads 90% sequential (partly random)"), "below 90 though it rounds: %s", buf);
	CHECK(!strcmp(verdict_seq_text(95, NAN, 95, buf, sizeof(buf)),
		      "writes 95% sequential"), "no reads reached the device: %s", buf);
	/* older rows: the two together, said as such */
	CHECK(!strcmp(verdict_seq_text(81, NAN, NAN, buf, sizeof(buf)),
		      "requests 81% sequential, reads and writes together (partly random)"),
	      "%s", buf);
	CHECK(!*verdict_seq_text(NAN, NAN, NAN, buf, sizeof(buf)), "untraced");
	return 0;
}

UNIT(memory_rule)
{
	CHECK(!strcmp(verdict_memory(60e6, 100e6), "holds the data in memory"), "60 pct");
	CHECK(!strcmp(verdict_memory(50e6, 100e6), "holds the data in memory"), "50 pct");
	CHECK(!strcmp(verdict_memory(20e6, 100e6), "a sizeable share of the data"), "20 pct");
	CHECK(!strcmp(verdict_memory(5e6, 100e6), "small beside the data"), "5 pct");
	CHECK(!strcmp(verdict_memory(5e6, 0), ""), "no data size");
	/* under 20 x the harness's own RSS, no judgement either way */
	CHECK(!strcmp(verdict_memory(2.4e6, 200e3), VERDICT_MEM_TOO_SMALL), "200 KB");
	CHECK(!strcmp(verdict_memory(2.4e6, 47e6), VERDICT_MEM_TOO_SMALL), "47 MB");
	CHECK(!strcmp(verdict_memory(2.4e6, 48.2e6), "small beside the data"), "48.2 MB");
	CHECK(!strcmp(verdict_memory(60e6, 40e6), VERDICT_MEM_TOO_SMALL), "even a big RSS");
	return 0;
}

UNIT(cache_and_seq_rules)
{
	CHECK(!strcmp(verdict_cache(0.0), "read from the device"), "cold");
	CHECK(!strcmp(verdict_cache(0.1), "read from the device"), "0.1");
	CHECK(!strcmp(verdict_cache(0.5), "partly from the page cache"), "0.5");
	CHECK(!strcmp(verdict_cache(0.95), "served from the page cache"), "warm");
	CHECK(!strcmp(verdict_cache(NAN), ""), "untraced");
	CHECK(!strcmp(verdict_seq(100), "sequential") && !strcmp(verdict_seq(90), "sequential"),
	      "seq");
	CHECK(!strcmp(verdict_seq(36), "partly random"), "random");
	CHECK(!strcmp(verdict_seq(NAN), ""), "untraced");
	return 0;
}

/* --- whole cells from fixture rows ---------------------------------------- */

/* A run row of big/STRAT/t1/w0 with elapsed e (CPU 0.2 s, 10 MiB peak
 * RSS, 100 MB read; traced when seq >= 0). */
static json_t *row(const char *strat, double e, double seq)
{
	char id[128];
	json_t *r;

	snprintf(id, sizeof(id), "big/%s/t1/w0/cold/fsync=file", strat);
	r = json_pack("{s:s,s:s,s:s,s:s,s:i,s:i,s:f,s:f,s:f,s:i,s:f,s:f,s:s,s:o}",
		      "kind", "run", "config_id", id, "dataset", "big", "strategy", strat,
		      "threads", 1, "work", 0, "elapsed_s", e, "user_s", 0.05, "sys_s", 0.15,
		      "maxrss_kb", 10240, "bytes_in", 100e6, "mb_s", 100e6 / e / 1e6,
		      "cache", "cold", "error", json_null());
	json_object_set_new(r, "fsync", json_string("file"));
	if (seq >= 0) {
		json_object_set_new(r, "seq_pct", json_real(seq));
		json_object_set_new(r, "pc_hit_ratio", json_real(0));
		json_object_set_new(r, "traced", json_true());
	}
	return r;
}

/* The fio baseline of stream (fio-seq-psync mirrors stream and buffer). */
static json_t *fio_row(double mb_s)
{
	return json_pack("{s:s,s:s,s:s,s:s,s:s,s:i,s:f,s:f,s:s,s:s,s:o}", "kind", "fio",
			 "config_id", "big/fio/seq-psync/bs=65536/cold", "dataset", "big",
			 "strategy", "fio-seq-psync", "baseline_of", "stream buffer",
			 "bufsize", 65536, "elapsed_s", 100e6 / mb_s / 1e6, "mb_s", mb_s,
			 "cache", "cold", "fsync", "file", "error", json_null());
}

static json_t *cell_of(json_t *rows, struct rrun *r)
{
	json_t *cells;

	memset(r, 0, sizeof(*r));
	r->rows = rows;
	r->sum = results_summarize(rows);
	r->env = json_pack("{s:i}", "cpus", 2);
	cells = verdict_cells(r);
	return cells;
}

static void done(struct rrun *r, json_t *cells)
{
	json_decref(cells);
	json_decref(r->rows);
	json_decref(r->sum);
	json_decref(r->env);
}

/* A row of round k (row() with "round" and "rep"). */
static json_t *rrow(const char *strat, double e, double seq, int k)
{
	json_t *r = row(strat, e, seq);

	json_object_set_new(r, "round", json_integer(k));
	json_object_set_new(r, "rep", json_integer(k));
	return r;
}

/* Round k's speed: the machine drifts by up to 2x between rounds, as
 * this VM does between minutes. */
static double drift(int k)
{
	static const double f[] = { 1.0, 1.6, 0.9, 2.0, 1.2, 1.8, 1.1, 1.4, 0.95, 1.7 };

	return f[k % 10];
}

static const char *text_of(json_t *c)
{
	printf("  %s\n", json_string_value(json_object_get(c, "text")));
	return json_string_value(json_object_get(c, "text"));
}

static const char *str(json_t *c, const char *k)
{
	return json_string_value(json_object_get(c, k)) ?: "";
}

/* 8 rounds, stream 1.28-1.34x uring's time in each while the machine
 * drifts 2x: paired, the interval is tight and uring is named. */
UNIT(clear_winner_named_with_interval_and_rounds)
{
	json_t *rows = json_array(), *cells, *c;
	const double q[] = { 1.30, 1.31, 1.32, 1.29, 1.33, 1.28, 1.34, 1.305 };
	struct rrun r;
	const char *text;

	for (int k = 0; k < 8; k++) {
		json_array_append_new(rows, rrow("uring", drift(k), 100, k + 1));
		json_array_append_new(rows, rrow("stream", drift(k) * q[k], 100, k + 1));
	}
	json_array_append_new(rows, fio_row(100));
	cells = cell_of(rows, &r);
	CHECK(json_array_size(cells) == 1, "one cell, got %zu", json_array_size(cells));
	c = json_array_get(cells, 0);
	text = text_of(c);
	CHECK(!strcmp(str(c, "fastest"), "uring") && !strcmp(str(c, "runner_up"), "stream"), "who");
	CHECK(!strcmp(str(c, "decision"), "winner") && json_is_true(json_object_get(c, "distinguishable")),
	      "decision");
	CHECK(!strcmp(str(c, "test"), "anytime-t"), "test");
	CHECK(json_integer_value(json_object_get(c, "rounds")) == 8, "rounds");
	CHECK(json_number_value(json_object_get(c, "ci_lo")) > 1.25 &&
	      json_number_value(json_object_get(c, "ci_hi")) < 1.37, "interval");
	CHECK(strstr(text, "big (100 MB), W=0, 1 thread: uring fastest: 1.31x stream (95% anytime "
		     "CI 1.27-1.35, 8 rounds)"), "head");
	/* uring: 0.2 s of CPU in a median 1.3 s: I/O-bound; no fio job mirrors uring */
	CHECK(strstr(text, "uring: I/O-bound (cpu 0.15 of elapsed per thread)"), "bound");
	CHECK(json_is_null(json_object_get(c, "mirror_ratio")), "no uring baseline");
	CHECK(strstr(text, "requests 100% sequential, reads and writes together"), "seq");
	CHECK(strstr(text, "page-cache hit ratio 0% cold (read from the device)"), "cache");
	done(&r, cells);
	return 0;
}

/* The same 5% gap under the same drift, once with rounds and once without:
 * unpaired the drift hides it, paired it is found. */
UNIT(pairing_by_round_sees_through_drift)
{
	json_t *rows = json_array(), *cells, *c;
	struct rrun r;

	for (int k = 0; k < 10; k++) {
		json_array_append_new(rows, rrow("mmap", drift(k), -1, k + 1));
		json_array_append_new(rows, rrow("stream", drift(k) * (1.05 + 0.001 * k), -1, k + 1));
	}
	cells = cell_of(rows, &r);
	c = json_array_get(cells, 0);
	CHECK(strstr(text_of(c), "mmap fastest: 1.05x stream (95% anytime CI 1.05-1.06, 10 rounds)"), "paired");
	done(&r, cells);
	rows = json_array();
	for (int k = 0; k < 10; k++) {
		json_array_append_new(rows, row("mmap", drift(k), -1));
		json_array_append_new(rows, row("stream", drift(k) * (1.05 + 0.001 * k), -1));
	}
	cells = cell_of(rows, &r);
	c = json_array_get(cells, 0);
	CHECK(strstr(text_of(c), "mmap and stream undecided after 20 repetitions: "), "unpaired");
	CHECK(!strcmp(str(c, "test"), "mann-whitney") && json_is_null(json_object_get(c, "rounds")),
	      "unpaired test");
	done(&r, cells);
	return 0;
}

/* 200 KB read, 2.3 MiB peak RSS: the harness's own baseline, not the
 * strategy's; the verdict says so instead of "holds the data in memory",
 * and the sizes under 1 MB are in KB. */
UNIT(small_read_says_rss_cannot_judge)
{
	json_t *rows = json_array(), *cells;
	struct rrun r;
	const char *text;
	char buf[32];

	for (int i = 0; i < 3; i++) {
		json_t *x = row("stream", 0.01 + i * 0.001, -1);

		json_object_set_new(x, "bytes_in", json_integer(200000));
		json_object_set_new(x, "maxrss_kb", json_integer(2340));
		json_array_append_new(rows, x);
	}
	cells = cell_of(rows, &r);
	text = json_string_value(json_object_get(json_array_get(cells, 0), "text"));
	printf("  %s\n", text);
	CHECK(strstr(text, "big (200 KB), W=0, 1 thread: "), "size in KB");
	CHECK(strstr(text, "peak RSS 2.3 MiB, mostly iostrat's own (the 200 KB read is under "
		     "47 MB: too small a read for RSS to judge)"), "reason");
	CHECK(!strstr(text, "holds the data") && !strstr(text, "% of the"), "a share said");
	CHECK(!strcmp(verdict_size(999e3, buf, sizeof(buf)), "999 KB") &&
	      !strcmp(verdict_size(1e6, buf, sizeof(buf)), "1 MB"), "verdict_size");
	done(&r, cells);
	return 0;
}

/* Within +-0.5% of each other in every round: equal within min_effect
 * (the default 5% without stop.json), not undecided. */
UNIT(equal_within_the_noise_band)
{
	json_t *rows = json_array(), *cells, *c;
	const double q[] = { 1.004, 0.997, 1.002, 0.995, 1.003, 0.998, 1.001, 0.996 };
	struct rrun r;

	for (int k = 0; k < 8; k++) {
		json_array_append_new(rows, rrow("stream", drift(k), -1, k + 1));
		json_array_append_new(rows, rrow("buffer", drift(k) * q[k], -1, k + 1));
	}
	json_array_append_new(rows, fio_row(95));
	cells = cell_of(rows, &r);
	c = json_array_get(cells, 0);
	/* buffer has the lower median: the fastest by median is buffer */
	CHECK(strstr(text_of(c), "buffer and stream equal within 5% (95% anytime CI 0.99-1.01, 8 rounds)"),
	      "head");
	CHECK(!strcmp(str(c, "decision"), "equal") && json_is_false(json_object_get(c, "distinguishable")),
	      "decision");
	CHECK(json_array_size(json_object_get(c, "tied")) == 2, "tied");
	CHECK(!strstr(text_of(c), "fastest"), "names no winner");
	CHECK(!strstr(text_of(c), "sequential") && !strstr(text_of(c), "hit ratio"), "untraced: no kernel view");
	done(&r, cells);
	return 0;
}

/* Rounds that scatter +-20%: undecided, with the interval and the
 * smallest difference those rounds could have seen. */
UNIT(undecided_says_interval_and_detectable_difference)
{
	json_t *rows = json_array(), *cells, *c;
	const double q[] = { 1.20, 0.85, 1.10, 0.95, 1.25, 0.90, 1.05, 1.00 };
	struct rrun r;
	const char *text;

	for (int k = 0; k < 8; k++) {
		json_array_append_new(rows, rrow("stream", drift(k), -1, k + 1));
		json_array_append_new(rows, rrow("buffer", drift(k) * q[k], -1, k + 1));
	}
	cells = cell_of(rows, &r);
	c = json_array_get(cells, 0);
	text = text_of(c);
	CHECK(strstr(text, " and ") && strstr(text, " undecided after 8 rounds: ") &&
	      strstr(text, "(95% anytime CI; the smallest difference these could detect: "),
	      "head");
	CHECK(!strcmp(str(c, "decision"), "undecided"), "decision");
	CHECK(json_number_value(json_object_get(c, "ci_lo")) < 1 &&
	      json_number_value(json_object_get(c, "ci_hi")) > 1, "interval holds 1");
	done(&r, cells);
	return 0;
}

/* stream and buffer undecided, direct 2x slower in every round: said
 * behind after them, with its interval. */
UNIT(undecided_leaders_are_said_with_the_first_behind)
{
	json_t *rows = json_array(), *cells, *c;
	const double q[] = { 1.20, 0.85, 1.10, 0.95, 1.25, 0.90, 1.05, 1.00 };
	const double d[] = { 2.0, 2.1, 2.2, 2.3, 2.05, 2.15, 2.25, 2.35 };
	struct rrun r;

	for (int k = 0; k < 8; k++) {
		json_array_append_new(rows, rrow("stream", drift(k), -1, k + 1));
		json_array_append_new(rows, rrow("buffer", drift(k) * q[k], -1, k + 1));
		json_array_append_new(rows, rrow("direct", drift(k) * d[k], -1, k + 1));
	}
	cells = cell_of(rows, &r);
	c = json_array_get(cells, 0);
	CHECK(strstr(text_of(c), "stream and buffer undecided after 8 rounds: 0.76-1.39 (95% "
		     "anytime CI; the smallest difference these could detect: 35.3%); direct "
		     "behind, 2.17x (95% anytime CI 1.91-2.46, 8 rounds)"), "behind");
	CHECK(json_array_size(json_object_get(c, "tied")) == 2, "tied");
	CHECK(!strcmp(str(c, "ahead_of"), "direct"), "ahead_of");
	done(&r, cells);
	return 0;
}

/* The union bound over the pairs: with a third strategy (three pairs,
 * 0.05 / 3 each) the same uring-mmap rounds give a wider interval than
 * alone (one pair, 0.05), and 3 rounds are too few for any. */
UNIT(more_strategies_widen_each_pairs_interval)
{
	json_t *rows = json_array(), *cells, *c;
	struct rrun r;
	double w3, w2;

	for (int k = 0; k < 6; k++) {
		json_array_append_new(rows, rrow("uring", drift(k), -1, k + 1));
		json_array_append_new(rows, rrow("mmap", drift(k) * (1.3 + 0.01 * k), -1, k + 1));
		json_array_append_new(rows, rrow("stream", drift(k) * (1.5 + 0.01 * k), -1, k + 1));
	}
	cells = cell_of(rows, &r);
	c = json_array_get(cells, 0);
	text_of(c);
	CHECK(!strcmp(str(c, "runner_up"), "mmap"), "runner-up");
	w3 = json_number_value(json_object_get(c, "ci_hi")) / json_number_value(json_object_get(c, "ci_lo"));
	done(&r, cells);
	rows = json_array();
	for (int k = 0; k < 6; k++) {
		json_array_append_new(rows, rrow("uring", drift(k), -1, k + 1));
		json_array_append_new(rows, rrow("mmap", drift(k) * (1.3 + 0.01 * k), -1, k + 1));
	}
	cells = cell_of(rows, &r);
	c = json_array_get(cells, 0);
	CHECK(strstr(text_of(c), "uring fastest: 1.32x mmap (95% anytime CI "), "one");
	w2 = json_number_value(json_object_get(c, "ci_hi")) / json_number_value(json_object_get(c, "ci_lo"));
	CHECK(w3 > w2, "three strategies %g, two %g", w3, w2);
	done(&r, cells);
	rows = json_array();
	for (int k = 0; k < 2; k++) {
		json_array_append_new(rows, rrow("uring", drift(k), -1, k + 1));
		json_array_append_new(rows, rrow("mmap", drift(k) * (2 + 0.01 * k), -1, k + 1));
	}
	cells = cell_of(rows, &r);
	c = json_array_get(cells, 0);
	CHECK(strstr(text_of(c), "undecided: 2 rounds, too few for an interval (at least 3;"),
	      "two rounds");
	done(&r, cells);
	return 0;
}

/* Repetition k of limit name (kind limits), on big, fsync=file. */
static json_t *limit_row(const char *name, double mb_s, int k)
{
	char id[128];

	snprintf(id, sizeof(id), "big/limits/%s/fsync=file", name);
	return json_pack("{s:s,s:s,s:s,s:s,s:i,s:f,s:f,s:f,s:f,s:f,s:s,s:s,s:i,s:i,s:o}",
			 "kind", "limits", "config_id", id, "limit", name, "dataset", "big",
			 "work", 0, "bytes", 100e6, "elapsed_s", 100 / mb_s, "mb_s", mb_s,
			 "cpu_user_s", 0.01, "cpu_sys_s", 0.1, "fsync", "file", "cache", "cold",
			 "round", k + 1, "rep", k + 1, "error", json_null());
}

/* The machine's limits, 6 repetitions each: read 2600, new-file writes
 * buffered at write MB/s (+-1%), direct 175, the kernel copy 300, the
 * transform 5000 per core. */
static void add_limits(json_t *rows, double write)
{
	for (int k = 0; k < 6; k++) {
		json_array_append_new(rows, limit_row("read_direct", 2600 + k, k));
		json_array_append_new(rows, limit_row("write_new_buffered", write * (0.99 + 0.004 * k), k));
		json_array_append_new(rows, limit_row("write_new_direct", 175 + k, k));
		json_array_append_new(rows, limit_row("copy_file_range", 300 + k, k));
		json_array_append_new(rows, limit_row("transform", 5000 + k, k));
	}
}

/* The verdict's "why" is the share of the binding limit: for buffered
 * stream the new-file write (buffered), not the direct one nor the fio
 * mirror, which stays beside it as the like-for-like figure; reads and
 * writes are said apart. */
UNIT(device_figure_is_the_binding_limit)
{
	json_t *rows = json_array(), *cells, *c, *x;
	struct rrun r;
	const char *text;

	for (int i = 0; i < 6; i++) {
		json_array_append_new(rows, x = row("stream", 1.0 + i * 0.01, 81));
		json_object_set_new(x, "seq_pct_read", json_real(99));
		json_object_set_new(x, "seq_pct_write", json_real(97));
		json_object_set_new(x, "round", json_integer(i + 1));
	}
	json_array_append_new(rows, fio_row(50));
	add_limits(rows, 200);
	cells = cell_of(rows, &r);
	c = json_array_get(cells, 0);
	text = json_string_value(json_object_get(c, "text"));
	printf("  %s\n", text);
	CHECK(strstr(text, "0.49 of the new-file write limit (buffered), 200 MB/s"), "share");
	CHECK(!strstr(text, "fio-seq-psync") && !strstr(text, "copy limit"), "no yardstick");
	CHECK(!strcmp(str(c, "limit"), "write_new_buffered"), "limit");
	CHECK(fabs(json_number_value(json_object_get(c, "limit_share")) - 100 / 1.025 / 200) < 2e-3,
	      "limit_share");
	CHECK(fabs(json_number_value(json_object_get(c, "mirror_ratio")) - 100 / 1.025 / 50) < 1e-2,
	      "mirror_ratio");
	CHECK(strstr(text, "reads 99% sequential, writes 97% sequential"), "seq apart");
	done(&r, cells);
	return 0;
}

/* A strategy whose interval lies above its binding limit's: the model is
 * wrong, and the sentence names the limit, never a bare share above 1. */
UNIT(strategy_above_its_limit_says_the_model_is_wrong)
{
	json_t *rows = json_array(), *cells, *c;
	struct rrun r;
	const char *text;

	for (int i = 0; i < 6; i++) {
		json_array_append_new(rows, c = row("stream", 1.0 + i * 0.01, -1));
		json_object_set_new(c, "round", json_integer(i + 1));
	}
	add_limits(rows, 80);
	cells = cell_of(rows, &r);
	c = json_array_get(cells, 0);
	text = json_string_value(json_object_get(c, "text"));
	printf("  %s\n", text);
	CHECK(strstr(text, "the model is wrong: stream exceeds the new-file write limit "
		     "(buffered) by 22% (interval "), "the failed limit named");
	CHECK(!strstr(text, "1.22 of"), "no share above 1 alone");
	CHECK(json_is_true(json_object_get(c, "limit_exceeded")), "limit_exceeded");
	done(&r, cells);
	return 0;
}

/* Without limits rows the mirror job is the yardstick, and a strategy
 * past it by more than 5% is not said to be at the device's pace. */
UNIT(mirror_passed_is_above_the_yardstick)
{
	json_t *rows = json_array(), *cells;
	struct rrun r;
	const char *text;

	for (int i = 0; i < 3; i++)
		json_array_append_new(rows, row("stream", 1.0 + i * 0.01, -1));
	json_array_append_new(rows, fio_row(80));
	cells = cell_of(rows, &r);
	text = json_string_value(json_object_get(json_array_get(cells, 0), "text"));
	printf("  %s\n", text);
	CHECK(strstr(text, "1.24x of fio-seq-psync doing the same I/O (above the yardstick)"),
	      "mirror over 1.05");
	CHECK(json_is_null(json_object_get(json_array_get(cells, 0), "limit_share")), "none");
	done(&r, cells);
	return 0;
}

/* Two rounds: no interval is possible (a race's first needs 3); the
 * verdict says so. */
UNIT(too_few_rounds_say_so)
{
	json_t *rows = json_array(), *cells, *c;
	struct rrun r;

	for (int k = 0; k < 2; k++) {
		json_array_append_new(rows, rrow("stream", drift(k), -1, k + 1));
		json_array_append_new(rows, rrow("buffer", 2 * drift(k), -1, k + 1));
	}
	cells = cell_of(rows, &r);
	c = json_array_get(cells, 0);
	CHECK(strstr(text_of(c), "stream and buffer undecided: 2 rounds, too few for an interval "
		     "(at least 3; 2.00x by estimate)"), "text");
	CHECK(json_is_false(json_object_get(c, "distinguishable")) &&
	      json_is_null(json_object_get(c, "ci_lo")), "no interval");
	done(&r, cells);
	return 0;
}

/* Traced rows (role "traced", 1.2x slower: the probes' cost) are no
 * sample, though each comes first in its round; rows of an earlier release
 * pair by "rep". */
UNIT(traced_rows_are_not_samples_and_rep_pairs_old_rows)
{
	json_t *rows = json_array(), *cells, *c, *x;
	const double q[] = { 1.30, 1.31, 1.32, 1.29, 1.33, 1.28, 1.34, 1.305 };
	struct rrun r;

	for (int k = 0; k < 8; k++) {
		x = rrow("uring", 1.2 * drift(k), -1, k + 1);
		json_object_set_new(x, "role", json_string("traced"));
		json_array_append_new(rows, x);
		json_array_append_new(rows, rrow("uring", drift(k), -1, k + 1));
		x = row("stream", drift(k) * q[k], -1);
		json_object_set_new(x, "rep", json_integer(k + 1));
		json_array_append_new(rows, x);
	}
	cells = cell_of(rows, &r);
	c = json_array_get(cells, 0);
	CHECK(strstr(text_of(c), "uring fastest: 1.31x stream (95% anytime CI 1.27-1.35, 8 rounds)"), "text");
	done(&r, cells);
	return 0;
}

/* The decision rule on its edges (band 5%: 1/1.05 .. 1.05). */
UNIT(decision_rule)
{
	struct ratio_ci ci = { 8, 1.0, 1 / 1.05, 1.05, 0.5 };

	CHECK(verdict_decide(0, &ci, 0.05) == VD_EQUAL, "band edges are equal");
	ci.hi = 1.0501;
	CHECK(verdict_decide(0, &ci, 0.05) == VD_UNDECIDED, "just outside the band");
	ci.lo = 1.005, ci.hi = 1.015;
	CHECK(verdict_decide(0, &ci, 0.05) == VD_BEHIND, "shown slower: behind, though in the band");
	ci.lo = 1.01, ci.hi = 1.30;
	CHECK(verdict_decide(0, &ci, 0.05) == VD_BEHIND, "out of the band, 1 out");
	ci.lo = 0.97;
	CHECK(verdict_decide(0, &ci, 0.05) == VD_UNDECIDED, "holds 1");
	CHECK(verdict_decide(0, &ci, 0.5) == VD_EQUAL, "a wider band holds it");
	ci.lo = ci.hi = NAN;
	CHECK(verdict_decide(-EDOM, &ci, 0.05) == VD_TOO_FEW, "no interval");
	return 0;
}

UNIT(one_strategy_is_no_contest)
{
	json_t *rows = json_array(), *cells, *c;
	struct rrun r;

	json_array_append_new(rows, row("mmap", 1.0, -1));
	json_array_append_new(rows, row("mmap", 1.1, -1));
	cells = cell_of(rows, &r);
	c = json_array_get(cells, 0);
	CHECK(strstr(json_string_value(json_object_get(c, "text")),
		     "mmap, the only strategy run"), "text");
	CHECK(json_is_null(json_object_get(c, "runner_up")), "no runner-up");
	done(&r, cells);
	return 0;
}
