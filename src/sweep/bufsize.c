// SPDX-License-Identifier: MIT
/*
 * sweep bufsize: read a set of files with read(2) through a buffer of
 * 32 B .. 1 MiB, caches dropped before every read, and find the knee:
 * where elapsed time stops improving while CPU time keeps falling.  The
 * readahead of the device is printed beside it, because it is usually
 * what the knee is about.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "lib/blockdev.h"
#include "lib/util.h"
#include "knee.h"
#include "sweep.h"

/* The kernel's compiled-in default readahead (VM_READAHEAD_PAGES, 128 KiB
 * since 2.6.23-ish); what a new block device gets, e.g. a loop device. */
#define KERNEL_DEFAULT_RA_KB 128

static int build(struct sweep_run *r)
{
	for (size_t s = 0; s < r->o->nsizes; s++)
		if (!sweep_add_cfg(r, OP_READ, API_SYSCALL, r->o->sizes[s], false, 0))
			return error_errno(-ENOMEM, "sweep bufsize", "configurations");
	return 0;
}

static void print_readahead(const struct sweep_run *r, FILE *f)
{
	struct blockdev_info bi;
	char ra[64];

	if (blockdev_of_path(r->dir, &bi) || !bi.disk[0] ||
	    blockdev_queue_attr(bi.disk, "read_ahead_kb", ra, sizeof(ra)))
		fprintf(f, "readahead: %s has no block device (%s); ", r->dir,
			bi.fs[0] ? bi.fs : "unknown fs");
	else
		fprintf(f, "readahead: %s read_ahead_kb = %s KiB; ", bi.disk, ra);
	fprintf(f, "the kernel's default is %d KiB (VM_READAHEAD_PAGES)\n",
		KERNEL_DEFAULT_RA_KB);
}

static void print_knee(const struct sweep_run *r, long k, FILE *f)
{
	const struct sweep_cfg *kc, *last = &r->cfgs[r->ncfgs - 1];
	size_t bi = 0;
	char a[32], b[32], c[32];

	if (k < 0) {
		fputs("knee: none (no usable medians)\n", f);
		return;
	}
	kc = &r->cfgs[k];
	for (size_t i = 1; i < r->ncfgs; i++)
		if (r->cfgs[i].med_el < r->cfgs[bi].med_el)
			bi = i;
	fprintf(f, "knee: %s B -- the smallest buffer whose median "
		"elapsed time is within %g%% of the best (%.4f s at %s B)\n",
		sweep_size_str(kc->block, false, a, sizeof(a)), r->o->knee_tol,
		r->cfgs[bi].med_el, sweep_size_str(r->cfgs[bi].block, false, b,
						   sizeof(b)));
	fprintf(f, "      CPU (user+sys) at the knee %.4f s, at %s B %.4f s: %s\n",
		kc->med_us + kc->med_sy, sweep_size_str(last->block, false, c,
							 sizeof(c)),
		last->med_us + last->med_sy,
		last->med_us + last->med_sy < kc->med_us + kc->med_sy ?
		"CPU keeps falling past the knee" : "CPU does not fall further");
}

static void print_table(const struct sweep_run *r, FILE *f)
{
	double el[SWEEP_MAX_SIZES];
	long k;

	for (size_t i = 0; i < r->ncfgs; i++)
		el[i] = r->cfgs[i].med_el;
	k = knee_find(el, r->ncfgs, r->o->knee_tol);
	fprintf(f, "sweep bufsize: %zu files x %llu bytes read with read(2) "
		"through a buffer, %s cache, %u repetitions (medians)\n", r->ndata,
		(unsigned long long)r->data_size, cache_mode_name(r->o->cache),
		r->o->reps);
	fprintf(f, "%8s %10s %9s %9s %9s %10s %9s\n", "buffer", RC_ELAPSED,
		RC_USER, RC_SYS, "cpu_s", "syscalls", "MB/s");
	for (size_t i = 0; i < r->ncfgs; i++) {
		const struct sweep_cfg *c = &r->cfgs[i];
		char sz[32];

		fprintf(f, "%8s %10.4f %9.4f %9.4f %9.4f %10.0f %9.1f%s\n",
			sweep_size_str(c->block, false, sz, sizeof(sz)), c->med_el,
			c->med_us, c->med_sy, c->med_us + c->med_sy, c->med_sc,
			c->med_mb_s, (long)i == k ? "  <- knee" : "");
	}
	print_knee(r, k, f);
	print_readahead(r, f);
}

int sweep_bufsize(const struct sweep_opts *o, FILE *out)
{
	double size = floor((double)o->size * o->scale);

	return sweep_main(o, out, o->files, (uint64_t)size, build, print_table);
}
