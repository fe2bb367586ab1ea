// SPDX-License-Identifier: MIT
/*
 * The kernel view of traced runs (eBPF columns, src/trace/): per
 * configuration the medians of how sequential the device access was, how
 * often reads hit the page cache, request sizes and latencies.
 */
#include <string.h>

#include "report.h"

static json_t *num_or_null(json_t *s, const char *k)
{
	json_t *v = json_object_get(s, k);

	return json_is_number(v) ? rnum(json_number_value(v)) : json_null();
}

void report_kernel_view(const struct rrun *r, struct rdoc *d)
{
	static const char *const cols[] = { "config_id", "seq_pct", "pc_hit_ratio",
		"pc_misses", "ra_pages", "req_p50_kb", "lat_p50_us", "lat_p99_us",
		"qd_p50", NULL };
	struct rtable *t = NULL;
	json_t *s, *row;
	size_t i;

	json_array_foreach(r->sum, i, s) {
		const char *kind = json_string_value(json_object_get(s, "kind"));

		if (!kind || strcmp(kind, "run") || !json_is_true(json_object_get(s, "traced")))
			continue;
		if (!t) {
			t = rdoc_table(d, "kernel view (eBPF, traced runs)", cols);
			rtable_note(t, "medians over the repetitions; seq_pct: requests "
				    "starting where the previous one ended; pc_hit_ratio "
				    "0..1 of the pages reads asked for (README \"Kernel "
				    "view\")");
		}
		row = json_array();
		json_array_append(row, json_object_get(s, "config_id"));
		for (size_t c = 1; cols[c]; c++)
			json_array_append_new(row, num_or_null(s, cols[c]));
		rtable_add(t, row);
	}
}
