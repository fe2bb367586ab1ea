/* SPDX-License-Identifier: MIT */
/* Each strategy against the machine's measured limits (kind "limits" rows): attainable rate, binding limit, share. */
#ifndef IOSTRAT_REPORT_LIMITS_H
#define IOSTRAT_REPORT_LIMITS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "report.h"
#include "results/limit.h"

/*
 * The limits of one cell (data set, W, threads, cache, fsync) are read
 * from the rows of kind "limits" (`iostrat limits`, a bench's [limits]
 * section), one row per repetition, column "limit" one of limit_names.
 * A limit row stands for a cell when its data set is the cell's (or it
 * names none), for the writes and copies when its fsync class is the
 * cell's, and for "transform" when its work is the cell's W.
 *
 * A strategy's attainable rate is the lowest of the limits its bytes and
 * CPU meet (limits_attain):
 *   read       read_direct: a direct strategy, or a buffered one whose
 *              cache state is cold; a buffered one on a warm (or asis)
 *              cache reads the page cache: pagecache_copy instead
 *   write      write_new_direct for direct I/O, else write_new_buffered
 *   copy       copy_file_range (measured cold): direct or cold only
 *   CPU        transform (MB/s on one core at W) x cores, cores =
 *              min(workers or threads, CPUs)
 * Direct or not is the strategy's capabilities (STRAT_ALWAYS_DIRECT, or
 * STRAT_DIRECT and the row's direct), never its name.  The binding limit
 * is the lowest; share = the strategy's median MB/s over its median.
 * The model fails (limits_exceeds) when the strategy's MB/s interval
 * lies wholly above the binding limit's.
 */
/* What a strategy's cell asks of the limits. */
struct limit_use {
	bool direct;  /* its I/O bypasses the page cache */
	bool cold;    /* its cache state is cold */
	double cores; /* cores its transform can use, >= 1 */
};

struct limit_attain {
	int bind;     /* enum limit, -1 when no limit applies */
	double rate;  /* the binding limit's median MB/s (CPU: x cores) */
	double lo, hi; /* its interval (CPU: x cores) */
};

/* Of est (one cell's), the lowest of the limits u meets into *a: 0, or
 * -ENOENT when none of them was measured. */
int limits_attain(const struct limit_est est[LIMIT_N], const struct limit_use *u,
		  struct limit_attain *a);
/* Does a strategy's MB/s interval (lo..hi) lie above a's?  *pct: by how
 * much its median exceeds a's median, in percent. */
bool limits_exceeds(double s_lo, double s_median, const struct limit_attain *a,
		    double *pct);
/* The limits of run summary s's cell from rows into est (n 0: none). */
void limits_of_cell(json_t *rows, json_t *s, struct limit_est est[LIMIT_N]);
/* The limit_use of run summary s (cpus: env.json's, <= 0 unknown). */
void limits_use_of(json_t *s, long long cpus, struct limit_use *u);
/* The strategy's timed MB/s samples' median and interval. */
void limits_strategy_est(json_t *rows, json_t *s, struct limit_est *e);
/* Does the directory hold rows of kind "limits"? */
bool limits_present(json_t *rows);

/* The limits tables (limits, and each strategy's share); nothing
 * without limits rows. */
void report_limits(const struct rrun *r, struct rdoc *d);
/* The verdict's reason for summary s into buf ("" without limits):
 *   "0.90 of the new-file write limit (buffered), 390 MB/s"
 *   "the model is wrong: stream exceeds the new-file write limit
 *    (buffered) by 12% (interval 430-450 MB/s against 380-400 MB/s)"
 * and the figures into c (limit, limit_share, limit_mb_s, limit_exceeded). */
const char *limits_reason(const struct rrun *r, json_t *s, json_t *c, char *buf,
			  size_t len);
/* The VM note (item 7): a VM whose cold reads (a strategy's or fio's,
 * MB/s median) beat read_direct's interval; "" otherwise. */
const char *limits_vm_note(const struct rrun *r, char *buf, size_t len);

#endif
