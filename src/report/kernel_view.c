// SPDX-License-Identifier: MIT
/*
 * The kernel view of traced runs (eBPF columns, src/trace/): per
 * configuration, over its traced repetitions, the median and range of
 * the columns each probe of the registry declares for it
 * (report_columns): how sequential the device access was, request sizes
 * and latencies, how often reads hit the page cache (kspread.h: when a
 * figure's range is beyond the rule, the cell says "varies").  And, where
 * a run used --dontcache, the page cache each configuration left.
 */
#include <string.h>

#include "kspread.h"
#include "lib/util.h"
#include "report.h"
#include "results/row.h"
#include "core/strategy.h"
#include "trace/probe.h"

#define VIEW_COLS 40

/* RC_CONFIG_ID, "traced_n", then every probe's report columns,
 * NULL-terminated. */
static void view_columns(const char **cols)
{
	size_t n = 0;

	cols[n++] = RC_CONFIG_ID;
	cols[n++] = "traced_n";
	for (size_t k = 0; probe_registry[k]; k++)
		for (const char *const *c = probe_registry[k]->report_columns;
		     c && *c && n + 1 < VIEW_COLS; c++)
			cols[n++] = *c;
	cols[n] = NULL;
}

/* One configuration's line: its id, how many traced repetitions, and
 * each column's median (range) or null. */
static json_t *view_row(const struct rrun *r, json_t *s, const char **cols)
{
	const char *id = json_string_value(json_object_get(s, RC_CONFIG_ID));
	json_t *row = json_array();
	struct kspread ks;
	size_t most = 0;
	char buf[96];

	json_array_append(row, json_object_get(s, RC_CONFIG_ID));
	json_array_append_new(row, json_null()); /* traced_n, below */
	for (size_t c = 2; cols[c]; c++) {
		kspread_of(r->rows, id ? id : "", cols[c], &ks);
		most = ks.n > most ? ks.n : most;
		json_array_append_new(row, ks.n ? json_text(kspread_cell(cols[c], &ks, buf,
						sizeof(buf))) : json_null());
	}
	json_array_set_new(row, 1, json_integer((json_int_t)most));
	return row;
}

static double num_of(json_t *s, const char *k)
{
	json_t *v = json_object_get(s, k);

	return json_is_number(v) ? json_number_value(v) : -1;
}

/* The request-latency probe's line of one configuration: device and
 * queue medians of its reads (else writes), the depth it kept in flight
 * beside the depth it asked for; and Little's law where it fails by more
 * than 10%. */
static void reqlat_lines(struct rtable *t, json_t *s)
{
	const char *id = json_string_value(json_object_get(s, RC_CONFIG_ID));
	const char *strat = json_string_value(json_object_get(s, RC_STRATEGY));
	const struct strategy *st = strat ? strategy_find(strat) : NULL;
	bool rd = num_of(s, "d_read_p50_us") >= 0;
	double dev = num_of(s, rd ? "d_read_p50_us" : "d_write_p50_us");
	double q = num_of(s, rd ? "q_read_p50_us" : "q_write_p50_us");
	double depth = num_of(s, "depth_mean"), little = num_of(s, "little_ratio");
	char asked[32] = "", queue[32] = "unknown (no insert point)";

	if (dev < 0 || !id)
		return;
	if (st && (st->flags & STRAT_QD) && num_of(s, "qd") > 0)
		snprintf(asked, sizeof(asked), " (qd %.0f asked)", num_of(s, "qd"));
	if (q >= 0)
		snprintf(queue, sizeof(queue), "%.0f us", q);
	rtable_note(t, "%s: %s device p50 %.0f us, queue p50 %s, depth in flight "
		    "%.2f%s", id, rd ? "read" : "write", dev, queue, depth, asked);
	if (little >= 0 && (little > 1.1 || little < 0.9))
		rtable_note(t, "%s: Little's law does not hold: mean depth %.2f is "
			    "%.2f x completions/s x mean device time (more than 10%% off)",
			    id, depth, little);
}

#define VIEW_NOTE                                                              \
	"median (min-max) over the traced_n traced repetitions; \"varies\": the " \
	"range is beyond what the verdict quotes (a share over 15 points, "     \
	"another figure's ends over 25% from its median; docs/kernel-view.md); " \
	"seq_pct: requests starting where the previous one ended; "             \
	"pc_hit_ratio 0..1 of the pages reads asked for"

void report_kernel_view(const struct rrun *r, struct rdoc *d)
{
	const char *cols[VIEW_COLS];
	struct rtable *t = NULL;
	json_t *s;
	size_t i;

	view_columns(cols);
	json_array_foreach(r->sum, i, s) {
		const char *kind = json_string_value(json_object_get(s, "kind"));

		if (!kind || strcmp(kind, "run") || !json_is_true(json_object_get(s, "traced")))
			continue;
		rdoc_table_once(d, &t, "kernel view (eBPF, traced runs)", cols, VIEW_NOTE);
		rtable_add(t, view_row(r, s, cols));
		reqlat_lines(t, s);
	}
}

static json_t *num_or_null(json_t *s, const char *k)
{
	json_t *v = json_object_get(s, k);

	return json_is_number(v) ? rnum(json_number_value(v)) : json_null();
}

static bool is_run(json_t *s)
{
	const char *kind = json_string_value(json_object_get(s, "kind"));

	return kind && !strcmp(kind, "run");
}

/* Beside any --dontcache run: every run's cache_left_mib (median), so
 * the plain and uncached variants stand side by side. */
void report_cache_left(const struct rrun *r, struct rdoc *d)
{
	static const char *const cols[] = { RC_CONFIG_ID, "cache_left_mib", NULL };
	struct column c = { .help = "" };
	struct rtable *t;
	bool any = false;
	json_t *s, *row;
	size_t i;

	json_array_foreach(r->sum, i, s)
		any |= is_run(s) && json_is_true(json_object_get(s, "dontcache"));
	if (!any)
		return;
	column_find(cols[1], &c);
	t = rdoc_table(d, "page cache left", cols);
	rtable_note(t, "medians: %s, just after each repetition (cachestat, "
		    "else mincore); --dontcache drops its pages once the I/O is "
		    "done", c.help);
	json_array_foreach(r->sum, i, s) {
		if (!is_run(s))
			continue;
		row = json_array();
		json_array_append(row, json_object_get(s, RC_CONFIG_ID));
		json_array_append_new(row, num_or_null(s, "cache_left_mib"));
		rtable_add(t, row);
	}
}
