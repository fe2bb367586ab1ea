// SPDX-License-Identifier: MIT
/* Running a sweep by its kind (blocksize, bufsize, api). */
#include <stdio.h>

#include "sweep.h"

int sweep_run_opts(const struct sweep_opts *o, FILE *out)
{
	static int (*const fns[])(const struct sweep_opts *, FILE *) = {
		[SWEEP_BLOCKSIZE] = sweep_blocksize,
		[SWEEP_BUFSIZE] = sweep_bufsize,
		[SWEEP_API] = sweep_api,
	};

	return fns[o->kind](o, out) ? 1 : 0;
}
