// SPDX-License-Identifier: MIT
/* The probes' cost (src/report/probe_cost.c): a ratio of the traced
 * repetitions' elapsed to the timed ones' with an interval, or no figure. */
#include <math.h>
#include <string.h>

#include "report/report.h"
#include "unit.h"

#define ID "big/stream/t1/w0/cold/fsync=file"

static json_t *rows_of(const double *timed, int nt, const double *traced, int nr)
{
	json_t *rows = json_array();

	for (int i = 0; i < nt + nr; i++) {
		bool tr = i >= nt;

		json_array_append_new(rows, json_pack("{s:s,s:s,s:f,s:i,s:o}", "config_id", ID,
			"role", tr ? "traced" : "timed",
			"elapsed_s", tr ? traced[i - nt] : timed[i], "rep", tr ? i - nt + 1 : i + 1,
			"error", json_null()));
	}
	return rows;
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

UNIT(five_timed_three_traced_give_a_95_ci)
{
	const double timed[] = { 1.0, 1.1, 0.9, 1.05, 0.95 }, traced[] = { 1.2, 1.3, 1.25 };
	json_t *rows = rows_of(timed, 5, traced, 3);
	struct probe_cost pc;

	probe_cost_of(rows, ID, &pc);
	CHECK(pc.ntimed == 5 && pc.ntraced == 3, "counts");
	CHECK(!strcmp(pc.cost_by, "95% CI"), "by %s", pc.cost_by);
	CHECK(pc.cost_lo <= pc.cost && pc.cost <= pc.cost_hi && pc.cost_lo > 1.0,
	      "%g (%g-%g)", pc.cost, pc.cost_lo, pc.cost_hi);
	CHECK(!strcmp(pc.traced_reps, "1, 2, 3"), "%s", pc.traced_reps);
	json_decref(rows);
	return 0;
}

UNIT(three_against_three_give_the_range_of_the_pairs)
{
	const double timed[] = { 1.0, 2.0, 1.5 }, traced[] = { 1.2, 0.9, 3.0 };
	json_t *rows = rows_of(timed, 3, traced, 3);
	struct probe_cost pc;

	probe_cost_of(rows, ID, &pc);
	CHECK(!strcmp(pc.cost_by, "range of the pairs"), "by %s", pc.cost_by);
	CHECK(near(pc.cost, 1.2 / 1.5) && near(pc.cost_lo, 0.9 / 2.0) && near(pc.cost_hi, 3.0),
	      "%g (%g-%g)", pc.cost, pc.cost_lo, pc.cost_hi);
	json_decref(rows);
	return 0;
}

UNIT(one_traced_repetition_is_no_figure)
{
	const double timed[] = { 1.0, 1.1, 0.9 }, traced[] = { 0.61 };
	json_t *rows = rows_of(timed, 3, traced, 1);
	struct probe_cost pc;

	probe_cost_of(rows, ID, &pc);
	CHECK(isnan(pc.cost) && isnan(pc.cost_lo) && isnan(pc.cost_hi), "a figure: %g", pc.cost);
	CHECK(near(pc.traced_s, 0.61), "the traced elapsed is still given");
	CHECK(strstr(pc.cost_by, "too few"), "%s", pc.cost_by);
	json_decref(rows);
	return 0;
}
