// SPDX-License-Identifier: MIT
/*
 * sweep blocksize: write, then read, one file in blocks of 1, 5, 50 ...
 * bytes, straight through to the system call and through stdio's buffer
 * (its default, and every --buffer size).
 */
#include <errno.h>
#include <string.h>

#include "lib/util.h"
#include "sweep.h"

static int add_variants(struct sweep_run *r, enum sweep_op op, size_t block)
{
	const struct sweep_opts *o = r->o;

	for (int a = 0; a < API_N; a++) {
		if (!(o->apis & (1u << a)))
			continue;
		if (!sweep_add_cfg(r, op, (enum sweep_api)a, block, false, 0))
			return -ENOMEM;
		if (a != API_STDIO)
			continue;
		for (size_t b = 0; b < o->nbuffers; b++)
			if (!sweep_add_cfg(r, op, API_STDIO, block, false,
					   o->buffers[b]))
				return -ENOMEM;
	}
	return 0;
}

static int build(struct sweep_run *r)
{
	for (int op = OP_WRITE; op <= OP_READ; op++) {
		if (!(r->o->ops & (1u << op)))
			continue;
		for (size_t s = 0; s < r->o->nsizes; s++) {
			int ret = add_variants(r, (enum sweep_op)op, r->o->sizes[s]);

			if (ret)
				return error_errno(ret, "sweep blocksize", "configurations");
		}
	}
	return 0;
}

/* The syscall variant of the same operation and block, for the ratio. */
static const struct sweep_cfg *baseline(const struct sweep_run *r,
					const struct sweep_cfg *c)
{
	for (size_t i = 0; i < r->ncfgs; i++) {
		const struct sweep_cfg *b = &r->cfgs[i];

		if (b->api == API_SYSCALL && b->op == c->op && b->block == c->block)
			return b;
	}
	return NULL;
}

static void print_table(const struct sweep_run *r, FILE *f)
{
	const struct sweep_opts *o = r->o;

	fprintf(f, "sweep blocksize: one %llu-byte file, %u repetitions (medians), "
		"reads %s cache, writes %s\n",
		(unsigned long long)r->data_size, o->reps, cache_mode_name(o->cache),
		o->fsync == FSYNC_FILE ? "fsync'd inside the time" : "not fsync'd (page cache only)");
	fprintf(f, "%-6s %-14s %8s %10s %9s %9s %10s %9s %8s\n", "op", "variant",
		"block", RC_ELAPSED, RC_USER, RC_SYS, "syscalls", "MB/s",
		"vs_sys");
	for (size_t i = 0; i < r->ncfgs; i++) {
		const struct sweep_cfg *c = &r->cfgs[i], *b = baseline(r, c);
		char ratio[16] = "-";

		if (b && b->med_el > 0)
			snprintf(ratio, sizeof(ratio), "%.3f", c->med_el / b->med_el);
		fprintf(f, "%-6s %-14s %8zu %10.4f %9.4f %9.4f %10.0f %9.1f %8s\n",
			sweep_op_name(c->op), c->variant, c->block, c->med_el,
			c->med_us, c->med_sy, c->med_sc, c->med_mb_s, ratio);
	}
	fputs("vs_sys: median elapsed / that of the syscall variant at the same "
	      "block size.\nsyscalls: read/write calls (syscall: counted by "
	      "iostrat; stdio: the kernel's count, /proc/self/io).\n", f);
}

int sweep_blocksize(const struct sweep_opts *o, FILE *out)
{
	return sweep_main(o, out, 1, o->size, build, print_table);
}
