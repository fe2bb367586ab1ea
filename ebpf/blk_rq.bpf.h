/* SPDX-License-Identifier: (MIT OR GPL-2.0) */
/*
 * A block request read the same way in every block probe (seeks,
 * reqlat): its disk, its op, the classic tracepoints' rwbs, and the
 * programs of each request event, one per attach source, named as
 * src/trace/blk_cands.c lists them.  BPF side only.
 */
#ifndef IOSTRAT_BLK_RQ_BPF_H
#define IOSTRAT_BLK_RQ_BPF_H

/* What blk_rq_dir() and blk_rwbs_dir() return: a probe's own direction
 * enum must have these values. */
enum blk_dir { BLK_READ = 0, BLK_WRITE = 1, BLK_NDIR = 2 };

/* An index the verifier can see is inside an array of mask + 1 slots (the
 * compiler would drop a plain mask it can prove redundant). */
static __always_inline __u32 bounded(__u32 v, __u32 mask)
{
	asm volatile("" : "+r"(v));
	return v & mask;
}

/* tp_btf: plain loads through the typed pointer; raw_tp: probe reads.
 * `direct` is a constant at every call, one way is compiled. */
#define RD(direct, p, f) ((direct) ? (p)->f : BPF_CORE_READ(p, f))

/* Before 5.15 the disk was rq->rq_disk; later rq->q->disk. */
struct request___old {
	struct gendisk *rq_disk;
} __attribute__((preserve_access_index));

/* The request's disk, in the kernel's dev_t encoding (0: none). */
static __always_inline __u32 blk_rq_dev(struct request *rq, const int direct)
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

static __always_inline __u32 blk_rq_dir(struct request *rq, const int direct)
{
	__u32 op = RD(direct, rq, cmd_flags) & 0xff; /* REQ_OP_MASK */

	if (op == REQ_OP_READ)
		return BLK_READ;
	if (op == REQ_OP_WRITE)
		return BLK_WRITE;
	return BLK_NDIR;
}

/* The classic tracepoints carry the op only in rwbs:
 * [F]{W|D|DE|F|R|N}[F][A][S][M], where 'R' and 'W' appear only as the op.
 * ctx fields must be loaded at fixed offsets: the string is copied. */
static __always_inline __u32 blk_tp_dir(const struct trace_event_raw_block_rq *ctx)
{
	char rwbs[8];

	bpf_probe_read_kernel(rwbs, sizeof(rwbs), ctx->rwbs);
#pragma unroll
	for (int i = 0; i < 8; i++) {
		if (rwbs[i] == 'R')
			return BLK_READ;
		if (rwbs[i] == 'W')
			return BLK_WRITE;
		if (!rwbs[i])
			break;
	}
	return BLK_NDIR;
}

/* Before 5.17 block_rq_complete was an event of its own, so its record
 * has another type name (same dev and sector fields). */
struct trace_event_raw_block_rq_complete {
	__u32 dev;
	__u64 sector;
} __attribute__((preserve_access_index));

/*
 * The programs of request event EV (rq_insert, rq_issue), which took
 * (rq) from 5.11 and (q, rq) before (commit a54895fa): tp_btf and raw_tp
 * of each call ON_RQ(rq, direct); the classic tracepoint calls
 * ON_TP(ctx).
 */
#define BLK_RQ_PROGS_Q(EV, ON_RQ, ON_TP)                                      \
SEC("tp_btf/block_" #EV)                                                      \
int BPF_PROG(btf_##EV, struct request *rq) { return ON_RQ(rq, 1); }           \
SEC("raw_tp/block_" #EV)                                                      \
int BPF_PROG(raw_##EV, struct request *rq) { return ON_RQ(rq, 0); }           \
SEC("tp_btf/block_" #EV)                                                      \
int BPF_PROG(btf_##EV##_q, struct request_queue *q, struct request *rq)       \
{ return ON_RQ(rq, 1); }                                                      \
SEC("raw_tp/block_" #EV)                                                      \
int BPF_PROG(raw_##EV##_q, struct request_queue *q, struct request *rq)       \
{ return ON_RQ(rq, 0); }                                                      \
SEC("tracepoint/block/block_" #EV)                                            \
int tp_##EV(struct trace_event_raw_block_rq *ctx) { return ON_TP(ctx); }

/* The programs of block_rq_complete: ON_RQ(rq, direct) as above,
 * ON_DONE(dev, sector) from either classic record. */
#define BLK_RQ_COMPLETE_PROGS(ON_RQ, ON_DONE)                                 \
SEC("tp_btf/block_rq_complete")                                               \
int BPF_PROG(btf_rq_complete, struct request *rq) { return ON_RQ(rq, 1); }    \
SEC("raw_tp/block_rq_complete")                                               \
int BPF_PROG(raw_rq_complete, struct request *rq) { return ON_RQ(rq, 0); }    \
SEC("tracepoint/block/block_rq_complete")                                     \
int tp_rq_complete(struct trace_event_raw_block_rq_completion *ctx)           \
{ return ON_DONE(ctx->dev, ctx->sector); }                                    \
SEC("tracepoint/block/block_rq_complete")                                     \
int tp_rq_complete_old(struct trace_event_raw_block_rq_complete *ctx)         \
{ return ON_DONE(ctx->dev, ctx->sector); }

#endif
