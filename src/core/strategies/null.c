// SPDX-License-Identifier: MIT
/*
 * null: walks the file list and does nothing else -- no I/O, no transform.
 * It measures the harness itself (fork, wait4, cache preparation).
 */
#include "core/strategy.h"

static int null_run(const struct job *job, struct run_stats *st)
{
	(void)job;
	(void)st;
	return 0;
}

const struct strategy strategy_null = {
	STRATEGY(null),
	.summary = "no I/O, no transform: measures the harness overhead",
	.flags = STRAT_NO_OUTPUT | STRAT_CONTROL,
};
