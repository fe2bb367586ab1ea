// SPDX-License-Identifier: MIT
/*
 * libFuzzer: the profile loader (INI dialect, lists and ranges, includes,
 * ${VAR}) on any bytes: it returns 0 with a matrix or an error after one
 * message, and never crashes, leaks or hangs.  The input is written to a
 * private temporary file (the loader resolves its real path for includes).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/bench.h"
#include "engine/profile.h"

/* profile.c only takes the addresses of the kinds */
const struct bench_kind bench_kind_run = { .name = "run" };
const struct bench_kind bench_kind_fio = { .name = "fio" };
const struct bench_kind bench_kind_net = { .name = "net" };
const struct bench_kind bench_kind_sweep = { .name = "sweep" };
const struct bench_kind bench_kind_limits = { .name = "limits" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct profile p;
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/iostrat-profile-fuzz-%d.ini", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	if (profile_load(path, NULL, 0, &p) == 0)
		profile_free(&p);
	unlink(path);
	return 0;
}
