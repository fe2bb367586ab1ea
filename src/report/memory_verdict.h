/* SPDX-License-Identifier: MIT */
/* The memory verdict of `iostrat report` (see memory_verdict.c, docs/memory.md). */
#ifndef IOSTRAT_REPORT_MEMORY_VERDICT_H
#define IOSTRAT_REPORT_MEMORY_VERDICT_H

#include <stddef.h>

#include <jansson.h>

#include "report.h"

/* "buffer cannot run in 256 MiB with these files (killed at 251 MiB)",
 * with " in K of N repetitions" when some repetitions completed; peak
 * NAN (not measured): "(killed, peak unknown)". */
const char *memory_killed_text(const char *strategy, double limit, double peak,
			       unsigned killed, unsigned reps, char *buf, size_t len);
/* One object per configuration run with memory_max (rows' config_id):
 * config_id, strategy, dataset, limit, reps, killed, killed_at (the
 * highest row_mem_peak of the killed; null if none is known), data,
 * file (mean file size of a completed one), pool (strategy.pool_bytes),
 * twin, text; the unlimited twin (the same columns but memory_max: data
 * set, strategy, W, threads, run settings) gives the elapsed ratio, from
 * timed rows only. */
json_t *memory_verdict_cells(json_t *rows);
/* One sentence per data set and limit: "big in 64 MiB (data 4.7x the
 * limit): scale to data larger than the limit: stream, direct; killed:
 * buffer" (the strategies with a configuration killed, in any
 * repetition, are the killed ones).  Scaling is claimed only on data (and
 * for STRAT_WHOLE_FILE, a file) larger than the limit, else "ran on data
 * smaller than the limit" or "ran with files smaller than the limit"; a
 * kill with the strategy's own pool above the limit is "killed by its own
 * buffer pool". */
json_t *memory_verdict_summary(json_t *cells);
/* The "memory verdict" table: the summaries, then the configurations;
 * nothing without limited rows. */
void report_memory_verdict(const struct rrun *r, struct rdoc *d);

#endif
