// SPDX-License-Identifier: MIT
/* iostrat sweep KIND: the sweep of that kind, and its exit status. */
#include <stdio.h>

#include "sweep.h"

int sweep_run_opts(const struct sweep_opts *o, FILE *out)
{
	static int (*const fns[])(const struct sweep_opts *, FILE *) = {
		[SWEEP_BLOCKSIZE] = sweep_blocksize,
		[SWEEP_BUFSIZE] = sweep_bufsize,
		[SWEEP_API] = sweep_api,
	};

	int ret = fns[o->kind](o, out);

	return ret < 0 ? 1 : ret; /* -errno, or the engine's status */
}
