/* SPDX-License-Identifier: MIT */
/* Engine hooks: run one profile once per pass (a setting of the machine
 * that the rows must carry), each pass into its own results directory. */
#ifndef IOSTRAT_ENGINE_HOOKS_H
#define IOSTRAT_ENGINE_HOOKS_H

#include <stddef.h>

#include <jansson.h>

struct bench_opts;

/*
 * bench_passes runs round 1 of every pass, then round 2 of every pass ...
 * (rounds = 1: each pass once).  Each round of a pass is one bench of the
 * profile: before() sets what the pass measures under and fills in the
 * bench's options (its --out, or --resume for a later round, -D ...);
 * every row gets decorate() before it is written (results_append: the
 * directory's lock and row-by-row fsync); after() sees the bench's exit
 * status.  Putting the machine back is the caller's, after bench_passes
 * returns, on every path (a stop signal ends the passes, never the
 * process: the caller holds a STOP_NEVER_HARD catch).
 */
struct engine_hooks {
	void *arg;
	size_t passes;
	unsigned rounds;
	/* 0, or the exit status to stop with (nothing of the pass ran). */
	int (*before)(void *arg, size_t pass, unsigned round, struct bench_opts *o);
	/* 0 to go on, or the exit status to stop with. */
	int (*after)(void *arg, size_t pass, unsigned round, int status);
	/* Add the pass's columns to a row about to be written. */
	void (*decorate)(void *arg, size_t pass, json_t *row);
};

/* One bench (bench_main) with the hooks' decorate for pass `pass`. */
int bench_run_pass(const struct bench_opts *o, const struct engine_hooks *h,
		   size_t pass);
/* Every round of every pass: 0, or the first non-zero status of a
 * before(), after() or (with no after) bench. */
int bench_passes(const struct engine_hooks *h);

#endif
