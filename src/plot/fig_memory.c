// SPDX-License-Identifier: MIT
/*
 * Figure 2, memory: peak RSS per strategy, clustered by data set (smallest
 * first) and thread count, so streaming stays flat while buffering grows
 * with file size x threads.  memory.dat: see bars_block (MiB).
 */
#include <errno.h>
#include <stdlib.h>

#include "plot.h"

static int build_memory(struct plot_ctx *c, char *why, size_t len)
{
	static const char *const need[] = { "dataset", "strategy", "threads",
					    "maxrss_kb", NULL };
	json_t *runs = rows_of_kind(c->rows, "run"), *ds;
	struct dat d;
	size_t n = 0;
	int ret = 0;

	if (!json_array_size(runs)) {
		snprintf(why, len, "no run rows");
		json_decref(runs);
		return 0;
	}
	if (rows_need(c, "memory", runs, need)) {
		json_decref(runs);
		return -ENODATA;
	}
	ds = datasets_by_size(runs);
	ret = dat_begin(&d);
	if (!ret)
		n = bars_block(&d, runs, ds, "dataset", "threads", "t", "strategy", NULL,
			       "maxrss_kb", 1.0 / 1024);
	if (!ret && n)
		ret = dat_commit(c, &d, "memory", "memory",
				 "Peak RSS per strategy, by data set and threads (median, bars min..max)");
	else if (!ret) {
		fclose(d.f);
		free(d.buf);
		snprintf(why, len, "no maxrss_kb values");
	}
	json_decref(ds);
	json_decref(runs);
	return ret;
}

const struct figure fig_memory = { "memory",
	"peak RSS per strategy by data set and threads (log scale)", build_memory };
