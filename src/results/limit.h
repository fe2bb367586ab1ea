/* SPDX-License-Identifier: MIT */
/* The machine's limits by name: what a limits row's "limit" column holds, for the kind that measures them and the report that reads them. */
#ifndef IOSTRAT_RESULTS_LIMIT_H
#define IOSTRAT_RESULTS_LIMIT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* The calibration points (docs/limits.md), in the order of limit_names. */
enum limit {
	LIMIT_READ_DIRECT,        /* cold sequential O_DIRECT read, io_uring qd x bs */
	LIMIT_WRITE_NEW_BUFFERED, /* new files of the data set's size, buffered */
	LIMIT_WRITE_NEW_DIRECT,   /* the same, O_DIRECT */
	LIMIT_PAGECACHE_COPY,     /* warm read to a new file, buffered */
	LIMIT_COPY_FILE_RANGE,    /* the kernel's own copy, cold */
	LIMIT_TRANSFORM,          /* the transform at W on data in memory, one thread */
	LIMIT_N
};

/* The rows' "limit" values, in enum order, NULL-terminated. */
extern const char *const limit_names[LIMIT_N + 1];
/* For sentences: "the new-file write limit (buffered)". */
extern const char *const limit_labels[LIMIT_N];

/* Interval level of a limit's and a strategy's median MB/s. */
#define LIMITS_LEVEL 0.95

/* One limit (or a strategy against it) measured: n repetitions, median
 * MB/s and its interval, CPU seconds per GB, the directory it was reused
 * from ("" when measured here).  The one estimate of `iostrat limits`'
 * table and the report's. */
struct limit_est {
	size_t n;
	double median, lo, hi, cpu_s_gb;
	bool range;   /* lo..hi is the range (min-max): too few for the interval */
	char reused_from[256];
};

/* e's n, median and interval of the n MB/s in v (sorted in place):
 * median_ci at LIMITS_LEVEL, else (too few) the range, range set. */
void limit_est_of(double *v, size_t n, struct limit_est *e);
/* CPU seconds per GB of one row: user + system + kernel threads
 * (kthread_s, where the row has it) over bytes; NAN without bytes. */
double limit_cpu_s_gb(json_t *row, const char *user, const char *sys, const char *bytes);
/* The transform a limits or run row names; "xor" when it names none
 * (rows from before transforms had names). */
const char *limit_transform_of(json_t *row);
/* The median of the finite values of v[0..n) (moved to its front); NAN
 * when none is. */
double limit_finite_median(double *v, size_t n);

#endif
