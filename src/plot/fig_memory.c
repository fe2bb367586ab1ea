// SPDX-License-Identifier: MIT
/*
 * Figure 2, memory: peak RSS per strategy, clustered by data set (smallest
 * first) and thread count, so streaming stays flat while buffering grows
 * with file size x threads.  memory.dat: see bars_block (MiB).
 */

#include "plot.h"

int fig_memory(struct plot_ctx *c, char *why, size_t len)
{
	static const char *const need[] = { "dataset", "strategy", "threads",
					    "maxrss_kb", NULL };
	json_t *ds;
	struct dat d;
	size_t n = 0;
	int ret;
	json_t *runs = fig_rows(c, "memory", "run", need, "no run rows", why, len, &ret);

	if (!runs)
		return ret;
	ds = datasets_by_size(runs);
	ret = dat_begin(&d);
	if (!ret)
		n = bars_block(&d, runs, ds, "dataset", "threads", "t", "strategy", NULL,
			       "maxrss_kb", 1.0 / 1024);
	if (!ret)
		ret = dat_finish(c, &d, n, "memory",
				 "Peak RSS per strategy, by data set and threads (median, bars min..max)",
				 why, len, "no maxrss_kb values");
	json_decref(ds);
	json_decref(runs);
	return ret;
}
