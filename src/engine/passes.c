// SPDX-License-Identifier: MIT
/* The engine run once per pass, rounds interleaved (hooks.h). */
#include "harness/stop.h"
#include "bench.h"
#include "hooks.h"

/* Round r of pass p: 0, or the status to stop with. */
static int one_pass(const struct engine_hooks *h, size_t p, unsigned r)
{
	struct bench_opts o = { 0 };
	int st = h->before(h->arg, p, r, &o);

	if (st)
		return st;
	st = bench_run_pass(&o, h, p);
	return h->after ? h->after(h->arg, p, r, st) : st;
}

int bench_passes(const struct engine_hooks *h)
{
	int st = 0;

	for (unsigned r = 1; !st && r <= (h->rounds ? h->rounds : 1); r++)
		for (size_t p = 0; !st && p < h->passes; p++)
			st = stop_caught() ? 128 + stop_caught() : one_pass(h, p, r);
	return st;
}
