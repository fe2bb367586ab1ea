/* SPDX-License-Identifier: MIT */
/* One measured sweep variant in its own forked child. */
#ifndef IOSTRAT_SWEEP_MEASURE_H
#define IOSTRAT_SWEEP_MEASURE_H

#include <stdbool.h>
#include <signal.h>
#include <stdint.h>

#include "vctx.h"

/*
 * One measured variant in its own forked child, so CPU time, peak RSS and
 * faults belong to that variant alone.
 *
 * elapsed/user/sys cover exactly what the variant bracketed with
 * vctx_start/vctx_stop (CLOCK_MONOTONIC and getrusage in the child);
 * proc_* cover the whole child: elapsed from the parent's
 * CLOCK_MONOTONIC around fork..wait4, CPU from wait4's rusage, so the
 * (small) cost of forking and building the source data stays visible.
 * maxrss and faults come from wait4.
 */
struct measurement {
	double elapsed, user, sys;
	double proc_elapsed, proc_user, proc_sys;
	long maxrss_kb, minflt, majflt, nvcsw, nivcsw;
	uint64_t bytes;       /* bytes the variant moved */
	uint64_t syscalls;    /* read/write calls the variant counted itself */
	int64_t syscr, syscw; /* the kernel's count (/proc/self/io), -1 if none */
	bool have_sum;        /* reads: xxh3 of every byte read */
	uint64_t sum;
	uint64_t lib_buf;     /* stdio/iostream buffer really used, 0 = n/a */
	int err;              /* 0, or negative errno with errmsg */
	char errmsg[300];
};

/*
 * Run fn on c in a child.  write: build c->src (the data of c->seed,
 * long enough for c->block) first; read: checksum what fn feeds.
 * Returns 0 when the child ran (m->err tells whether the variant
 * failed), or -errno when no child could be started.
 */
/* Set from a signal handler: the child being waited for is killed. */
extern volatile sig_atomic_t measure_stop;

int measure_variant(variant_fn fn, struct vctx *c, bool write,
		    struct measurement *m);

#endif
