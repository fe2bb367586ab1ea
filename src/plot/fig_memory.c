// SPDX-License-Identifier: MIT
/*
 * Figure 2, memory: peak RSS per strategy, clustered by data set (smallest
 * first) and thread count, so streaming stays flat while buffering grows
 * with file size x threads.  memory.dat: see bars_block (MiB).  A data
 * set is told apart by its size too ("big 300 MB", "big 150 MB"): one
 * name made at two scales is two data sets, never pooled in one bar.
 */
#include <math.h>

#include "plot.h"
#include "report/verdict.h"

/* Copies of the rows, each "dataset" its name and the size it read. */
static json_t *sized(json_t *runs)
{
	json_t *out = json_array(), *r;
	size_t i;

	json_array_foreach(runs, i, r) {
		json_t *x = json_deep_copy(r), *b = json_object_get(r, RC_BYTES_IN);
		char size[32], lab[200];

		if (json_is_number(b) && json_number_value(b) > 0) {
			snprintf(lab, sizeof(lab), "%s %s",
				 json_string_value(json_object_get(r, RC_DATASET)) ?: "-",
				 verdict_size(json_number_value(b), size, sizeof(size)));
			json_object_set_new(x, RC_DATASET, json_string(lab));
		}
		json_array_append_new(out, x);
	}
	return out;
}

int fig_memory(struct plot_ctx *c, char *why, size_t len)
{
	static const char *const need[] = { RC_DATASET, RC_STRATEGY, RC_THREADS,
					    RC_MAXRSS, NULL };
	json_t *ds;
	struct dat d;
	size_t n = 0;
	int ret;
	json_t *runs = fig_rows(c, "memory", "run", need, "no run rows", why, len, &ret);

	if (!runs)
		return ret;
	ds = sized(runs);
	json_decref(runs);
	runs = ds;
	ds = datasets_by_size(runs);
	ret = dat_begin(&d);
	if (!ret)
		n = bars_block(&d, runs, ds, RC_DATASET, RC_THREADS, "t", RC_STRATEGY, NULL,
			       RC_MAXRSS, 1.0 / 1024);
	if (!ret)
		ret = dat_finish(c, &d, n, "memory",
				 "Peak RSS per strategy, by data set (and the size read) and threads "
				 "(median, bars min..max)",
				 why, len, "no maxrss_kb values");
	json_decref(ds);
	json_decref(runs);
	return ret;
}
