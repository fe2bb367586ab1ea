// SPDX-License-Identifier: MIT
/*
 * The request-latency probe (ebpf/reqlat.bpf.c): block requests' queue
 * and device time per direction, the depth in flight and Little's law,
 * io_uring submission to completion, the run's own share of the disk's
 * requests; its row columns and its part of the `iostrat trace` report.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../../ebpf/reqlat.h"
#include "lib/util.h"
#include "trace.h"

/* What read() leaves in probe_state.data. */
struct reqlat_data {
	struct rql_stats st;
	struct rql_depth depth;
};

/* The three percentiles of one time of one direction's requests. */
#define RQL_TIMES(KIND, DIR, WHAT)                                            \
	{ KIND "_" DIR "_p50_us", COL_TIME, 0, "us", "trace",                 \
	  "median " WHAT " of " DIR " requests", 0 },                         \
	{ KIND "_" DIR "_p99_us", COL_TIME, 0, "us", "trace",                 \
	  "99th percentile " WHAT " of " DIR " requests", 0 },                \
	{ KIND "_" DIR "_p999_us", COL_TIME, 0, "us", "trace",                \
	  "99.9th percentile " WHAT " of " DIR " requests", 0 }

static const struct column reqlat_columns[] = {
	{ "rl_source", COL_TEXT, 0, 0, "trace", "where the request-latency figures came from (the issue point's source)", 0 },
	{ "rl_scope", COL_TEXT, "own|all", 0, "trace", "requests the q_ and d_ figures are of: the run's own, or all of the disk's", 0 },
	RQL_TIMES("q", "read", "queue time (insert to issue)"),
	RQL_TIMES("d", "read", "device time (issue to complete)"),
	RQL_TIMES("q", "write", "queue time (insert to issue)"),
	RQL_TIMES("d", "write", "device time (issue to complete)"),
	{ "rl_reqs", COL_COUNT, 0, 0, "trace", "read and write requests the q_ and d_ figures are of", 0 },
	{ "rl_no_insert", COL_COUNT, 0, 0, "trace", "of those, issued without an insert (no scheduler queue): queue time 0", 0 },
	{ "q_hist", COL_TEXT, 0, 0, "trace", "queue times, log2 us slots SLOT:COUNT;... (slot 0: 0 us, s: 2^(s-1) to 2^s us)", 0 },
	{ "d_hist", COL_TEXT, 0, 0, "trace", "device times, log2 us slots SLOT:COUNT;...", 0 },
	{ "own_reqs", COL_COUNT, 0, 0, "trace", "read and write requests of the run's own processes, cgroup and writeback", 0 },
	{ "own_share", COL_RATE, 0, 0, "trace", "the run's own requests / all of the disk's in the window (0..1)", 0 },
	{ "depth_mean", COL_RATE, 0, "requests", "trace", "requests in flight on the disk, time-weighted mean", 0 },
	{ "depth_max", COL_COUNT, 0, "requests", "trace", "requests in flight on the disk, most", 0 },
	{ "little_ratio", COL_RATE, 0, 0, "trace", "depth_mean / (completions per second x mean device time); 1 when Little's law holds", 0 },
	{ "uring_reqs", COL_COUNT, 0, 0, "trace", "io_uring requests completed", 0 },
	{ "uring_p50_us", COL_TIME, 0, "us", "trace", "median io_uring submission to completion", 0 },
	{ "uring_p99_us", COL_TIME, 0, "us", "trace", "99th percentile io_uring submission to completion", 0 },
	{ 0 },
};

static const char *const reqlat_report_columns[] = {
	"d_read_p50_us", "q_read_p50_us", "depth_mean", "own_share", NULL,
};

void rql_log2(const __u64 *fine, __u64 *rows, unsigned n)
{
	memset(rows, 0, n * sizeof(*rows));
	for (unsigned s = 0; s < RQL_SLOTS; s++) {
		uint64_t lo = fine_slot_low(s);
		unsigned r = lo ? seek_ilog2(lo) + 1 : 0;

		rows[r < n ? r : n - 1] += fine[s];
	}
}

double rql_little(double depth_mean, uint64_t completions, double window_s,
		  double dev_mean_s)
{
	double expect;

	if (depth_mean < 0 || !completions || window_s <= 0 || dev_mean_s <= 0)
		return -1;
	expect = (double)completions / window_s * dev_mean_s;
	return expect > 0 ? depth_mean / expect : -1;
}

/* The two directions of one scope, summed. */
static void both_dirs(const struct rql_stats *st, int scope, struct rql_hist *h)
{
	const __u64 *a = (const __u64 *)&st->h[scope][RQL_READ];
	const __u64 *b = (const __u64 *)&st->h[scope][RQL_WRITE];
	__u64 *o = (__u64 *)h;

	for (size_t i = 0; i < sizeof(*h) / sizeof(__u64); i++)
		o[i] = a[i] + b[i];
}

static double depth_mean(const struct rql_depth *d)
{
	if (d->last_ts <= d->first_ts)
		return -1;
	return (double)d->area_ns / (double)(d->last_ts - d->first_ts);
}

static double little_of(const struct rql_stats *st, const struct rql_depth *d)
{
	struct rql_hist all;

	both_dirs(st, RQL_ALL, &all);
	if (!all.done || d->last_ts <= d->first_ts)
		return -1;
	return rql_little(depth_mean(d), d->completions,
			  (double)(d->last_ts - d->first_ts) / 1e9,
			  (double)all.dev_sum_ns / (double)all.done / 1e9);
}

static void hist_text(const __u64 *fine, char *buf, size_t len)
{
	__u64 rows[SEEK_DIST_SLOTS];

	rql_log2(fine, rows, SEEK_DIST_SLOTS);
	trace_seek_hist(rows, buf, len);
}

static const char *const dir_name[RQL_NDIR] = { "read", "write" };

static void fill_dir(json_t *row, const struct rql_hist *h, int dir, bool has_q,
		     bool has_d)
{
	static const char *const pname[] = { "p50", "p99", "p999" };
	static const double pv[] = { 0.5, 0.99, 0.999 };
	char k[32];

	for (int i = 0; i < 3; i++) {
		snprintf(k, sizeof(k), "q_%s_%s_us", dir_name[dir], pname[i]);
		trace_set(row, k, trace_when(has_q, trace_real(fine_quantile(h->q, pv[i], true))));
		snprintf(k, sizeof(k), "d_%s_%s_us", dir_name[dir], pname[i]);
		trace_set(row, k, trace_when(has_d, trace_real(fine_quantile(h->d, pv[i], true))));
	}
}

static void fill_hists(json_t *row, const struct rql_hist *h, bool has_q, bool has_d)
{
	char buf[SEEK_DIST_SLOTS * 24];

	hist_text(h->q, buf, sizeof(buf));
	trace_set(row, "q_hist", has_q && buf[0] ? json_text(buf) : json_null());
	hist_text(h->d, buf, sizeof(buf));
	trace_set(row, "d_hist", has_d && buf[0] ? json_text(buf) : json_null());
}

static bool has(const struct tracer *t, const char *point)
{
	return strcmp(tracer_source(t, point), "none") != 0;
}

static void fill_own(json_t *row, const struct rql_stats *st, bool has_blk)
{
	struct rql_hist all, own;

	both_dirs(st, RQL_ALL, &all);
	both_dirs(st, RQL_OWN, &own);
	trace_set(row, "own_reqs", trace_when(has_blk, trace_u64(own.reqs)));
	trace_set(row, "own_share", trace_when(has_blk && all.reqs,
		  json_real((double)own.reqs / (double)(all.reqs ? all.reqs : 1))));
}

static void reqlat_fill_row(json_t *row, const struct tracer *t,
			    const struct probe_state *ps)
{
	static const struct reqlat_data none;
	const struct reqlat_data *d = ps->data ? ps->data : &none;
	int scope = t->filter.pids ? RQL_OWN : RQL_ALL;
	bool has_blk = has(t, "rl_issue"), has_d = has_blk && has(t, "rl_complete");
	bool has_q = has_blk && has(t, "rl_insert");
	bool has_u = has(t, "uring_submit") && has(t, "uring_complete");
	struct rql_hist h;

	trace_set(row, "rl_source", json_text(tracer_source(t, "rl_issue")));
	trace_set(row, "rl_scope", trace_when(has_blk, json_text(scope == RQL_OWN ?
							      "own" : "all")));
	for (int dir = 0; dir < RQL_NDIR; dir++)
		fill_dir(row, &d->st.h[scope][dir], dir, has_q, has_d);
	both_dirs(&d->st, scope, &h);
	trace_set(row, "rl_reqs", trace_when(has_blk, trace_u64(h.reqs)));
	trace_set(row, "rl_no_insert", trace_when(has_q, trace_u64(h.no_insert)));
	fill_hists(row, &h, has_q, has_d);
	fill_own(row, &d->st, has_blk && t->filter.pids);
	trace_set(row, "depth_mean", trace_when(has_d, trace_real(depth_mean(&d->depth))));
	trace_set(row, "depth_max", trace_when(has_d && d->depth.first_ts,
					       trace_u64(d->depth.max)));
	trace_set(row, "little_ratio", trace_when(has_d, trace_real(little_of(&d->st, &d->depth))));
	trace_set(row, "uring_reqs", trace_when(has_u, trace_u64(d->st.uring_n)));
	trace_set(row, "uring_p50_us", trace_when(has_u, trace_real(fine_quantile(d->st.uring, 0.5, true))));
	trace_set(row, "uring_p99_us", trace_when(has_u, trace_real(fine_quantile(d->st.uring, 0.99, true))));
}

static void print_hist(FILE *f, const char *title, const __u64 *fine)
{
	__u64 rows[SEEK_DIST_SLOTS];

	rql_log2(fine, rows, SEEK_DIST_SLOTS);
	trace_print_pow2(f, title, rows, SEEK_DIST_SLOTS, 1, "");
}

static void print_dir(FILE *f, const struct rql_hist *h, int dir)
{
	if (!h->reqs)
		return;
	fprintf(f, "  %s: %llu requests (%llu without an insert: queue 0); "
		"queue p50 %.0f us, p99 %.0f us; device p50 %.0f us, p99 %.0f us\n",
		dir_name[dir], (unsigned long long)h->reqs,
		(unsigned long long)h->no_insert, fine_quantile(h->q, 0.5, true),
		fine_quantile(h->q, 0.99, true), fine_quantile(h->d, 0.5, true),
		fine_quantile(h->d, 0.99, true));
	print_hist(f, "queue time, insert to issue (us)", h->q);
	print_hist(f, "device time, issue to completion (us)", h->d);
}

static void reqlat_print(FILE *f, const struct tracer *t, const struct probe_state *ps)
{
	const struct reqlat_data *d = ps->data;
	int scope = t->filter.pids ? RQL_OWN : RQL_ALL;
	struct rql_hist all, own;

	fprintf(f, "request latency (%s requests; probes: %s)\n",
		scope == RQL_OWN ? "the command's own" : "all the disk's",
		tracer_source(t, "rl_issue"));
	if (!d)
		return;
	for (int dir = 0; dir < RQL_NDIR; dir++)
		print_dir(f, &d->st.h[scope][dir], dir);
	both_dirs(&d->st, RQL_ALL, &all);
	both_dirs(&d->st, RQL_OWN, &own);
	if (scope == RQL_OWN)
		fprintf(f, "  own requests: %llu of the disk's %llu\n",
			(unsigned long long)own.reqs, (unsigned long long)all.reqs);
	fprintf(f, "  depth in flight: mean %.2f, max %llu; Little's law ratio %.2f\n",
		depth_mean(&d->depth), (unsigned long long)d->depth.max,
		little_of(&d->st, &d->depth));
	if (d->st.uring_n) {
		fprintf(f, "  io_uring: %llu requests, submission to completion p50 %.0f us, p99 %.0f us\n",
			(unsigned long long)d->st.uring_n, fine_quantile(d->st.uring, 0.5, true),
			fine_quantile(d->st.uring, 0.99, true));
		print_hist(f, "io_uring submission to completion (us)", d->st.uring);
	}
}

#ifndef IOSTRAT_NO_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "blk_cands.h"
#include "ebpf/reqlat.skel.h"

/* Attach points, best source first (ebpf/reqlat.bpf.c; the block
 * events' lists are blk_cands.c's). */
static const struct probe_cand submit_cands[] = {
	{ "btf_uring_submit", PSRC_TP_BTF, "io_uring_submit_req", "io_kiocb", NULL },
	{ "tp_uring_submit_req", PSRC_TRACEPOINT, "io_uring/io_uring_submit_req",
	  NULL, "trace_event_raw_io_uring_submit_req" },
	{ "tp_uring_submit_sqe", PSRC_TRACEPOINT, "io_uring/io_uring_submit_sqe",
	  NULL, "trace_event_raw_io_uring_submit_sqe" },
	{ NULL },
};

static const struct probe_cand ucomplete_cands[] = {
	{ "btf_uring_complete", PSRC_TP_BTF, "io_uring_complete", "io_ring_ctx", NULL },
	{ "tp_uring_complete", PSRC_TRACEPOINT, "io_uring/io_uring_complete",
	  NULL, "trace_event_raw_io_uring_complete" },
	{ NULL },
};

static const struct probe_cand fork_cands[] = { PROBE_FORK_CANDS("rl_fork") };

/* The queue time survives without an insert point (null), the own
 * share without the fork point (the first process only). */
static const struct probe_point reqlat_points[] = {
	{ "rl_insert", "request queue time", blk_rq_insert_cands, true },
	{ "rl_issue", "request latency", blk_rq_issue_cands, false },
	{ "rl_complete", "request latency", blk_rq_complete_cands, false },
	{ "uring_submit", "io_uring latency", submit_cands, false },
	{ "uring_complete", "io_uring latency", ucomplete_cands, false },
	{ "rl_fork", "the run's own requests", fork_cands, true },
};

static void reqlat_filter(struct reqlat_bpf *s, const struct tracer *t)
{
	s->rodata->targ_dev = t->filter.disk_dev;
	s->rodata->filter_pids = t->filter.pids;
}

PROBE_SKEL(reqlat, reqlat)

static int reqlat_reset(void *skel)
{
	struct reqlat_bpf *s = skel;
	struct rql_depth zero = { 0 };
	__u32 k = 0;
	int ret;

	ret = probe_zero_percpu(bpf_map__fd(s->maps.stats), sizeof(struct rql_stats), 1);
	if (!ret && bpf_map_update_elem(bpf_map__fd(s->maps.depthm), &k, &zero, BPF_ANY))
		ret = -errno;
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.start), sizeof(struct rql_rq));
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.ustart), sizeof(struct rql_ur));
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.pids), sizeof(__u32));
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.cgroups), sizeof(__u64));
	return ret;
}

static int reqlat_read(struct probe_state *ps)
{
	struct reqlat_bpf *s = ps->skel;
	struct reqlat_data *d = calloc(1, sizeof(*d));
	__u32 zero = 0;
	int ret;

	if (!d)
		return -ENOMEM;
	ret = probe_sum_percpu(bpf_map__fd(s->maps.stats), &zero, sizeof(d->st), &d->st);
	if (!ret && bpf_map_lookup_elem(bpf_map__fd(s->maps.depthm), &zero, &d->depth))
		ret = -errno;
	if (ret) {
		free(d);
		return ret;
	}
	ps->data = d;
	return 0;
}

/* The cgroup v2 id (its directory's inode) of a process; 0: none known. */
static uint64_t cgroup_id_of(const char *proc)
{
	char path[4096 + 32], line[4096];
	struct stat sb;
	FILE *f = fopen(proc, "r");
	uint64_t id = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(path, sizeof(path), "/sys/fs/cgroup%s", line + 3);
			if (!stat(path, &sb))
				id = sb.st_ino;
			break;
		}
	fclose(f);
	return id;
}

/* The process and, when it has one of its own (not iostrat's), its
 * cgroup: the writeback of the files it dirtied is charged there. */
static int reqlat_watch_pid(struct probe_state *ps, pid_t pid)
{
	struct reqlat_bpf *s = ps->skel;
	__u32 key = (__u32)pid;
	char proc[64];
	uint64_t cg, self;
	__u8 one = 1;

	if (bpf_map_update_elem(bpf_map__fd(s->maps.pids), &key, &one, BPF_ANY))
		return -errno;
	snprintf(proc, sizeof(proc), "/proc/%d/cgroup", (int)pid);
	cg = cgroup_id_of(proc);
	self = cgroup_id_of("/proc/self/cgroup");
	if (!cg || cg == self || cg == 1)
		return 0;
	if (bpf_map_update_elem(bpf_map__fd(s->maps.cgroups), &cg, &one, BPF_ANY))
		return -errno;
	return 0;
}
#endif

const struct probe_ops reqlat_probe = {
	PROBE_OPS(reqlat, "request latency")
#ifndef IOSTRAT_NO_BPF
	.watch_pid = reqlat_watch_pid,
#endif
};
