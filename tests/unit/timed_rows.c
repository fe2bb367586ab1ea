// SPDX-License-Identifier: MIT
/* Traced repetitions stay out of the elapsed statistics: results_summarize
 * takes elapsed, rates and CPU from timed rows and the probes' columns from
 * traced ones; rows without a role (older results) are timed. */
#include <math.h>
#include <string.h>

#include "results/results.h"
#include "results/row.h"
#include "unit.h"

static json_t *row(const char *role, unsigned rep, double el, json_t *seq)
{
	json_t *r = json_pack("{s:s, s:s, s:I, s:f, s:f, s:o, s:b, s:n}", "kind", "run",
			      "config_id", "d/stream/t1", "rep", (json_int_t)rep,
			      "elapsed_s", el, "user_s", el / 2, "seq_pct", seq,
			      "traced", seq != NULL && !json_is_null(seq), "error");

	if (role)
		json_object_set_new(r, "role", json_string(role));
	return r;
}

UNIT(traced_rows_stay_out_of_elapsed_figures)
{
	json_t *rows = json_array(), *sum, *s;

	json_array_append_new(rows, row("timed", 1, 1.0, json_null()));
	json_array_append_new(rows, row("traced", 1, 9.0, json_real(90)));
	json_array_append_new(rows, row("timed", 2, 1.2, json_null()));
	sum = results_summarize(rows);
	s = json_array_get(sum, 0);
	CHECK(json_integer_value(json_object_get(s, "n")) == 2, "n counts the traced row");
	CHECK(fabs(json_real_value(json_object_get(s, "median")) - 1.1) < 1e-9,
	      "median %g", json_real_value(json_object_get(s, "median")));
	CHECK(fabs(json_real_value(json_object_get(s, "user_s")) - 0.55) < 1e-9,
	      "user_s %g", json_real_value(json_object_get(s, "user_s")));
	CHECK(fabs(json_real_value(json_object_get(s, "seq_pct")) - 90) < 1e-9,
	      "seq_pct not from the traced row");
	CHECK(json_is_true(json_object_get(s, "traced")), "summary not traced");
	CHECK(json_integer_value(json_object_get(s, "traced_reps")) == 1, "traced_reps");
	json_decref(sum);
	json_decref(rows);
	return 0;
}

/* A probe's own column is in traced rows only (a timed row has no such
 * key): the summary still carries its median. */
UNIT(probe_columns_only_in_traced_rows_reach_the_summary)
{
	json_t *rows = json_array(), *tr, *sum;

	json_array_append_new(rows, row("timed", 1, 1.0, json_null()));
	tr = row("traced", 1, 9.0, json_real(80));
	json_object_set_new(tr, "seq_pct_read", json_real(99));
	json_array_append_new(rows, tr);
	sum = results_summarize(rows);
	CHECK(json_is_number(json_object_get(json_array_get(sum, 0), "seq_pct_read")) &&
	      json_number_value(json_object_get(json_array_get(sum, 0), "seq_pct_read")) == 99,
	      "seq_pct_read not in the summary");
	json_decref(sum);
	json_decref(rows);
	return 0;
}

/* A failed repetition's figures (its user_s) are in no median. */
UNIT(failed_rows_stay_out_of_the_figures)
{
	json_t *rows = json_array(), *bad, *sum;

	json_array_append_new(rows, row("timed", 1, 1.0, json_null()));
	json_array_append_new(rows, row("timed", 2, 1.2, json_null()));
	bad = row("timed", 3, 50.0, json_null());
	json_object_set_new(bad, "error", json_string("killed"));
	json_array_append_new(rows, bad);
	sum = results_summarize(rows);
	CHECK(fabs(json_real_value(json_object_get(json_array_get(sum, 0), "user_s")) - 0.55) < 1e-9,
	      "user_s %g", json_real_value(json_object_get(json_array_get(sum, 0), "user_s")));
	json_decref(sum);
	json_decref(rows);
	return 0;
}

UNIT(rows_without_a_role_are_timed)
{
	json_t *rows = json_array(), *sum;

	json_array_append_new(rows, row(NULL, 1, 2.0, json_null()));
	json_array_append_new(rows, row(NULL, 2, 4.0, json_null()));
	CHECK(row_timed(json_array_get(rows, 0)), "no role: not timed");
	CHECK(row_round(json_array_get(rows, 1)) == 2, "no round: not its rep");
	sum = results_summarize(rows);
	CHECK(json_integer_value(json_object_get(json_array_get(sum, 0), "n")) == 2, "n");
	CHECK(!json_object_get(json_array_get(sum, 0), "traced_reps"), "traced_reps");
	json_decref(sum);
	json_decref(rows);
	return 0;
}
