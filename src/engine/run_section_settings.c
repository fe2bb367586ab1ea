// SPDX-License-Identifier: MIT
/* A run section's table of the keys that add configurations beside its own: fio. */
#include <stddef.h>

#include "bench.h"

const struct setting run_section_settings[] = {
	{ .name = "fio", SETTING_BOOL(struct run_section, fio), .def = "0",
	  .where = SET_PROFILE,
	  .help = "1: an fio baseline beside each configuration" },
	{ 0 },
};
