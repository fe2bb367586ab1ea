// SPDX-License-Identifier: MIT
/* The probes' cost per configuration: traced repetitions' elapsed over the untraced ones', with an interval. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/paired.h"
#include "results/row.h"
#include "results/stats_math.h"
#include "lib/util.h"
#include "report.h"

static double median_or_nan(const double *v, size_t n)
{
	struct summary s;

	if (!n)
		return NAN;
	summarize(v, n, &s);
	return s.median;
}

/* A good row of config id: its elapsed seconds in *v. */
static bool good_row(json_t *row, const char *id, double *v)
{
	const char *cid = json_string_value(json_object_get(row, RC_CONFIG_ID));
	json_t *el = json_object_get(row, RC_ELAPSED);

	if (!cid || strcmp(cid, id) || !json_is_number(el) ||
	    !json_is_null(json_object_get(row, "error")))
		return false;
	*v = json_number_value(el);
	return true;
}

static void add_rep(struct probe_cost *pc, json_t *row)
{
	size_t o = strlen(pc->traced_reps);

	snprintf(pc->traced_reps + o, sizeof(pc->traced_reps) - o, "%s%lld",
		 o ? ", " : "", (long long)json_integer_value(json_object_get(row, "rep")));
}

/* The range of every traced/timed pair: its lowest and highest ratio,
 * the median ratio of the medians between. */
static void pair_range(struct probe_cost *pc, const double *timed, const double *traced)
{
	struct summary a, b;

	summarize(timed, pc->ntimed, &a);
	summarize(traced, pc->ntraced, &b);
	pc->cost = b.median / a.median;
	pc->cost_lo = b.min / a.max;
	pc->cost_hi = b.max / a.min;
	pc->cost_by = "range of the pairs";
}

/* The ratio and its interval (struct probe_cost), or NANs and why not. */
static void cost_interval(struct probe_cost *pc, const double *timed, const double *traced)
{
	struct ratio_ci ci;

	pc->cost = pc->cost_lo = pc->cost_hi = NAN;
	if (pc->ntimed < 2 || pc->ntraced < 2) {
		pc->cost_by = "too few repetitions for an interval";
		return;
	}
	if (!unpaired_ratio_ci(timed, pc->ntimed, traced, pc->ntraced, 0.95, &ci)) {
		pc->cost = ci.ratio;
		pc->cost_lo = ci.lo;
		pc->cost_hi = ci.hi;
		pc->cost_by = "95% CI";
		return;
	}
	if (pc->timed_s > 0)
		pair_range(pc, timed, traced);
}

void probe_cost_of(json_t *rows, const char *id, struct probe_cost *pc)
{
	size_t n = json_array_size(rows), i;
	double *timed = calloc(n + 1, sizeof(double)), *traced = calloc(n + 1, sizeof(double));
	json_t *row;
	double v;

	memset(pc, 0, sizeof(*pc));
	json_array_foreach(rows, i, row) {
		if (!timed || !traced || !good_row(row, id, &v))
			continue;
		if (row_timed(row)) {
			timed[pc->ntimed++] = v;
			continue;
		}
		traced[pc->ntraced++] = v;
		add_rep(pc, row);
	}
	pc->timed_s = median_or_nan(timed, pc->ntimed);
	pc->traced_s = median_or_nan(traced, pc->ntraced);
	cost_interval(pc, timed, traced);
	free(timed);
	free(traced);
}

#define COST_NOTE                                                              \
	"cost = the traced repetitions' elapsed over the untraced (timed) "     \
	"ones': 1.10 = the probes slowed this configuration by 10%; "          \
	"cost_lo-cost_hi its interval (cost_by: the 95% Hodges-Lehmann "       \
	"interval where the counts allow one, else the range of every "        \
	"traced/timed pair); no figure with fewer than 2 of either; only the "  \
	"timed repetitions enter the statistics and the verdict, only the "     \
	"traced ones the kernel view"

void report_probe_cost(const struct rrun *r, struct rdoc *d)
{
	static const char *const cols[] = { RC_CONFIG_ID, "timed_n", "untraced_s",
		"rsd_pct", "traced_n", "traced_s", "cost", "cost_lo", "cost_hi",
		"cost_by", NULL };
	struct rtable *t = NULL;
	struct probe_cost pc;
	json_t *s;
	size_t i;

	json_array_foreach(r->sum, i, s) {
		const char *id = json_string_value(json_object_get(s, RC_CONFIG_ID));

		if (!id || !json_integer_value(json_object_get(s, "traced_reps")))
			continue;
		probe_cost_of(r->rows, id, &pc);
		rdoc_table_once(d, &t, "probes' cost (traced repetitions)", cols, COST_NOTE);
		rtable_add(t, json_pack("[s,I,o,o,I,o,o,o,o,s]", id, (json_int_t)pc.ntimed,
					rnum(pc.timed_s),
					rnum(json_number_value(json_object_get(s, "rsd_pct"))),
					(json_int_t)pc.ntraced, rnum(pc.traced_s), rnum(pc.cost),
					rnum(pc.cost_lo), rnum(pc.cost_hi), pc.cost_by));
	}
}
