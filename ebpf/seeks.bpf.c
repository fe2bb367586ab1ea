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

#include "seeks.h"

/* Disk to watch (kernel dev_t encoding), 0 = every disk. */
const volatile __u32 targ_dev = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 256);
	__type(key, struct seek_key);
	__type(value, struct seek_stats);
} stats SEC(".maps");

/* End sector of the previous request per (disk, direction). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, struct seek_key);
	__type(value, __u64);
} last_end SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct seek_rq);
	__type(value, struct seek_start);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __s64);
} inflight SEC(".maps");

/* An index the verifier can see is inside an array of mask + 1 slots (the
 * compiler would drop a plain mask it can prove redundant). */
static __always_inline __u32 bounded(__u32 v, __u32 mask)
{
	asm volatile("" : "+r"(v));
	return v & mask;
}

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

/* ---- struct request (tp_btf and raw_tp) ---------------------------------- */

/* tp_btf: plain loads through the typed pointer; raw_tp: probe reads.
 * `direct` is a constant at every call, one way is compiled. */
#define RD(direct, p, f) ((direct) ? (p)->f : BPF_CORE_READ(p, f))

/* Before 5.15 the disk was rq->rq_disk; later rq->q->disk. */
struct request___old {
	struct gendisk *rq_disk;
} __attribute__((preserve_access_index));

static __always_inline __u32 rq_dev(struct request *rq, const int direct)
{
	struct request___old *old = (void *)rq;
	struct gendisk *disk;

	if (bpf_core_field_exists(old->rq_disk)) {
		disk = RD(direct, old, rq_disk);
	} else {
		struct request_queue *q = RD(direct, rq, q);

		disk = RD(direct, q, disk);
	}

	if (!disk)
		return 0;
	return ((__u32)RD(direct, disk, major) << 20) |
	       (__u32)RD(direct, disk, first_minor);
}

static __always_inline __u32 rq_dir(struct request *rq, const int direct)
{
	__u32 op = RD(direct, rq, cmd_flags) & 0xff; /* REQ_OP_MASK */

	if (op == REQ_OP_READ)
		return SEEK_DIR_READ;
	if (op == REQ_OP_WRITE)
		return SEEK_DIR_WRITE;
	return SEEK_NDIR;
}

static __always_inline int rq_issue(struct request *rq, const int direct)
{
	return on_issue(rq_dev(rq, direct), RD(direct, rq, __sector),
			RD(direct, rq, __data_len), rq_dir(rq, direct));
}

static __always_inline int rq_complete(struct request *rq, const int direct)
{
	return on_complete(rq_dev(rq, direct), RD(direct, rq, __sector));
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(btf_rq_issue, struct request *rq)
{
	return rq_issue(rq, 1);
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(btf_rq_complete, struct request *rq, int error, unsigned int nr)
{
	return rq_complete(rq, 1);
}

SEC("raw_tp/block_rq_issue")
int BPF_PROG(raw_rq_issue, struct request *rq)
{
	return rq_issue(rq, 0);
}

/* Kernels before 5.11 (commit a54895fa): block_rq_issue(q, rq). */
SEC("tp_btf/block_rq_issue")
int BPF_PROG(btf_rq_issue_q, struct request_queue *q, struct request *rq)
{
	return rq_issue(rq, 1);
}

SEC("raw_tp/block_rq_issue")
int BPF_PROG(raw_rq_issue_q, struct request_queue *q, struct request *rq)
{
	return rq_issue(rq, 0);
}

SEC("raw_tp/block_rq_complete")
int BPF_PROG(raw_rq_complete, struct request *rq, int error, unsigned int nr)
{
	return rq_complete(rq, 0);
}

/* ---- classic tracepoints: the op is only in the rwbs string ------------- */

static __always_inline __u32 rwbs_dir(const char *rwbs)
{
	/* [F]{W|D|DE|F|R|N}[F][A][S][M]: 'R' and 'W' appear only as the op */
#pragma unroll
	for (int i = 0; i < 8; i++) {
		if (rwbs[i] == 'R')
			return SEEK_DIR_READ;
		if (rwbs[i] == 'W')
			return SEEK_DIR_WRITE;
		if (!rwbs[i])
			break;
	}
	return SEEK_NDIR;
}

SEC("tracepoint/block/block_rq_issue")
int tp_rq_issue(struct trace_event_raw_block_rq *ctx)
{
	char rwbs[8];

	/* ctx fields must be loaded at fixed offsets: copy the string */
	bpf_probe_read_kernel(rwbs, sizeof(rwbs), ctx->rwbs);
	return on_issue(ctx->dev, ctx->sector, ctx->nr_sector << 9,
			rwbs_dir(rwbs));
}

SEC("tracepoint/block/block_rq_complete")
int tp_rq_complete(struct trace_event_raw_block_rq_completion *ctx)
{
	return on_complete(ctx->dev, ctx->sector);
}

/* Before 5.17 block_rq_complete was an event of its own, so its record
 * has another type name (same dev and sector fields). */
struct trace_event_raw_block_rq_complete {
	__u32 dev;
	__u64 sector;
} __attribute__((preserve_access_index));

SEC("tracepoint/block/block_rq_complete")
int tp_rq_complete_old(struct trace_event_raw_block_rq_complete *ctx)
{
	return on_complete(ctx->dev, ctx->sector);
}

char LICENSE[] SEC("license") = "Dual MIT/GPL";
