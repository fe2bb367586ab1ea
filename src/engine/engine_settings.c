// SPDX-License-Identifier: MIT
/* The engine's settings table: repetitions, stopping rule, traced repetitions, order of every section. */
#include <stddef.h>

#include "bench.h"

static const char *const stop_rule_names[] = { "rsd", "ci", NULL };

/* The engine's keys of every section, whatever its kind. */
const struct setting engine_settings[] = {
	{ .name = "reps", SETTING_UINT(struct bench_item, reps), .min = 1, .max = 10000,
	  .def = "3", .where = SET_PROFILE,
	  .help = "repetitions of each configuration (default 3)" },
	{ .name = "max_reps", SETTING_UINT(struct bench_item, max_reps), .min = 1,
	  .max = 10000, .where = SET_PROFILE,
	  .help = "with stop: add repetitions up to this many (default reps; stop=ci: "
		  "at least 3, the rounds a race's first interval needs)" },
	{ .name = "target_rsd", SETTING_DOUBLE(struct bench_item, target_rsd),
	  .max = 1000, .def = "3.5", .where = SET_PROFILE,
	  .help = "stop=rsd: stop adding repetitions once the RSD is this percentage or less" },
	{ .name = "stop", SETTING_ENUM(struct bench_item, stop), .values = stop_rule_names,
	  .def = "rsd", .where = SET_PROFILE,
	  .help = "rsd: per configuration, by target_rsd; ci: race each cell, a "
		  "round at a time, on intervals valid at every look: a strategy shown "
		  "slower than another leaves, the cell stops once decided (a winner, "
		  "or the rest equal within min_effect) or once the rounds projected "
		  "to decide it are beyond max_reps or time_budget" },
	{ .name = "min_effect", SETTING_DOUBLE(struct bench_item, min_effect),
	  .max = 100, .def = RACE_MIN_EFFECT_DEF, .where = SET_PROFILE,
	  .help = "stop=ci: percent; strategies whose interval lies within 1 +- this "
		  "are \"equal within\" it, a decision (default 5; 0: no band)" },
	{ .name = "time_budget", SETTING_DOUBLE(struct bench_item, time_budget),
	  .max = 1e6, .def = "0", .where = SET_PROFILE,
	  .help = "seconds the repetitions may take: a cell's round starts only when "
		  "the time left holds it, the cells nearest a decision first; a cell "
		  "whose projected rounds do not fit stops as futile (0: no budget)" },
	{ .name = "trace_reps", SETTING_UINT(struct bench_item, trace_reps), .min = 1,
	  .max = 100, .def = "3", .where = SET_PROFILE,
	  .help = "with trace=1: traced repetitions per configuration, one a round "
		  "(the timed ones run untraced; they count against time_budget, "
		  "never in the timing statistics)" },
	{ .name = "order_seed", SETTING_COUNT(struct bench_item, order_seed),
	  .max = INT64_MAX,
	  .def = "0", .where = SET_PROFILE,
	  .help = "the seed of the order within a round (0: derived once per run, "
		  "recorded in env.json)" },
	{ 0 },
};

const struct column engine_columns[] = {
	{ "section", COL_TEXT, 0, 0, "engine", "the profile's section of the configuration", 0 },
	{ "scale", COL_RATE, 0, 0, "engine", "the data set's scale (gen --scale)", 0 },
	{ "seed", COL_COUNT, 0, 0, "engine", "the data set's seed (gen --seed)", 0 },
	{ "target_rsd", COL_RATE, 0, "%", "engine", "stop=rsd's spread the configuration aimed at", 0 },
	{ "warmup_outlier", COL_FLAG, 0, 0, "engine", "the configuration's first repetition is an outlier so far (round 3 on)", 0 },
	{ "resumed", COL_FLAG, 0, 0, "engine", "the row was measured by bench --resume", 0 },
	{ 0 },
};
