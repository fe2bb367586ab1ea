// SPDX-License-Identifier: MIT
/* The summary lists configurations in natural config_id order, whatever
 * order a round's shuffle wrote their rows in. */
#include <string.h>

#include "results/results.h"
#include "unit.h"

static json_t *row(const char *cid)
{
	return json_pack("{s:s, s:s, s:I, s:f, s:n}", "kind", "run", "config_id", cid,
			 "rep", (json_int_t)1, "elapsed_s", 1.0, "error");
}

static const char *id_at(json_t *sum, size_t i)
{
	return json_string_value(json_object_get(json_array_get(sum, i), "config_id"));
}

UNIT(summary_order_does_not_follow_the_rows)
{
	static const char *const shuffled[] = { "d/uring/t2/w0", "d/stream/t1/w100",
						"d/buffer/t1/w20", "d/stream/t1/w20",
						"d/buffer/t1/w0" };
	static const char *const want[] = { "d/buffer/t1/w0", "d/buffer/t1/w20",
					    "d/stream/t1/w20", "d/stream/t1/w100",
					    "d/uring/t2/w0" };
	json_t *rows = json_array(), *sum;

	for (size_t i = 0; i < 5; i++)
		json_array_append_new(rows, row(shuffled[i]));
	sum = results_summarize(rows);
	CHECK(json_array_size(sum) == 5, "%zu configurations", json_array_size(sum));
	for (size_t i = 0; i < 5; i++)
		CHECK(id_at(sum, i) && !strcmp(id_at(sum, i), want[i]), "position %zu: %s, want %s",
		      i, id_at(sum, i), want[i]);
	json_decref(sum);
	json_decref(rows);
	return 0;
}
