/* SPDX-License-Identifier: MIT */
/*
 * Block-layer view, shared by ebpf/seeks.bpf.c (kernel) and src/trace/
 * (user).  One stats record per (disk, direction), summed over CPUs by the
 * reader.  Requests are what the device sees after merging
 * (block_rq_issue); zero-length requests (flushes), discards and every op
 * other than read and write are skipped.
 */
#ifndef IOSTRAT_EBPF_SEEKS_H
#define IOSTRAT_EBPF_SEEKS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

enum seek_dir { SEEK_DIR_READ = 0, SEEK_DIR_WRITE = 1, SEEK_NDIR = 2 };

#define SEEK_DIST_SLOTS 64  /* log2 of |distance| in sectors, slot 0 = 0 */
#define SEEK_FINE_SLOTS 128 /* log-linear, see fine_slot() */
#define SEEK_DEPTH_SLOTS 64 /* linear in-flight count, last slot = more */

struct seek_key {
	__u32 dev;  /* disk dev_t, kernel encoding major << 20 | minor */
	__u32 dir;  /* enum seek_dir */
};

struct seek_stats {
	__u64 reqs, bytes;
	__u64 seq, rnd;          /* classified against the previous request */
	__u64 seq_bytes, rnd_bytes;
	__u64 backward;          /* random requests that went backwards */
	__u64 lat_n, lat_sum_ns;
	__u64 dist[SEEK_DIST_SLOTS];   /* non-sequential distances */
	__u64 size[SEEK_FINE_SLOTS];   /* request bytes */
	__u64 lat[SEEK_FINE_SLOTS];    /* issue -> complete, microseconds */
	__u64 depth[SEEK_DEPTH_SLOTS]; /* in flight at issue, this one included */
};

/* Key of a request between issue and completion. */
struct seek_rq {
	__u32 dev, pad;
	__u64 sector;
};

struct seek_start {
	__u64 ts;
	__u32 dir, pad;
};

static inline __u32 seek_ilog2(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) r += 1;
	return r;
}

/* log2 slot: 0 for 0, else floor(log2 v) + 1, capped. */
static inline __u32 dist_slot(__u64 v)
{
	__u32 s = v ? seek_ilog2(v) + 1 : 0;

	return s < SEEK_DIST_SLOTS ? s : SEEK_DIST_SLOTS - 1;
}

/*
 * Log-linear slot: four slots per power of two (a value is known within
 * 25%), so percentiles of sizes and latencies are not rounded to a factor
 * of two.  Values 0..3 have their own slot.
 */
static inline __u32 fine_slot(__u64 v)
{
	__u32 e, s;

	if (v < 4)
		return (__u32)v;
	e = seek_ilog2(v);
	s = 4 * (e - 1) + (__u32)((v >> (e - 2)) & 3);
	return s < SEEK_FINE_SLOTS ? s : SEEK_FINE_SLOTS - 1;
}

/* Smallest value of a fine slot (the inverse of fine_slot). */
static inline __u64 fine_slot_low(__u32 s)
{
	if (s < 4)
		return s;
	return (__u64)(4 + (s & 3)) << (s / 4 - 1);
}

#endif
