// SPDX-License-Identifier: MIT
/*
 * The seek-distance histogram panel of figure 5, from the seek_hist column
 * of traced rows ("SLOT:COUNT;...", log2 slots of the distance between a
 * request and the end of the previous one: slot 0 = sequential, slot s >= 1
 * = 2^(s-1) .. 2^s sectors of 512 bytes).  Per strategy and slot: the
 * share of all its rows' classified block requests in that slot (pooled,
 * so a strategy's shares add up to 100), then the smallest and largest
 * share of a single row; written in the bars format with "bucket" in
 * place of "cluster", one line per slot from 0 to the largest one seen.
 */
#include <stdlib.h>
#include <string.h>

#include "results/row.h"
#include "plot.h"

#define HIST_SLOTS 64

/* Counts of one row into h; the total (0: no histogram). */
static double parse_hist(json_t *row, double h[HIST_SLOTS])
{
	const char *s = json_string_value(json_object_get(row, "seek_hist"));
	double total = 0;

	memset(h, 0, HIST_SLOTS * sizeof(*h));
	while (s && *s) {
		char *end;
		unsigned long slot = strtoul(s, &end, 10);
		double n;

		if (*end != ':')
			return 0; /* not ours: ignore the row */
		n = strtod(end + 1, &end);
		if (slot < HIST_SLOTS && n > 0) {
			h[slot] += n;
			total += n;
		}
		s = *end == ';' ? end + 1 : "";
	}
	return total;
}

/* "seq", "512B", "1K", ... "1G": the low bound of slot s. */
static void slot_label(unsigned s, char *buf, size_t len)
{
	static const char unit[] = "BKMGTPE";
	unsigned long long b;
	unsigned u = 0;

	if (!s) {
		snprintf(buf, len, "seq");
		return;
	}
	b = 512ULL << (s - 1 < 53 ? s - 1 : 53);
	while (b >= 1024 && u + 1 < sizeof(unit) - 1) {
		b /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%c", b, unit[u]);
}

static bool has_seek_hist(json_t *r, const void *unused)
{
	double h[HIST_SLOTS];

	(void)unused;
	return parse_hist(r, h) > 0;
}

bool rows_have_seek_hist(json_t *rows)
{
	return rows_any(rows, has_seek_hist, NULL);
}

/* One repetition's share of requests per bucket, in percent. */
typedef double hist_shares[HIST_SLOTS];

/* sh[row][slot] in %, for the rows with a histogram, and the counts
 * pooled over them into all (all[HIST_SLOTS]: their total); the row count. */
static size_t shares_of(json_t *rows, hist_shares *sh, double *all,
			unsigned *top)
{
	size_t n = 0, i;
	json_t *r;

	json_array_foreach(rows, i, r) {
		double h[HIST_SLOTS], t = parse_hist(r, h);

		if (t <= 0)
			continue;
		for (unsigned s = 0; s < HIST_SLOTS; s++) {
			sh[n][s] = 100.0 * h[s] / t;
			all[s] += h[s];
			all[HIST_SLOTS] += h[s];
			if (h[s] > 0 && s > *top)
				*top = s;
		}
		n++;
	}
	return n;
}

size_t seek_hist_block(struct dat *d, json_t *rows)
{
	json_t *strat = rows_distinct(rows, RC_STRATEGY), *x;
	size_t ns = json_array_size(strat), i, lines = 0;
	hist_shares **sh = calloc(ns ? ns : 1, sizeof(*sh));
	double (*all)[HIST_SLOTS + 1] = calloc(ns ? ns : 1, sizeof(*all));
	size_t *n = calloc(ns ? ns : 1, sizeof(*n));
	unsigned top = 0;
	char b[96];

	if (!sh || !n || !all)
		goto out;
	dat_label(d, "bucket");
	json_array_foreach(strat, i, x) {
		json_t *r = rows_where(rows, RC_STRATEGY, x);

		sh[i] = calloc(json_array_size(r) + 1, sizeof(**sh));
		n[i] = sh[i] ? shares_of(r, sh[i], all[i], &top) : 0;
		json_decref(r);
		if (!n[i])
			continue; /* an all-NaN series makes gnuplot warn */
		fputc(' ', d->f);
		dat_label(d, val_text(x, b, sizeof(b)));
		fprintf(d->f, " %zu max", i + 1);
	}
	fputc('\n', d->f);
	for (unsigned s = 0; s <= top; s++, lines++) {
		slot_label(s, b, sizeof(b));
		dat_label(d, b);
		for (i = 0; i < ns; i++) {
			double v[n[i] ? n[i] : 1];
			struct summary st;

			if (!n[i])
				continue;
			for (size_t k = 0; k < n[i]; k++)
				v[k] = sh[i][k][s];
			summarize(v, n[i], &st);
			dat_num(d, 100.0 * all[i][s] / all[i][HIST_SLOTS], true);
			dat_num(d, st.min, true);
			dat_num(d, st.max, true);
		}
		fputc('\n', d->f);
	}
out:
	for (i = 0; sh && i < ns; i++)
		free(sh[i]);
	/* sh is calloc'd above; cppcheck 2.10 takes a pointer to arrays
	 * for an array on the stack */
	free(sh); // cppcheck-suppress autovarInvalidDeallocation
	free(all);
	free(n);
	json_decref(strat);
	return lines;
}
