/* SPDX-License-Identifier: MIT */
/* The machine's limits (the "limits" kind): the calibration points, their measurement and their reuse. */
#ifndef IOSTRAT_LIMITS_H
#define IOSTRAT_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/filelist.h"
#include "results/limit.h"

struct xform;


/* The measurements' version, part of the reuse key: bumped whenever a
 * limit's measurement changes what it measures, so rows of the old way
 * are measured again, not reused (2: the transform chunk by chunk). */
#define LIMITS_METHOD 2

/* One measurement, as the child runs it. */
struct limit_job {
	enum limit limit;
	const char *in, *out;      /* the data set's directory, the outputs' */
	const struct filelist *fl;
	int fsync;                 /* enum fsync_mode */
	unsigned work, qd;
	uint64_t bs;
	const struct xform *x;     /* transform: a record transform (NULL or in
				      place: the XOR at work passes) */
};

/* What the child reports: the seconds of the measured part alone and the
 * bytes it moved; for transform, the xxh3 of the output (the reference's). */
struct limit_result {
	int err;                   /* 0 or -errno */
	char what[160];            /* the file or step that failed */
	double secs;
	double user_s, sys_s;      /* the CPU of the measured part alone */
	uint64_t bytes;
	uint64_t sum;              /* transform: xxh3-64 of the output */
};

/* Run job in this process (the repetition's child): *r filled, r->err. */
void limit_measure(const struct limit_job *job, struct limit_result *r);

/* ---- reuse (limits_reuse.c) --------------------------------------------- */

/* The machine's identity (/etc/machine-id), "" when unreadable. */
const char *limits_machine_id(void);
/* The reuse key's columns (machine_id, kernel, fs, device) into row. */
void limits_key_row(json_t *row, json_t *env);
/* The good timed rows of config_id under root (any directory but self's)
 * whose key matches key_row's, measured within window_s of now, of the
 * newest such directory: a new array (empty when none); *from its path. */
json_t *limits_reusable(const char *root, const char *self, const char *config_id,
			json_t *key_row, double window_s, char *from, size_t len);

/* ---- the table (limits_table.c) ----------------------------------------- */

/* One limit's summary over its good timed rows (reused or measured). */
struct limit_summary {
	char name[48];             /* "read_direct", "transform w=100" */
	struct limit_est est;      /* MB/s and CPU per GB, as the report's */
	size_t reused;             /* of est.n, rows copied from an earlier run */
};

/* The limits of rows, in limit then W order: a malloc'd array, *n of
 * them (0 and NULL when there are none); -ENOMEM. */
int limits_summarize(json_t *rows, struct limit_summary **out, size_t *n);
/* The table: limit, median MB/s, interval, n, CPU s per GB. */
void limits_print(const struct limit_summary *s, size_t n, FILE *f);

#endif
