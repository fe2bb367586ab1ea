// SPDX-License-Identifier: (MIT OR GPL-2.0)
/*
 * Per-request latency: block requests' time in the queue (insert ->
 * issue) and on the device (issue -> complete) per direction, for the
 * whole disk and for the repetition's own requests; the disk's depth in
 * flight integrated over time; io_uring submission -> completion.
 *
 * A request is keyed by (disk, first sector), as in seeks.bpf.c, so a
 * front merge after the insert loses its queue time (it counts as issued
 * without an insert, queue 0).  Requests issued without an insert (the
 * `none` scheduler's direct issue, a plug flushed straight to the
 * driver) count queue time 0 and are counted apart.  Flushes and every
 * op other than read and write are left out (of the depth too).
 *
 * The run's own: issued (or inserted) by a process of the watched trees
 * or of a watched cgroup, or carrying a bio charged to a watched cgroup
 * (the writeback of its files: cgroup writeback, tp_btf/raw_tp only).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "maps.bpf.h"
#include "blk_rq.bpf.h"
#include "reqlat.h"

_Static_assert(RQL_READ == BLK_READ && RQL_WRITE == BLK_WRITE && RQL_NDIR == BLK_NDIR,
	       "rql_dir is blk_dir");

/* Disk to watch (kernel dev_t encoding), 0 = every disk. */
const volatile __u32 targ_dev = 0;
/* io_uring: only the watched processes' rings (else every ring). */
const volatile __u8 filter_pids = 0;

BPF_MAP(stats, PERCPU_ARRAY, 1, __u32, struct rql_stats);

BPF_MAP(depthm, ARRAY, 1, __u32, struct rql_depth);

BPF_MAP(start, HASH, 16384, struct rql_rq, struct rql_start);

BPF_MAP(ustart, HASH, 16384, struct rql_ur, __u64);

/* The watched process trees (tgids) and cgroups (kernfs ids). */
BPF_MAP(pids, HASH, 8192, __u32, __u8);

BPF_MAP(cgroups, HASH, 64, __u64, __u8);

static __always_inline struct rql_stats *stats_get(void)
{
	__u32 z = 0;

	return bpf_map_lookup_elem(&stats, &z);
}

/* The current task belongs to the run: its tgid or its cgroup. */
static __always_inline __u32 current_own(void)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u64 cg = bpf_get_current_cgroup_id();

	return bpf_map_lookup_elem(&pids, &tgid) || bpf_map_lookup_elem(&cgroups, &cg);
}

/* The depth changes by delta now: add depth x the time since the last
 * change.  Unlocked (no spin locks in tracing programs): two CPUs
 * changing it at the same instant may lose one interval's area. */
static __always_inline void depth_step(__s64 delta)
{
	__u32 z = 0;
	struct rql_depth *d = bpf_map_lookup_elem(&depthm, &z);
	__u64 now = bpf_ktime_get_ns(), last;
	__s64 cur;

	if (!d)
		return;
	last = d->last_ts;
	cur = d->depth;
	if (!d->first_ts)
		d->first_ts = now;
	else if (now > last && cur > 0)
		__sync_fetch_and_add(&d->area_ns, (__u64)cur * (now - last));
	d->last_ts = now;
	__sync_fetch_and_add(&d->depth, delta);
	cur += delta;
	if (cur > 0 && (__u64)cur > d->max)
		d->max = (__u64)cur;
	if (delta < 0)
		__sync_fetch_and_add(&d->completions, 1);
}

static __always_inline void hist_add(__u64 *h, __u64 ns)
{
	h[bounded(fine_slot(ns / 1000), RQL_SLOTS - 1)]++;
}

static __always_inline int on_insert(__u32 dev, __u64 sector, __u32 bytes,
				     __u32 dir, __u32 own)
{
	struct rql_rq rk = { .dev = dev, .sector = sector };
	struct rql_start sv = { .dir = dir };

	if (!bytes || dir >= RQL_NDIR || (targ_dev && dev != targ_dev))
		return 0;
	sv.own = own || current_own();
	sv.ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &rk, &sv, BPF_ANY);
	return 0;
}

static __always_inline void count_issue(struct rql_hist *h, __u64 q_ns, bool inserted)
{
	h->reqs++;
	if (!inserted)
		h->no_insert++;
	hist_add(h->q, q_ns);
}

static __always_inline int on_issue(__u32 dev, __u64 sector, __u32 bytes,
				    __u32 dir, __u32 own)
{
	struct rql_rq rk = { .dev = dev, .sector = sector };
	struct rql_start *sv, nv = { .dir = dir };
	struct rql_stats *st = stats_get();
	__u64 now = bpf_ktime_get_ns(), q = 0;
	bool inserted = false;

	if (!bytes || dir >= RQL_NDIR || (targ_dev && dev != targ_dev) || !st)
		return 0;
	own = own || current_own();
	sv = bpf_map_lookup_elem(&start, &rk);
	if (sv && sv->ts && now >= sv->ts) {
		inserted = true;
		q = now - sv->ts;
		own = own || sv->own;
	}
	nv.ts = now;
	nv.own = own;
	nv.issued = 1;
	bpf_map_update_elem(&start, &rk, &nv, BPF_ANY);
	/* a request issued again before it completes (a requeue, or another
	 * request of the same sector) is in the depth once: it is completed
	 * once */
	if (!sv || !sv->issued)
		depth_step(1);
	count_issue(&st->h[RQL_ALL][bounded(dir, 1)], q, inserted);
	if (own)
		count_issue(&st->h[RQL_OWN][bounded(dir, 1)], q, inserted);
	return 0;
}

static __always_inline void count_done(struct rql_hist *h, __u64 d_ns)
{
	h->done++;
	h->dev_sum_ns += d_ns;
	hist_add(h->d, d_ns);
}

static __always_inline int on_complete(__u32 dev, __u64 sector)
{
	struct rql_rq rk = { .dev = dev, .sector = sector };
	struct rql_stats *st = stats_get();
	struct rql_start *sv;
	__u64 now = bpf_ktime_get_ns(), d;
	__u32 dir, own;

	if ((targ_dev && dev != targ_dev) || !st)
		return 0;
	sv = bpf_map_lookup_elem(&start, &rk);
	if (!sv || !sv->issued) /* never issued here: not in the depth */
		return 0;
	d = now > sv->ts ? now - sv->ts : 0;
	dir = bounded(sv->dir, 1);
	own = sv->own;
	bpf_map_delete_elem(&start, &rk);
	depth_step(-1);
	count_done(&st->h[RQL_ALL][dir], d);
	if (own)
		count_done(&st->h[RQL_OWN][dir], d);
	return 0;
}

/* ---- the programs: one per attach source (ebpf/blk_rq.bpf.h) ----------- */

/* The request's first bio is charged to a watched cgroup (cgroup
 * writeback charges a file's dirty pages to the cgroup that dirtied
 * them). */
static __always_inline __u32 rq_own_cgroup(struct request *rq)
{
	struct bio *bio = BPF_CORE_READ(rq, bio);
	__u64 id;

	if (!bio || !bpf_core_field_exists(bio->bi_blkg))
		return 0;
	id = BPF_CORE_READ(bio, bi_blkg, blkcg, css.cgroup, kn, id);
	return id && bpf_map_lookup_elem(&cgroups, &id);
}

/* A request as insert and issue read it: from the request itself
 * (tp_btf, raw_tp, fentry) or from the classic tracepoint's record. */
#define RQ_EVENT(ON)                                                          \
static __always_inline int rq_##ON(struct request *rq, const int direct)      \
{                                                                             \
	return on_##ON(blk_rq_dev(rq, direct), RD(direct, rq, __sector),     \
		       RD(direct, rq, __data_len), blk_rq_dir(rq, direct),    \
		       rq_own_cgroup(rq));                                    \
}                                                                             \
static __always_inline int tp_##ON(struct trace_event_raw_block_rq *ctx)      \
{                                                                             \
	return on_##ON(ctx->dev, ctx->sector, ctx->nr_sector << 9,            \
		       blk_tp_dir(ctx), 0);                                   \
}

RQ_EVENT(insert)
RQ_EVENT(issue)

static __always_inline int rq_complete(struct request *rq, const int direct)
{
	return on_complete(blk_rq_dev(rq, direct), RD(direct, rq, __sector));
}

BLK_RQ_PROGS_Q(rq_insert, rq_insert, tp_insert)
BLK_RQ_PROGS_Q(rq_issue, rq_issue, tp_issue)
BLK_RQ_COMPLETE_PROGS(rq_complete, on_complete)

/* ---- io_uring: the classic tracepoints (ctx and user_data in every
 * kernel's record; io_uring_submit_sqe until 5.19, io_uring_submit_req
 * from 6.0) -------------------------------------------------------------- */

static __always_inline int on_submit(__u64 ctx, __u64 user_data)
{
	struct rql_ur k = { .ctx = ctx, .user_data = user_data };
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u64 now = bpf_ktime_get_ns();

	if (filter_pids && !bpf_map_lookup_elem(&pids, &tgid))
		return 0;
	bpf_map_update_elem(&ustart, &k, &now, BPF_ANY);
	return 0;
}

static __always_inline int on_ucomplete(__u64 ctx, __u64 user_data)
{
	struct rql_ur k = { .ctx = ctx, .user_data = user_data };
	struct rql_stats *st = stats_get();
	__u64 *ts = bpf_map_lookup_elem(&ustart, &k), now, ns;

	if (!ts || !st)
		return 0;
	now = bpf_ktime_get_ns();
	ns = now > *ts ? now - *ts : 0;
	bpf_map_delete_elem(&ustart, &k);
	st->uring_n++;
	st->uring_sum_ns += ns;
	hist_add(st->uring, ns);
	return 0;
}

struct trace_event_raw_io_uring_submit_sqe {
	void *ctx;
	__u64 user_data;
} __attribute__((preserve_access_index));

SEC("tracepoint/io_uring/io_uring_submit_req")
int tp_uring_submit_req(struct trace_event_raw_io_uring_submit_req *ctx)
{
	return on_submit((__u64)ctx->ctx, ctx->user_data);
}

SEC("tracepoint/io_uring/io_uring_submit_sqe")
int tp_uring_submit_sqe(struct trace_event_raw_io_uring_submit_sqe *ctx)
{
	return on_submit((__u64)ctx->ctx, ctx->user_data);
}

SEC("tracepoint/io_uring/io_uring_complete")
int tp_uring_complete(struct trace_event_raw_io_uring_complete *ctx)
{
	return on_ucomplete((__u64)ctx->ctx, ctx->user_data);
}

/* tp_btf where the kernel's prototypes are these (6.x with io_kiocb's
 * cqe; the loader checks the first argument's type, the verifier the
 * rest): no tracefs needed. */
SEC("tp_btf/io_uring_submit_req")
int BPF_PROG(btf_uring_submit, struct io_kiocb *req)
{
	return on_submit((__u64)BPF_CORE_READ(req, ctx), BPF_CORE_READ(req, cqe.user_data));
}

SEC("tp_btf/io_uring_complete")
int BPF_PROG(btf_uring_complete, struct io_ring_ctx *rctx, void *req,
	     struct io_uring_cqe *cqe)
{
	return on_ucomplete((__u64)rctx, BPF_CORE_READ(cqe, user_data));
}

/* ---- the watched trees' children ----------------------------------------- */

static __always_inline int on_fork(__u32 child)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u8 one = 1;

	if (bpf_map_lookup_elem(&pids, &tgid))
		bpf_map_update_elem(&pids, &child, &one, BPF_ANY);
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(btf_rl_fork, struct task_struct *parent, struct task_struct *c)
{
	return on_fork(c->pid);
}

SEC("raw_tp/sched_process_fork")
int BPF_PROG(raw_rl_fork, struct task_struct *parent, struct task_struct *c)
{
	return on_fork(BPF_CORE_READ(c, pid));
}

SEC("tracepoint/sched/sched_process_fork")
int tp_rl_fork(struct trace_event_raw_sched_process_fork *ctx)
{
	return on_fork(ctx->child_pid);
}

char LICENSE[] SEC("license") = "Dual MIT/GPL";
