// SPDX-License-Identifier: MIT
/* The engine's settings table: reps, max_reps and target_rsd of every section. */
#include <stddef.h>

#include "bench.h"

#define ITEM(f) offsetof(struct bench_item, f)

/* The engine's keys of every section, whatever its kind. */
const struct setting engine_settings[] = {
	{ .name = "reps", .type = SET_UINT, .off = ITEM(reps), .min = 1, .max = 10000,
	  .def = "3", .where = SET_PROFILE,
	  .help = "repetitions of each configuration (default 3)" },
	{ .name = "max_reps", .type = SET_UINT, .off = ITEM(max_reps), .min = 1,
	  .max = 10000, .where = SET_PROFILE,
	  .help = "with target_rsd: add repetitions up to this many (default reps)" },
	{ .name = "target_rsd", .type = SET_DOUBLE, .off = ITEM(target_rsd),
	  .max = 1000, .def = "3.5", .where = SET_PROFILE,
	  .help = "stop adding repetitions once the RSD is this percentage or less" },
	{ 0 },
};
