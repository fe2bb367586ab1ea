/* SPDX-License-Identifier: MIT */
/*
 * Per-request latency, shared by ebpf/reqlat.bpf.c (kernel) and
 * src/trace/reqlat.c (user): block requests' queue time (insert ->
 * issue) and device time (issue -> complete) per direction, for every
 * request of the disk and for the run's own; the device's depth in flight
 * integrated over time; io_uring submission -> completion.
 */
#ifndef IOSTRAT_EBPF_REQLAT_H
#define IOSTRAT_EBPF_REQLAT_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#include "seeks.h" /* fine_slot(), fine_slot_low(), SEEK_FINE_SLOTS */

enum rql_dir { RQL_READ = 0, RQL_WRITE = 1, RQL_NDIR = 2 };
/* Every read/write request of the disk; the repetition's own (issued by
 * its processes, or written back for its cgroup). */
enum rql_scope { RQL_ALL = 0, RQL_OWN = 1, RQL_NSCOPE = 2 };

#define RQL_SLOTS SEEK_FINE_SLOTS /* log-linear microseconds, fine_slot() */

struct rql_hist {
	__u64 reqs;       /* issued read/write requests */
	__u64 no_insert;  /* issued without an insert: queue time 0 */
	__u64 done;       /* completed (device time known) */
	__u64 dev_sum_ns; /* sum of device times */
	__u64 q[RQL_SLOTS], d[RQL_SLOTS];
};

/* The per-CPU counters (one element). */
struct rql_stats {
	struct rql_hist h[RQL_NSCOPE][RQL_NDIR];
	__u64 uring_n, uring_sum_ns;
	__u64 uring[RQL_SLOTS]; /* io_uring submission -> completion */
};

/* The disk's depth in flight (one element, shared by every CPU):
 * area_ns is the integral of depth over time, from the first event
 * after a reset to the last. */
struct rql_depth {
	__s64 depth;
	__u64 first_ts, last_ts, area_ns, max, completions;
};

/* A request between insert and complete, by disk and first sector. */
struct rql_rq {
	__u32 dev, pad;
	__u64 sector;
};

struct rql_start {
	__u64 ts;       /* insert, then issue */
	__u32 dir;
	__u16 own;      /* 1: the repetition's own */
	__u16 issued;   /* 1: counted in the depth (issued, not completed) */
};

/* An io_uring request between submission and completion. */
struct rql_ur {
	__u64 ctx, user_data;
};

#endif
