// SPDX-License-Identifier: MIT
/* From probe counters to the figures of a result row. */
#include <string.h>

#include "trace.h"
#include "lib/util.h"

void seek_stats_add(struct seek_stats *into, const struct seek_stats *s)
{
	/* __u64, the fields' own type: uint64_t is another type to the
	 * aliasing rules, and -O2 would keep stale field values */
	__u64 *a = (__u64 *)into;
	const __u64 *b = (const __u64 *)s;

	for (size_t i = 0; i < sizeof(*s) / sizeof(__u64); i++)
		a[i] += b[i];
}

double fine_percentile(const __u64 *h, double p, bool interpolate)
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

void trace_summarize(const struct seek_entry *e, size_t n,
		     const struct pc_stats *pc, struct trace_summary *s)
{
	struct seek_stats all, dir[SEEK_NDIR];
	uint64_t depth_n = 0, acc = 0;

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
	s->seq = all.seq;
	s->rnd = all.rnd;
	s->seq_pct = pct(all.seq, all.seq + all.rnd);
	s->seq_pct_read = pct(dir[0].seq, dir[0].seq + dir[0].rnd);
	s->seq_pct_write = pct(dir[1].seq, dir[1].seq + dir[1].rnd);
	s->req_p50_kb = fine_percentile(all.size, 0.5, false);
	if (s->req_p50_kb >= 0)
		s->req_p50_kb /= 1024.0;
	s->lat_p50_us = fine_percentile(all.lat, 0.5, true);
	s->lat_p99_us = fine_percentile(all.lat, 0.99, true);
	memcpy(s->dist, all.dist, sizeof(s->dist));
	s->seek_p50_kb = dist_median(all.dist);
	if (s->seek_p50_kb >= 0)
		s->seek_p50_kb /= 2.0; /* sectors of 512 bytes */
	s->depth_p50 = -1;
	for (unsigned d = 0; d < SEEK_DEPTH_SLOTS; d++) {
		depth_n += all.depth[d];
		if (all.depth[d])
			s->depth_max = d;
	}
	for (unsigned d = 0; d < SEEK_DEPTH_SLOTS && depth_n; d++) {
		acc += all.depth[d];
		if (2 * acc >= depth_n) {
			s->depth_p50 = d;
			break;
		}
	}
	s->pc_requested = pc->read_pages + pc->mmap_pages + pc->mmap_faults;
	s->pc_misses = pc->added;
	s->pc_hits = s->pc_requested > s->pc_misses ? s->pc_requested - s->pc_misses : 0;
	s->pc_hit_ratio = s->pc_requested ?
		(double)s->pc_hits / (double)(s->pc_hits + s->pc_misses) : -1;
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

static json_t *real_or_null(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

static void set(json_t *row, const char *k, json_t *v)
{
	json_object_set_new(row, k, v);
}

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/* v where the kernel gives the figure, else null (and v freed) */
static json_t *when(bool has, json_t *v)
{
	if (has)
		return v;
	json_decref(v);
	return json_null();
}

/* The source of a figure: "none" when a point it needs has none.  The
 * page-cache figures need reads and insertions; readahead its decisions. */
static const char *pc_source(const struct tracer *t)
{
	const char *add = tracer_source(t, "add");

	return strcmp(add, "none") ? tracer_source(t, "reads") : "none";
}

void trace_fill_row(json_t *row, const struct tracer *t,
		    const struct seek_entry *e, size_t n,
		    const struct pc_stats *pc)
{
	struct trace_summary s;
	char hist[SEEK_DIST_SLOTS * 24];
	const char *blk = tracer_source(t, "rq_issue");
	const char *pcs = pc_source(t), *ra = tracer_source(t, "sync_ra");
	bool has_blk = strcmp(blk, "none"), has_pc = strcmp(pcs, "none");
	bool has_lat = has_blk && strcmp(tracer_source(t, "rq_complete"), "none");
	bool has_ra = strcmp(ra, "none");
	bool has_mmap = strcmp(tracer_source(t, "map_pages"), "none");

	trace_summarize(e, n, pc, &s);
	trace_seek_hist(s.dist, hist, sizeof(hist));
	set(row, "traced", json_true());
	/* a figure the kernel cannot give is null, never a false 0 */
	set(row, "seq_pct", has_blk ? real_or_null(s.seq_pct) : json_null());
	set(row, "pc_hits", has_pc ? u64(s.pc_hits) : json_null());
	set(row, "pc_misses", has_pc ? u64(s.pc_misses) : json_null());
	set(row, "pc_hit_ratio", has_pc ? real_or_null(s.pc_hit_ratio) : json_null());
	set(row, "ra_pages", has_ra ? u64(pc->ra_pages) : json_null());
	set(row, "req_p50_kb", has_blk ? real_or_null(s.req_p50_kb) : json_null());
	set(row, "lat_p50_us", has_lat ? real_or_null(s.lat_p50_us) : json_null());
	set(row, "lat_p99_us", has_lat ? real_or_null(s.lat_p99_us) : json_null());
	/* extra columns, after the core ones */
	set(row, "trace_mode", json_text(blk));
	set(row, "trace_fallback", t->fallback[0] ? json_text(t->fallback) : json_null());
	set(row, "blk_source", json_text(blk));
	set(row, "pc_source", json_text(pcs));
	set(row, "ra_source", json_text(ra));
	set(row, "blk_reqs", when(has_blk, u64(s.reqs)));
	set(row, "blk_read_reqs", when(has_blk, u64(s.rd_reqs)));
	set(row, "blk_write_reqs", when(has_blk, u64(s.wr_reqs)));
	set(row, "blk_mb", when(has_blk, json_real((double)s.bytes / 1e6)));
	set(row, "seq_pct_read", when(has_blk, real_or_null(s.seq_pct_read)));
	set(row, "seq_pct_write", when(has_blk, real_or_null(s.seq_pct_write)));
	set(row, "seek_p50_kb", when(has_blk, real_or_null(s.seek_p50_kb)));
	set(row, "seek_hist", hist[0] ? json_text(hist) : json_null());
	set(row, "qd_p50", when(has_blk, real_or_null(s.depth_p50)));
	set(row, "qd_max", s.reqs ? json_integer(s.depth_max) : json_null());
	set(row, "pc_requested", when(has_pc, u64(s.pc_requested)));
	set(row, "pc_read_calls", when(has_pc, u64(pc->read_calls)));
	set(row, "pc_past_eof", when(has_pc, u64(pc->past_eof)));
	if (!t->filter.files) /* else only the inputs are watched: always 0 */
		set(row, "pc_write_pages", when(has_pc, u64(pc->added_other)));
	set(row, "ra_sync", when(has_ra, u64(pc->ra_sync)));
	set(row, "ra_async", when(has_ra, u64(pc->ra_async)));
	set(row, "mmap_faults", when(has_mmap, u64(pc->mmap_faults)));
	set(row, "mmap_pages", when(has_mmap, u64(pc->mmap_pages)));
}
