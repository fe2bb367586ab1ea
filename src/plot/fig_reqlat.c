// SPDX-License-Identifier: MIT
/*
 * The request-latency figure of traced runs (the reqlat probe's q_hist and
 * d_hist columns): per strategy, the share of its block requests per log2
 * slot of microseconds, queue time (insert to issue) and device time
 * (issue to completion) in two panels, pooled over its traced rows.
 *
 * reqlat.dat, two blocks split by two blank lines (0: queue, 1: device),
 * each a header "slot" S1 C1 S2 C2 ... (Cn: the colour of strategy Sn) and
 * one line per slot from 0 to the largest seen: its label ("0", "1",
 * "2", "4", ... "1K": the slot's low bound in us) and per strategy the
 * pooled share of its requests in % and its colour again (so gnuplot
 * reads a pair of columns per strategy, title and colour alike).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

#define RL_SLOTS 64

/* Add one row's "SLOT:COUNT;..." column into h; false when malformed. */
static bool add_hist(json_t *row, const char *col, double h[RL_SLOTS])
{
	const char *s = json_string_value(json_object_get(row, col));

	while (s && *s) {
		char *end;
		unsigned long slot = strtoul(s, &end, 10);
		double n;

		if (*end != ':')
			return false;
		n = strtod(end + 1, &end);
		if (slot < RL_SLOTS && n > 0)
			h[slot] += n;
		s = *end == ';' ? end + 1 : "";
	}
	return true;
}

static void slot_label(unsigned s, char *buf, size_t len)
{
	unsigned long long us = s ? 1ULL << (s - 1) : 0;

	if (us >= 1024 * 1024)
		snprintf(buf, len, "%lluM", us >> 20);
	else if (us >= 1024)
		snprintf(buf, len, "%lluK", us >> 10);
	else
		snprintf(buf, len, "%llu", us);
}

/* Pooled counts per strategy (h[i][RL_SLOTS] the total); the top slot. */
static unsigned pool(json_t *rows, json_t *strat, const char *col,
		     double (*h)[RL_SLOTS + 1])
{
	unsigned top = 0;
	json_t *x;
	size_t i;

	json_array_foreach(strat, i, x) {
		json_t *r = rows_where(rows, RC_STRATEGY, x), *row;
		size_t k;

		json_array_foreach(r, k, row)
			add_hist(row, col, h[i]);
		json_decref(r);
		for (unsigned s = 0; s < RL_SLOTS; s++) {
			h[i][RL_SLOTS] += h[i][s];
			if (h[i][s] > 0 && s > top)
				top = s;
		}
	}
	return top;
}

/* One panel's block; the strategies that had requests. */
static size_t hist_block(struct dat *d, json_t *rows, json_t *strat, const char *col)
{
	size_t ns = json_array_size(strat), shown = 0;
	double (*h)[RL_SLOTS + 1] = calloc(ns ? ns : 1, sizeof(*h));
	unsigned top;
	char b[96];

	if (!h)
		return 0;
	top = pool(rows, strat, col, h);
	dat_label(d, "slot");
	for (size_t i = 0; i < ns; i++) {
		const char *name = val_text(json_array_get(strat, i), b, sizeof(b));

		if (h[i][RL_SLOTS] <= 0)
			continue;
		fputc(' ', d->f);
		dat_label(d, name);
		fprintf(d->f, " %d", plot_colour(name));
		shown++;
	}
	fputc('\n', d->f);
	for (unsigned s = 0; shown && s <= top; s++) {
		slot_label(s, b, sizeof(b));
		dat_label(d, b);
		for (size_t i = 0; i < ns; i++)
			if (h[i][RL_SLOTS] > 0) {
				fputc(' ', d->f);
				dat_num(d, 100.0 * h[i][s] / h[i][RL_SLOTS], true);
				fprintf(d->f, " %d", plot_colour(val_text(json_array_get(strat, i),
									  b, sizeof(b))));
			}
		fputc('\n', d->f);
	}
	free(h);
	return shown;
}

/* The traced run rows with request latencies. */
static int traced_with_hist(struct plot_ctx *c, json_t **rows, char *why, size_t len)
{
	json_t *t = json_true(), *traced = rows_where(*rows, "traced", t);

	(void)c;
	json_decref(t);
	json_decref(*rows);
	*rows = NULL;
	if (rows_have_key(traced, "d_hist"))
		*rows = json_incref(traced);
	else
		snprintf(why, len, "no traced runs with request latencies (d_hist: "
			 "bench with trace=1 as root)");
	json_decref(traced);
	return 0;
}

/* Two blocks, queue then device; nothing when either has no values. */
static size_t reqlat_write(const struct fig_group *g, struct dat *d)
{
	json_t *strat = rows_distinct(g->rows, RC_STRATEGY);
	size_t nq, nd;

	nq = hist_block(d, g->rows, strat, "q_hist");
	fputs("\n\n", d->f);
	nd = hist_block(d, g->rows, strat, "d_hist");
	json_decref(strat);
	return nq && nd ? nq + nd : 0;
}

const struct fig_kind fig_reqlat = {
	.kind = "run", .select = traced_with_hist,
	.none = "no run rows",
	.title = "Block requests' time in the queue and on the device (eBPF, pooled per strategy)",
	.write = reqlat_write,
	.empty = "traced runs lack q_hist or d_hist values",
};
