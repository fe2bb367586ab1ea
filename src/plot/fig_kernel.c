// SPDX-License-Identifier: MIT
/*
 * Figure 5, the kernel view of traced runs (eBPF columns): how sequential
 * the device saw each strategy's requests, and how often its reads hit the
 * page cache, per cache state.
 *
 * kernel.dat, two blocks in the bars_block format (median, min, max per
 * strategy):  0: clusters = data sets, metric seq_pct (%);
 *             1: clusters = cache states, metric pc_hit_ratio x 100 (%);
 *             2 (when the rows have it): the seek-distance histogram
 *               per strategy from the seek_hist column (seek_hist.c:
 *               header "bucket" ..., a line per log2 distance slot, the
 *               share of block requests in %); rows traced before that
 *               column existed: clusters = data sets, metric seek_p50_kb,
 *               the median seek distance (and a note says so).
 */
#include <errno.h>

#include "plot.h"

/* Why there are no traced runs: where tracing was asked for and was
 * unavailable, the rows' trace_error says why (no probes built, not root,
 * no BTF...); else it was not asked for. */
static void why_untraced(json_t *rows, char *why, size_t len)
{
	json_t *runs = rows_of_kind(rows, "run"), *r;
	const char *err = NULL;
	size_t i;

	json_array_foreach(runs, i, r)
		if (!err && !json_is_true(json_object_get(r, "traced")))
			err = json_string_value(json_object_get(r, "trace_error"));
	if (err)
		snprintf(why, len, "no traced runs: tracing was unavailable: %s", err);
	else
		snprintf(why, len, "no traced runs (seq_pct, pc_hit_ratio: bench "
			 "with trace=1 as root)");
	json_decref(runs);
}

static const char *const need[] = { RC_DATASET, RC_STRATEGY, "cache", "seq_pct",
				    "pc_hit_ratio", NULL };

/* The traced run rows, when tracing gave them the kernel's columns. */
static int traced(struct plot_ctx *c, json_t **rows, char *why, size_t len)
{
	json_t *t = json_true(), *runs = rows_where(*rows, "traced", t);

	json_decref(t);
	json_decref(*rows);
	*rows = NULL;
	if (!rows_have_number(runs, "seq_pct") && !rows_have_number(runs, "pc_hit_ratio"))
		why_untraced(c->rows, why, len);
	else if (rows_need(c, "kernel", runs, need)) {
		json_decref(runs);
		return -ENODATA;
	} else
		*rows = json_incref(runs);
	json_decref(runs);
	return 0;
}

static size_t kernel_write(const struct fig_group *g, struct dat *d)
{
	json_t *runs = g->rows, *ds = datasets_by_size(runs);
	json_t *caches = rows_distinct(runs, "cache");
	size_t n1, n2;

	n1 = bars_block(d, runs, ds, RC_DATASET, NULL, NULL, RC_STRATEGY, NULL, "seq_pct", 1);
	dat_block(d, 1);
	n2 = bars_block(d, runs, caches, "cache", NULL, NULL, RC_STRATEGY, NULL,
			"pc_hit_ratio", 100);
	if (n1 && n2 && rows_have_seek_hist(runs)) {
		dat_block(d, 1);
		seek_hist_block(d, runs);
	} else if (n1 && n2 && rows_have_number(runs, "seek_p50_kb")) {
		printf("  %-8s note: the traced rows have no seek_hist column (traced by an "
		       "older iostrat): the third panel is the median seek distance, not "
		       "the histogram\n", "kernel");
		dat_block(d, 1);
		bars_block(d, runs, ds, RC_DATASET, NULL, NULL, RC_STRATEGY, NULL, "seek_p50_kb", 1);
	}
	if (!(n1 && n2))
		snprintf(g->why, g->len, "traced runs lack %s values",
			 n1 ? "pc_hit_ratio" : "seq_pct (no block I/O traced)");
	json_decref(ds);
	json_decref(caches);
	return n1 && n2;
}

const struct fig_kind fig_kernel = {
	.kind = "run", .select = traced,
	.none = "no traced runs (seq_pct, pc_hit_ratio: bench with trace=1 as root)",
	.title = "What the kernel saw (eBPF): sequential share, page-cache hits, seek "
		 "distances (median, bars min..max)",
	.write = kernel_write,
};
