/* SPDX-License-Identifier: MIT */
/* The machine's limits by name: what a limits row's "limit" column holds, for the kind that measures them and the report that reads them. */
#ifndef IOSTRAT_RESULTS_LIMIT_H
#define IOSTRAT_RESULTS_LIMIT_H

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

#endif
