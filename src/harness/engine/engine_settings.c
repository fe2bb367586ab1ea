// SPDX-License-Identifier: MIT
/* The engine's settings table: repetitions, stopping rule, traced repetitions, order of every section. */
#include <stddef.h>

#include "bench.h"

#define ITEM(f) offsetof(struct bench_item, f)

static const char *const stop_rule_names[] = { "rsd", "ci", NULL };

/* The engine's keys of every section, whatever its kind. */
const struct setting engine_settings[] = {
	{ .name = "reps", .type = SET_UINT, .off = ITEM(reps), .min = 1, .max = 10000,
	  .def = "3", .where = SET_PROFILE,
	  .help = "repetitions of each configuration (default 3)" },
	{ .name = "max_reps", .type = SET_UINT, .off = ITEM(max_reps), .min = 1,
	  .max = 10000, .where = SET_PROFILE,
	  .help = "with stop: add repetitions up to this many (default reps; stop=ci: "
		  "at least the rounds an interval needs, 6 for two strategies, 8 for five)" },
	{ .name = "target_rsd", .type = SET_DOUBLE, .off = ITEM(target_rsd),
	  .max = 1000, .def = "3.5", .where = SET_PROFILE,
	  .help = "stop=rsd: stop adding repetitions once the RSD is this percentage or less" },
	{ .name = "stop", .type = SET_ENUM, .off = ITEM(stop), .values = stop_rule_names,
	  .def = "rsd", .where = SET_PROFILE,
	  .help = "rsd: per configuration, by target_rsd; ci: per cell, while the "
		  "leading comparison's interval is wider than target_ci (its width "
		  "only: never stops on the interval excluding 1)" },
	{ .name = "target_ci", .type = SET_DOUBLE, .off = ITEM(target_ci),
	  .max = 100, .def = "3", .where = SET_PROFILE,
	  .help = "stop=ci: the interval's half-width, percent of its estimate, that ends a cell (default 3)" },
	{ .name = "race", .type = SET_BOOL, .off = ITEM(race), .def = "1",
	  .where = SET_PROFILE,
	  .help = "stop=ci: race the cell: a strategy whose anytime-valid interval "
		  "against the leader excludes 1 leaves it, and the cell stops once "
		  "decided (behind or equal within min_effect), or when the rounds "
		  "projected to decide it exceed max_reps (0: the width rule, target_ci)" },
	{ .name = "min_effect", .type = SET_DOUBLE, .off = ITEM(min_effect),
	  .max = 100, .def = "5", .where = SET_PROFILE,
	  .help = "race: percent; an interval within 1 +- this is \"equal within\" "
		  "(a decision; default 5)" },
	{ .name = "time_budget", .type = SET_DOUBLE, .off = ITEM(time_budget),
	  .max = 1e6, .def = "0", .where = SET_PROFILE,
	  .help = "seconds the repetitions may take: no round starts that the "
		  "time left cannot hold (0: no budget)" },
	{ .name = "trace_reps", .type = SET_UINT, .off = ITEM(trace_reps), .min = 1,
	  .max = 100, .def = "1", .where = SET_PROFILE,
	  .help = "with trace=1: traced repetitions per configuration, one a round "
		  "(the timed ones run untraced)" },
	{ .name = "order_seed", .type = SET_COUNT, .off = ITEM(order_seed), .max = INT64_MAX,
	  .def = "0", .where = SET_PROFILE,
	  .help = "the seed of the order within a round (0: derived once per run, "
		  "recorded in env.json)" },
	{ 0 },
};
