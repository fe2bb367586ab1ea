// SPDX-License-Identifier: MIT
/* The report's own columns (figures it derives, not row columns): one table line each, read by every header. */
#include <errno.h>
#include <string.h>

#include "results/row.h"
#include "table.h"

#define T COL_TEXT
#define R "report"

/* name, type, values, unit, room, help, flags */
const struct column report_columns[] = {
	/* a configuration's statistics */
	{ "n", COL_COUNT, 0, 0, R, "timed repetitions the statistics are of", 0 },
	{ "median_s", COL_TIME, 0, "s", R, "median elapsed time", 0 },
	{ "min_s", COL_TIME, 0, "s", R, "fastest repetition's elapsed time", 0 },
	{ "max_s", COL_TIME, 0, "s", R, "slowest repetition's elapsed time", 0 },
	{ "rsd_pct", COL_RATE, 0, "%", R, "stddev / mean of the metric", 0 },
	{ "rss_mib", COL_SIZE, 0, "MiB", R, "median peak resident set", 0 },
	{ "flags", T, 0, 0, R, "what to know of the configuration (errors, outliers, unverified)", 0 },
	{ "median", COL_SIGNED, 0, 0, R, "median of the metric (its unit is the metric's)", 0 },
	{ "min", COL_SIGNED, 0, 0, R, "smallest value of the metric", 0 },
	{ "max", COL_SIGNED, 0, 0, R, "largest value of the metric", 0 },
	{ "q1", COL_SIGNED, 0, 0, R, "first quartile of the metric", 0 },
	{ "q3", COL_SIGNED, 0, 0, R, "third quartile of the metric", 0 },
	{ "errors", COL_COUNT, 0, 0, R, "repetitions that failed", 0 },
	/* the headline */
	{ "median s [95% CI]", T, 0, 0, R, "median elapsed time (s, in its name) and its 95% interval", 0 },
	{ "x fastest [CI]", T, 0, 0, R, "ratio to the fastest strategy of the cell, with its interval", 0 },
	{ "decision", T, 0, 0, R, "the race's outcome for the strategy (docs/verdict.md)", 0 },
	{ "limited by", T, 0, 0, R, "the machine limit the strategy is nearest (docs/limits.md)", 0 },
	/* compare */
	{ "run", T, 0, 0, R, "the results directory compared", 0 },
	{ "label", T, 0, 0, R, "the run's label", 0 },
	{ "ratio", COL_RATE, 0, 0, R, "this run's median / the first run's (A's)", 0 },
	{ "p", COL_RATE, 0, 0, R, "the test's p-value", 0 },
	{ "sig", T, 0, 0, R, "significant at the chosen level", 0 },
	{ "test", T, 0, 0, R, "the test used", 0 },
	{ "ci_lo", COL_RATE, 0, 0, R, "ratio's interval, low end", 0 },
	{ "ci_hi", COL_RATE, 0, 0, R, "ratio's interval, high end", 0 },
	/* cost */
	{ "outside_pct", COL_RATE, 0, "%", R, "kthread_s / (cpu_s + kthread_s)", 0 },
	{ "cpu_s_per_gb", COL_RATE, 0, "s/GB", R, "(user + sys + kthread) CPU seconds per GB (10^9 bytes) of input", 0 },
	{ "psi_io_some_ms", COL_TIME, 0, "ms", R, "median PSI io some stall", 0 },
	{ "psi_mem_some_ms", COL_TIME, 0, "ms", R, "median PSI memory some stall", 0 },
	{ "refaults", COL_COUNT, 0, "pages", R, "median refaults of reclaimed pages", 0 },
	{ "dev_read_mb", COL_SIZE, 0, "MB", R, "median bytes read from the device / 10^6", 0 },
	{ "dev_write_mb", COL_SIZE, 0, "MB", R, "median bytes written to the device / 10^6", 0 },
	{ "mem_peak_mib", COL_SIZE, 0, "MiB", R, "median peak memory charged", 0 },
	/* limits */
	{ "interval", T, 0, "MB/s", R, "the median's 95% interval", 0 },
	{ "cpu_s_gb", COL_RATE, 0, "s/GB", R, "CPU seconds per GB of input (user + sys + kernel threads)", 0 },
	{ "attainable_mb_s", COL_RATE, 0, "MB/s", R, "what the binding limit allows the strategy", 0 },
	{ "binding", T, 0, 0, R, "the limit that binds the strategy", 0 },
	{ "share", COL_RATE, 0, 0, R, "mb_s / attainable_mb_s (0..1)", 0 },
	{ "model", T, 0, 0, R, "whether the limits explain the strategy (docs/limits.md)", 0 },
	/* fio baselines */
	{ "baseline", T, 0, 0, R, "the fio job the strategy is set against", 0 },
	{ "fio_mb_s", COL_RATE, 0, "MB/s", R, "fio's median throughput", 0 },
	{ "fio_read_mb_s", COL_RATE, 0, "MB/s", R, "fio's median read throughput", 0 },
	{ "fio_write_mb_s", COL_RATE, 0, "MB/s", R, "fio's median write throughput", 0 },
	/* the probes' cost */
	{ "timed_n", COL_COUNT, 0, 0, R, "timed (untraced) repetitions", 0 },
	{ "untraced_s", COL_TIME, 0, "s", R, "median elapsed time untraced", 0 },
	{ "traced_n", COL_COUNT, 0, 0, R, "traced repetitions", 0 },
	{ "traced_s", COL_TIME, 0, "s", R, "median elapsed time traced", 0 },
	{ "cost", COL_RATE, 0, 0, R, "traced_s / untraced_s: 1.10 = the probes slowed the configuration by 10%", 0 },
	{ "cost_lo", COL_RATE, 0, 0, R, "cost's interval, low end", 0 },
	{ "cost_hi", COL_RATE, 0, 0, R, "cost's interval, high end", 0 },
	{ "cost_by", T, 0, 0, R, "how the cost was measured", 0 },
	/* memory */
	{ "memory", T, 0, 0, R, "the memory verdict, one finding a line", 0 },
	{ 0 },
};

int report_column_find(const char *name, struct column *c)
{
	if (!column_find(name, c))
		return 0;
	for (const struct column *r = report_columns; r->name; r++)
		if (!strcmp(r->name, name)) {
			*c = *r;
			return 0;
		}
	return -ENOENT;
}

void report_columns_each(void (*fn)(const struct column *c, void *ctx), void *ctx)
{
	for (const struct column *r = report_columns; r->name; r++)
		fn(r, ctx);
}
