// SPDX-License-Identifier: MIT
/*
 * The block probe (ebpf/seeks.bpf.c): requests as issued to the device,
 * per disk and direction: sequential share, seek distances, sizes,
 * latencies and queue depth; its row columns and its part of the
 * `iostrat trace` report.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../ebpf/seeks.h"
#include "lib/util.h"
#include "trace.h"

/* Block stats of one (disk, direction), summed over CPUs. */
struct seek_entry {
	struct seek_key key;
	struct seek_stats st;
};

/* What read() leaves in probe_state.data: sorted by disk, direction. */
struct seeks_data {
	struct seek_entry *e;
	size_t n;
};

struct seeks_summary {
	uint64_t reqs, rd_reqs, wr_reqs, bytes;
	double seq_pct, seq_pct_read, seq_pct_write; /* < 0: no data */
	double req_p50_kb, lat_p50_us, lat_p99_us, seek_p50_kb; /* < 0: none */
	double depth_p50;
	unsigned depth_max;
	__u64 dist[SEEK_DIST_SLOTS]; /* requests by log2 seek distance */
};

static const struct column seeks_columns[] = {
	{ "trace_mode", COL_TEXT, 0, 0, "trace", "the block probes' source (as blk_source)", 0 },
	{ "blk_source", COL_TEXT, 0, 0, "trace", "where the block figures came from", 0 },
	{ "blk_reqs", COL_COUNT, 0, 0, "trace", "device requests", 0 },
	{ "blk_read_reqs", COL_COUNT, 0, 0, "trace", "device read requests", 0 },
	{ "blk_write_reqs", COL_COUNT, 0, 0, "trace", "device write requests", 0 },
	{ "blk_mb", COL_SIZE, 0, "MB", "trace", "bytes of the device requests / 10^6", 0 },
	{ "seq_pct_read", COL_RATE, 0, "%", "trace", "sequential read requests", 0 },
	{ "seq_pct_write", COL_RATE, 0, "%", "trace", "sequential write requests", 0 },
	{ "seek_p50_kb", COL_SIZE, 0, "KiB", "trace", "median seek distance", 0 },
	{ "seek_hist", COL_TEXT, 0, 0, "trace", "seek distances, SLOT:COUNT;...", 0 },
	{ "qd_p50", COL_RATE, 0, "requests", "trace", "median queue depth", 0 },
	{ "qd_max", COL_COUNT, 0, "requests", "trace", "largest queue depth", 0 },
	{ 0 },
};

static const char *const seeks_report_columns[] = {
	"seq_pct", "req_p50_kb", "lat_p50_us", "lat_p99_us", "qd_p50", NULL,
};

static void seek_stats_add(struct seek_stats *into, const struct seek_stats *s)
{
	/* __u64, the fields' own type: uint64_t is another type to the
	 * aliasing rules, and -O2 would keep stale field values */
	__u64 *a = (__u64 *)into;
	const __u64 *b = (const __u64 *)s;

	for (size_t i = 0; i < sizeof(*s) / sizeof(__u64); i++)
		a[i] += b[i];
}

double fine_quantile(const __u64 *h, double p, bool interpolate)
{
	uint64_t n = 0, acc = 0;
	double want;

	for (unsigned s = 0; s < SEEK_FINE_SLOTS; s++)
		n += h[s];
	if (!n)
		return -1;
	want = p * (double)n;
	for (unsigned s = 0; s < SEEK_FINE_SLOTS; s++) {
		double lo, hi;

		if (!h[s] || (double)(acc + h[s]) < want) {
			acc += h[s];
			continue;
		}
		lo = (double)fine_slot_low(s);
		if (!interpolate)
			return lo;
		hi = s + 1 < SEEK_FINE_SLOTS ? (double)fine_slot_low(s + 1) : lo * 1.25;
		return lo + (hi - lo) * ((want - (double)acc) / (double)h[s]);
	}
	return (double)fine_slot_low(SEEK_FINE_SLOTS - 1);
}

/* Median of the log2 distance histogram of random requests, in sectors
 * (the low bound of its power-of-two slot). */
static double dist_median(const __u64 *d)
{
	uint64_t n = 0, acc = 0;

	for (unsigned s = 1; s < SEEK_DIST_SLOTS; s++)
		n += d[s];
	if (!n)
		return -1;
	for (unsigned s = 1; s < SEEK_DIST_SLOTS; s++) {
		acc += d[s];
		if (2 * acc >= n)
			return (double)(1ULL << (s - 1));
	}
	return -1;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : -1;
}

/* The depth's median and maximum over the requests' in-flight counts. */
static void depth_of(const struct seek_stats *all, struct seeks_summary *s)
{
	uint64_t depth_n = 0, acc = 0;

	s->depth_p50 = -1;
	for (unsigned d = 0; d < SEEK_DEPTH_SLOTS; d++) {
		depth_n += all->depth[d];
		if (all->depth[d])
			s->depth_max = d;
	}
	for (unsigned d = 0; d < SEEK_DEPTH_SLOTS && depth_n; d++) {
		acc += all->depth[d];
		if (2 * acc >= depth_n) {
			s->depth_p50 = d;
			break;
		}
	}
}

static void summarize(const struct seek_entry *e, size_t n, struct seeks_summary *s)
{
	struct seek_stats all, dir[SEEK_NDIR];

	memset(s, 0, sizeof(*s));
	memset(&all, 0, sizeof(all));
	memset(dir, 0, sizeof(dir));
	for (size_t i = 0; i < n; i++) {
		seek_stats_add(&all, &e[i].st);
		if (e[i].key.dir < SEEK_NDIR)
			seek_stats_add(&dir[e[i].key.dir], &e[i].st);
	}
	s->reqs = all.reqs;
	s->rd_reqs = dir[SEEK_DIR_READ].reqs;
	s->wr_reqs = dir[SEEK_DIR_WRITE].reqs;
	s->bytes = all.bytes;
	s->seq_pct = pct(all.seq, all.seq + all.rnd);
	s->seq_pct_read = pct(dir[0].seq, dir[0].seq + dir[0].rnd);
	s->seq_pct_write = pct(dir[1].seq, dir[1].seq + dir[1].rnd);
	s->req_p50_kb = fine_quantile(all.size, 0.5, false);
	if (s->req_p50_kb >= 0)
		s->req_p50_kb /= 1024.0;
	s->lat_p50_us = fine_quantile(all.lat, 0.5, true);
	s->lat_p99_us = fine_quantile(all.lat, 0.99, true);
	memcpy(s->dist, all.dist, sizeof(s->dist));
	s->seek_p50_kb = dist_median(all.dist);
	if (s->seek_p50_kb >= 0)
		s->seek_p50_kb /= 2.0; /* sectors of 512 bytes */
	depth_of(&all, s);
}

void trace_seek_hist(const __u64 *dist, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (unsigned s = 0; s < SEEK_DIST_SLOTS && o < len; s++) {
		int w;

		if (!dist[s])
			continue;
		w = snprintf(buf + o, len - o, "%s%u:%llu", o ? ";" : "", s,
			     (unsigned long long)dist[s]);
		if (w < 0 || (size_t)w >= len - o) {
			buf[o] = 0; /* whole entries only */
			break;
		}
		o += (size_t)w;
	}
}

static void seeks_fill_row(json_t *row, const struct tracer *t,
			   const struct probe_state *ps)
{
	const struct seeks_data *d = ps->data;
	struct seeks_summary s;
	char hist[SEEK_DIST_SLOTS * 24];
	const char *blk = tracer_source(t, "rq_issue");
	bool has_blk = strcmp(blk, "none");
	bool has_lat = has_blk && strcmp(tracer_source(t, "rq_complete"), "none");

	summarize(d ? d->e : NULL, d ? d->n : 0, &s);
	trace_seek_hist(s.dist, hist, sizeof(hist));
	trace_set(row, "seq_pct", trace_when(has_blk, trace_real(s.seq_pct)));
	trace_set(row, "req_p50_kb", trace_when(has_blk, trace_real(s.req_p50_kb)));
	trace_set(row, "lat_p50_us", trace_when(has_lat, trace_real(s.lat_p50_us)));
	trace_set(row, "lat_p99_us", trace_when(has_lat, trace_real(s.lat_p99_us)));
	/* extra columns, after the core ones; trace_mode is blk_source, kept
	 * for older readers */
	trace_set(row, "trace_mode", json_text(blk));
	trace_set(row, "blk_source", json_text(blk));
	trace_set(row, "blk_reqs", trace_when(has_blk, trace_u64(s.reqs)));
	trace_set(row, "blk_read_reqs", trace_when(has_blk, trace_u64(s.rd_reqs)));
	trace_set(row, "blk_write_reqs", trace_when(has_blk, trace_u64(s.wr_reqs)));
	trace_set(row, "blk_mb", trace_when(has_blk, json_real((double)s.bytes / 1e6)));
	trace_set(row, "seq_pct_read", trace_when(has_blk, trace_real(s.seq_pct_read)));
	trace_set(row, "seq_pct_write", trace_when(has_blk, trace_real(s.seq_pct_write)));
	trace_set(row, "seek_p50_kb", trace_when(has_blk, trace_real(s.seek_p50_kb)));
	trace_set(row, "seek_hist", hist[0] ? json_text(hist) : json_null());
	trace_set(row, "qd_p50", trace_when(has_blk, trace_real(s.depth_p50)));
	trace_set(row, "qd_max", s.reqs ? json_integer(s.depth_max) : json_null());
}

/* Collapse a fine histogram to power-of-two rows (row = ilog2 + 1). */
static void fine_to_pow2(const __u64 *fine, __u64 *rows, unsigned n)
{
	memset(rows, 0, n * sizeof(*rows));
	for (unsigned s = 0; s < SEEK_FINE_SLOTS; s++) {
		uint64_t lo = fine_slot_low(s);
		unsigned r = lo ? seek_ilog2(lo) + 1 : 0;

		rows[r < n ? r : n - 1] += fine[s];
	}
}

static void print_depth(FILE *f, const __u64 *d)
{
	unsigned last = 0;
	uint64_t max = 0;

	for (unsigned i = 0; i < SEEK_DEPTH_SLOTS; i++)
		if (d[i]) {
			last = i;
			max = d[i] > max ? d[i] : max;
		}
	fprintf(f, "    requests in flight at issue (this one included)\n");
	for (unsigned i = 1; i <= last; i++) {
		if (trace_skip_zeros(f, d, &i, last))
			continue;
		fprintf(f, "      %-18u %10llu ", i, (unsigned long long)d[i]);
		trace_bar(f, d[i], max);
	}
}

static void print_seeks(FILE *f, const struct seek_entry *e)
{
	const struct seek_stats *st = &e->st;
	__u64 rows[66];
	char disk[64], mb[32];

	trace_disk_name(e->key.dev, disk, sizeof(disk));
	trace_human(mb, sizeof(mb), (double)st->bytes, "B");
	fprintf(f, "  %s %s: %llu requests, %s", disk,
		e->key.dir == SEEK_DIR_READ ? "read" : "write",
		(unsigned long long)st->reqs, mb);
	if (st->seq + st->rnd)
		fprintf(f, ", sequential %.1f%% (%llu of %llu; %llu random went "
			"backwards)", 100.0 * (double)st->seq /
			(double)(st->seq + st->rnd), (unsigned long long)st->seq,
			(unsigned long long)(st->seq + st->rnd),
			(unsigned long long)st->backward);
	fputc('\n', f);
	trace_print_pow2(f, "seek distance from the previous request's end (0 = sequential)",
		   st->dist, SEEK_DIST_SLOTS, 512, "B");
	fine_to_pow2(st->size, rows, 66);
	trace_print_pow2(f, "request size", rows, 66, 1, "B");
	fine_to_pow2(st->lat, rows, 66);
	trace_print_pow2(f, "latency, issue to completion (us)", rows, 66, 1, "");
	print_depth(f, st->depth);
}

static void seeks_print(FILE *f, const struct tracer *t, const struct probe_state *ps)
{
	const struct seeks_data *d = ps->data;

	fprintf(f, "block layer (requests as issued to the device, after "
		"merging; probes: %s)\n", tracer_source(t, "rq_issue"));
	if (!d || !d->n)
		fprintf(f, "  no read or write requests\n");
	for (size_t i = 0; d && i < d->n; i++)
		print_seeks(f, &d->e[i]);
}

#ifndef IOSTRAT_NO_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "blk_cands.h"
#include "ebpf/seeks.skel.h"

/* Attach points, best source first (ebpf/seeks.bpf.c; the block
 * events' lists are blk_cands.c's). */
static const struct probe_point seeks_points[] = {
	{ "rq_issue", "block requests", blk_rq_issue_cands, false },
	{ "rq_complete", "block latency", blk_rq_complete_cands, false },
};

static void seeks_filter(struct seeks_bpf *s, const struct tracer *t)
{
	s->rodata->targ_dev = t->filter.disk_dev;
}

PROBE_SKEL(seeks, seeks)

static int seeks_reset(void *skel)
{
	struct seeks_bpf *s = skel;
	int ret;

	ret = probe_clear_map(bpf_map__fd(s->maps.stats), sizeof(struct seek_key));
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.last_end),
				      sizeof(struct seek_key));
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.start),
				      sizeof(struct seek_rq));
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.inflight), sizeof(__u32));
	return ret;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct seek_key *x = &((const struct seek_entry *)a)->key;
	const struct seek_key *y = &((const struct seek_entry *)b)->key;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return (x->dir > y->dir) - (x->dir < y->dir);
}

/* One more entry of e (*cap grown as needed); NULL when out of memory. */
static struct seek_entry *grow(struct seek_entry **e, size_t cnt, size_t *cap)
{
	struct seek_entry *ne;

	if (cnt < *cap)
		return *e;
	ne = realloc(*e, (*cap ? *cap * 2 : 4) * sizeof(**e));
	if (!ne)
		return NULL;
	*cap = *cap ? *cap * 2 : 4;
	*e = ne;
	return ne;
}

static int seeks_read(struct probe_state *ps)
{
	struct seeks_bpf *s = ps->skel;
	struct seeks_data *d = calloc(1, sizeof(*d));
	struct seek_key key, last;
	bool have = false;
	size_t cap = 0;
	int fd = bpf_map__fd(s->maps.stats);

	if (!d)
		return -ENOMEM;
	while (!bpf_map_get_next_key(fd, have ? &last : NULL, &key)) {
		last = key;
		have = true;
		if (!grow(&d->e, d->n, &cap)) {
			free(d->e);
			free(d);
			return -ENOMEM;
		}
		d->e[d->n].key = key;
		if (!probe_sum_percpu(fd, &key, sizeof(struct seek_stats), &d->e[d->n].st))
			d->n++;
	}
	if (d->n)
		qsort(d->e, d->n, sizeof(*d->e), cmp_entry);
	ps->data = d;
	return 0;
}

static void seeks_free(void *data)
{
	struct seeks_data *d = data;

	if (d)
		free(d->e);
	free(d);
}
#endif

const struct probe_ops seeks_probe = {
	PROBE_OPS(seeks, "block")
#ifndef IOSTRAT_NO_BPF
	.free_data = seeks_free,
#endif
};
