// SPDX-License-Identifier: (MIT OR GPL-2.0)
/*
 * Block-layer seeks: on each request issue (after merging), the distance
 * from the end of the previous request of the same disk and direction,
 * sequential vs random counts, request sizes, in-flight depth; on
 * completion the issue-to-complete latency.
 *
 * Each event has programs for several sources with one body: tp_btf
 * (typed, cheapest), raw_tp, and the classic tracepoint, and for the
 * kernels before 5.11, whose block_rq_issue was (q, rq), a tp_btf and a
 * raw_tp program taking two arguments.  The loader (src/trace/probe.c)
 * autoloads, per event, only the first program the running kernel's BTF
 * and tracefs say it can attach.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "maps.bpf.h"
#include "blk_rq.bpf.h"
#include "seeks.h"

_Static_assert(SEEK_DIR_READ == BLK_READ && SEEK_DIR_WRITE == BLK_WRITE &&
	       SEEK_NDIR == BLK_NDIR, "seek_dir is blk_dir");

/* Disk to watch (kernel dev_t encoding), 0 = every disk. */
const volatile __u32 targ_dev = 0;

BPF_MAP(stats, PERCPU_HASH, 256, struct seek_key, struct seek_stats);

/* End sector of the previous request per (disk, direction). */
BPF_MAP(last_end, HASH, 256, struct seek_key, __u64);

BPF_MAP(start, HASH, 16384, struct seek_rq, struct seek_start);

BPF_MAP(inflight, HASH, 256, __u32, __s64);

/* All zero, the initial value of a new stats entry (too big for the stack). */
static struct seek_stats zero_stats;

static __always_inline struct seek_stats *stats_of(struct seek_key *k)
{
	struct seek_stats *st = bpf_map_lookup_elem(&stats, k);

	if (st)
		return st;
	bpf_map_update_elem(&stats, k, &zero_stats, BPF_NOEXIST);
	return bpf_map_lookup_elem(&stats, k);
}

static __always_inline __s64 depth_inc(__u32 dev)
{
	__s64 zero = 0, *v = bpf_map_lookup_elem(&inflight, &dev);

	if (!v) {
		bpf_map_update_elem(&inflight, &dev, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&inflight, &dev);
		if (!v)
			return 1;
	}
	/* No fetching atomics before 5.12 (BPF_STX "uses reserved fields"):
	 * add, then read; a concurrent issue may make the depth off by one. */
	__sync_fetch_and_add(v, 1);
	return *v;
}

static __always_inline void depth_dec(__u32 dev)
{
	__s64 *v = bpf_map_lookup_elem(&inflight, &dev);

	if (v && *v > 0)
		__sync_fetch_and_add(v, -1);
}

static __always_inline int on_issue(__u32 dev, __u64 sector, __u32 bytes,
				    __u32 dir)
{
	struct seek_key k = { .dev = dev, .dir = dir };
	struct seek_rq rk = { .dev = dev, .sector = sector };
	struct seek_start sv = { .dir = dir };
	__u64 end = sector + (bytes >> 9), *last;
	struct seek_stats *st;
	__s64 depth;

	/* zero length: a flush; dir >= SEEK_NDIR: discard & co. */
	if (!bytes || dir >= SEEK_NDIR)
		return 0;
	if (targ_dev && dev != targ_dev)
		return 0;
	st = stats_of(&k);
	if (!st)
		return 0;
	st->reqs++;
	st->bytes += bytes;
	st->size[bounded(fine_slot(bytes), SEEK_FINE_SLOTS - 1)]++;
	last = bpf_map_lookup_elem(&last_end, &k);
	if (last) {
		__u64 prev = *last;

		if (prev == sector) {
			st->seq++;
			st->seq_bytes += bytes;
			st->dist[0]++;
		} else {
			st->rnd++;
			st->rnd_bytes += bytes;
			if (sector < prev)
				st->backward++;
			st->dist[bounded(dist_slot(sector < prev ? prev - sector :
							   sector - prev),
					 SEEK_DIST_SLOTS - 1)]++;
		}
		*last = end;
	} else {
		bpf_map_update_elem(&last_end, &k, &end, BPF_ANY);
	}
	depth = depth_inc(dev);
	if (depth < 0)
		depth = 0;
	if (depth >= SEEK_DEPTH_SLOTS)
		depth = SEEK_DEPTH_SLOTS - 1;
	st->depth[bounded((__u32)depth, SEEK_DEPTH_SLOTS - 1)]++;
	sv.ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &rk, &sv, BPF_ANY);
	return 0;
}

static __always_inline int on_complete(__u32 dev, __u64 sector)
{
	struct seek_rq rk = { .dev = dev, .sector = sector };
	struct seek_start *sv;
	struct seek_stats *st;
	struct seek_key k = { .dev = dev };
	__u64 us;

	if (targ_dev && dev != targ_dev)
		return 0;
	sv = bpf_map_lookup_elem(&start, &rk);
	if (!sv)
		return 0;
	us = (bpf_ktime_get_ns() - sv->ts) / 1000;
	k.dir = sv->dir;
	bpf_map_delete_elem(&start, &rk);
	depth_dec(dev);
	st = stats_of(&k);
	if (!st)
		return 0;
	st->lat_n++;
	st->lat_sum_ns += us * 1000;
	st->lat[bounded(fine_slot(us), SEEK_FINE_SLOTS - 1)]++;
	return 0;
}

/* ---- the programs: one per attach source (ebpf/blk_rq.bpf.h) ----------- */

static __always_inline int rq_issue(struct request *rq, const int direct)
{
	return on_issue(blk_rq_dev(rq, direct), RD(direct, rq, __sector),
			RD(direct, rq, __data_len), blk_rq_dir(rq, direct));
}

static __always_inline int tp_issue(struct trace_event_raw_block_rq *ctx)
{
	return on_issue(ctx->dev, ctx->sector, ctx->nr_sector << 9, blk_tp_dir(ctx));
}

static __always_inline int rq_complete(struct request *rq, const int direct)
{
	return on_complete(blk_rq_dev(rq, direct), RD(direct, rq, __sector));
}

BLK_RQ_PROGS_Q(rq_issue, rq_issue, tp_issue)
BLK_RQ_COMPLETE_PROGS(rq_complete, on_complete)

char LICENSE[] SEC("license") = "Dual MIT/GPL";
