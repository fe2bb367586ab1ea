// SPDX-License-Identifier: MIT
/*
 * The page-cache probe (ebpf/pagecache.bpf.c): what reads asked of the
 * page cache, what it had to insert (misses), readahead and mmap faults,
 * for the watched process trees and files; its row columns and its part
 * of the `iostrat trace` report.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../ebpf/pagecache.h"
#include "lib/util.h"
#include "trace.h"

struct pc_summary {
	uint64_t requested, hits, misses;
	double hit_ratio; /* < 0: nothing requested */
};

static const struct column pc_columns[] = {
	{ "pc_source", COL_TEXT, 0, 0, "trace", "where the page-cache figures came from", 0 },
	{ "ra_source", COL_TEXT, 0, 0, "trace", "where the readahead figures came from", 0 },
	{ "pc_requested", COL_COUNT, 0, "pages", "trace", "pages asked of the page cache", 0 },
	{ "pc_read_calls", COL_COUNT, 0, 0, "trace", "read calls into the page cache", 0 },
	{ "pc_past_eof", COL_COUNT, 0, 0, "trace", "reads past the end of a file", 0 },
	{ "pc_write_pages", COL_COUNT, 0, "pages", "trace", "pages written through the page cache", 0 },
	{ "ra_sync", COL_COUNT, 0, 0, "trace", "synchronous readahead calls", 0 },
	{ "ra_async", COL_COUNT, 0, 0, "trace", "asynchronous readahead calls", 0 },
	{ "mmap_faults", COL_COUNT, 0, 0, "trace", "page faults on mapped files", 0 },
	{ "mmap_pages", COL_COUNT, 0, "pages", "trace", "pages mapped in by faults", 0 },
	{ 0 },
};

static const char *const pc_report_columns[] = {
	"pc_hit_ratio", "pc_misses", "ra_pages", NULL,
};

static void summarize(const struct pc_stats *pc, struct pc_summary *s)
{
	s->requested = pc->read_pages + pc->mmap_pages + pc->mmap_faults;
	s->misses = pc->added;
	s->hits = s->requested > s->misses ? s->requested - s->misses : 0;
	s->hit_ratio = s->requested ?
		(double)s->hits / (double)(s->hits + s->misses) : -1;
}

/* The source of a figure: "none" when a point it needs has none.  The
 * page-cache figures need reads and insertions; readahead its decisions. */
static const char *pc_source(const struct tracer *t)
{
	const char *add = tracer_source(t, "add");

	return strcmp(add, "none") ? tracer_source(t, "reads") : "none";
}

static void pc_fill_row(json_t *row, const struct tracer *t,
			const struct probe_state *ps)
{
	static const struct pc_stats none;
	const struct pc_stats *pc = ps->data ? ps->data : &none;
	const char *pcs = pc_source(t), *ra = tracer_source(t, "sync_ra");
	bool has_pc = strcmp(pcs, "none"), has_ra = strcmp(ra, "none");
	bool has_mmap = strcmp(tracer_source(t, "map_pages"), "none");
	struct pc_summary s;

	summarize(pc, &s);
	trace_set(row, "pc_hits", trace_when(has_pc, trace_u64(s.hits)));
	trace_set(row, "pc_misses", trace_when(has_pc, trace_u64(s.misses)));
	trace_set(row, "pc_hit_ratio", trace_when(has_pc, trace_real(s.hit_ratio)));
	trace_set(row, "ra_pages", trace_when(has_ra, trace_u64(pc->ra_pages)));
	/* extra columns, after the core ones */
	trace_set(row, "pc_source", json_text(pcs));
	trace_set(row, "ra_source", json_text(ra));
	trace_set(row, "pc_requested", trace_when(has_pc, trace_u64(s.requested)));
	trace_set(row, "pc_read_calls", trace_when(has_pc, trace_u64(pc->read_calls)));
	trace_set(row, "pc_past_eof", trace_when(has_pc, trace_u64(pc->past_eof)));
	/* with filter.files only the inputs are watched: always 0, so null */
	trace_set(row, "pc_write_pages", trace_when(has_pc && !t->filter.files,
						    trace_u64(pc->added_other)));
	trace_set(row, "ra_sync", trace_when(has_ra, trace_u64(pc->ra_sync)));
	trace_set(row, "ra_async", trace_when(has_ra, trace_u64(pc->ra_async)));
	trace_set(row, "mmap_faults", trace_when(has_mmap, trace_u64(pc->mmap_faults)));
	trace_set(row, "mmap_pages", trace_when(has_mmap, trace_u64(pc->mmap_pages)));
}

static void pc_print(FILE *f, const struct tracer *t, const struct probe_state *ps)
{
	static const struct pc_stats none;
	const struct pc_stats *pc = ps->data ? ps->data : &none;
	struct pc_summary s;

	summarize(pc, &s);
	fprintf(f, "page cache (%s; reads: %s, insertions: %s, readahead: %s)\n",
		t->filter.pids ? "the command's processes" : "every process",
		tracer_source(t, "reads"), tracer_source(t, "add"),
		tracer_source(t, "sync_ra"));
	fprintf(f, "  read calls %llu asking for %llu pages (%llu more cut off "
		"past end of file)\n", (unsigned long long)pc->read_calls,
		(unsigned long long)pc->read_pages,
		(unsigned long long)pc->past_eof);
	fprintf(f, "  mmap: %llu faults, %llu pages in fault-around ranges\n",
		(unsigned long long)pc->mmap_faults,
		(unsigned long long)pc->mmap_pages);
	fprintf(f, "  hits %llu  misses %llu (pages inserted, %llu folios)  ",
		(unsigned long long)s.hits, (unsigned long long)s.misses,
		(unsigned long long)pc->add_events);
	if (s.hit_ratio >= 0)
		fprintf(f, "hit ratio %.1f%%\n", 100 * s.hit_ratio);
	else
		fprintf(f, "hit ratio -\n");
	fprintf(f, "  readahead: %llu sync, %llu async, %llu pages in windows\n",
		(unsigned long long)pc->ra_sync, (unsigned long long)pc->ra_async,
		(unsigned long long)pc->ra_pages);
	fprintf(f, "  pages inserted into files only written: %llu\n",
		(unsigned long long)pc->added_other);
}

#ifndef IOSTRAT_NO_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ebpf/pagecache.skel.h"

/*
 * Attach points, best source first (ebpf/pagecache.bpf.c).  The events
 * first, then the kernel's own functions for the kernels without them
 * (before 6.8 for reads and readahead); a function's older name after its
 * newer one.
 */
#define PC_EVENT(name, event, arg0)                                            \
	{ "btf_" name, PSRC_TP_BTF, event, arg0, NULL },                     \
	{ "raw_" name, PSRC_RAW_TP, event, arg0, NULL }
#define PC_FUNC(name, func)                                                    \
	{ "fe_" name, PSRC_FENTRY, func, NULL, NULL },                       \
	{ "kp_" name, PSRC_KPROBE, func, NULL, NULL }

static const struct probe_cand reads_cands[] = {
	PC_EVENT("get_pages", "mm_filemap_get_pages", NULL),
	{ "tp_get_pages", PSRC_TRACEPOINT, "filemap/mm_filemap_get_pages", NULL, NULL },
	{ "fe_read", PSRC_FENTRY, "filemap_read", NULL, NULL },
	{ "fe_read", PSRC_FENTRY, "generic_file_buffered_read", NULL, NULL },
	{ "kp_read", PSRC_KPROBE, "filemap_read", NULL, NULL },
	{ "kp_read", PSRC_KPROBE, "generic_file_buffered_read", NULL, NULL },
	{ NULL },
};

/* A point of all three sources: its event (tp_btf, raw_tp), the classic
 * tracepoint SYS/EVENT, then the kernel function FUNC. */
#define PC_CANDS(point, sys, event, func)                                      \
	static const struct probe_cand point##_cands[] = {                     \
		PC_EVENT(#point, event, NULL),                                 \
		{ "tp_" #point, PSRC_TRACEPOINT, sys "/" event, NULL, NULL },  \
		PC_FUNC(#point, func),                                         \
		{ NULL },                                                      \
	}

PC_CANDS(map_pages, "filemap", "mm_filemap_map_pages", "filemap_map_pages");
PC_CANDS(fault, "filemap", "mm_filemap_fault", "filemap_fault");
PC_CANDS(sync_ra, "readahead", "page_cache_sync_ra", "page_cache_sync_ra");
PC_CANDS(async_ra, "readahead", "page_cache_async_ra", "page_cache_async_ra");
PC_CANDS(ra_order, "readahead", "page_cache_ra_order", "page_cache_ra_order");
PC_CANDS(ra_unbounded, "readahead", "page_cache_ra_unbounded", "page_cache_ra_unbounded");

static const struct probe_cand add_cands[] = {
	PC_EVENT("add", "mm_filemap_add_to_page_cache", "folio"),
	PC_EVENT("add_page", "mm_filemap_add_to_page_cache", "page"),
	{ "tp_add", PSRC_TRACEPOINT, "filemap/mm_filemap_add_to_page_cache", NULL, NULL },
	PC_FUNC("add_folio", "filemap_add_folio"),
	PC_FUNC("add_page", "add_to_page_cache_lru"),
	{ NULL },
};

static const struct probe_cand fork_cands[] = { PROBE_FORK_CANDS("fork") };

/* Points of one figure share its name: the loader notes a figure once,
 * when a point it needs has no source.  The readahead windows come from
 * page_cache_ra_order where there is one (5.18 on), else from
 * page_cache_ra_unbounded alone. */
static const struct probe_point pc_points[] = {
	{ "reads", "page-cache hits and misses", reads_cands, false },
	{ "add", "page-cache hits and misses", add_cands, false },
	{ "map_pages", "page-cache reads through mmap", map_pages_cands, false },
	{ "fault", "page-cache reads through mmap", fault_cands, false },
	{ "sync_ra", "readahead", sync_ra_cands, false },
	{ "async_ra", "readahead", async_ra_cands, false },
	{ "ra_order", "readahead", ra_order_cands, true },
	{ "ra_unbounded", "readahead", ra_unbounded_cands, true },
	{ "fork", "page cache of child processes", fork_cands, false },
};

static unsigned page_shift(void)
{
	long sz = sysconf(_SC_PAGESIZE);
	unsigned s = 0;

	while (sz > 1) {
		sz >>= 1;
		s++;
	}
	return s ? s : 12;
}

static void pc_filter(struct pagecache_bpf *s, const struct tracer *t)
{
	s->rodata->targ_fs_dev = t->filter.fs_dev;
	s->rodata->filter_pids = t->filter.pids;
	s->rodata->filter_files = t->filter.files;
	s->rodata->page_shift = page_shift();
}

PROBE_SKEL(pc, pagecache)

static int pc_reset(void *skel)
{
	struct pagecache_bpf *s = skel;
	int ret;

	ret = probe_zero_percpu(bpf_map__fd(s->maps.stats), sizeof(struct pc_stats), 1);
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.pids), sizeof(__u32));
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.threads), sizeof(__u32));
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.files), sizeof(struct pc_file));
	return ret;
}

static int pc_read(struct probe_state *ps)
{
	struct pagecache_bpf *s = ps->skel;
	struct pc_stats *pc = calloc(1, sizeof(*pc));
	__u32 zero = 0;
	int ret;

	if (!pc)
		return -ENOMEM;
	ret = probe_sum_percpu(bpf_map__fd(s->maps.stats), &zero, sizeof(*pc), pc);
	if (ret) {
		free(pc);
		return ret;
	}
	ps->data = pc;
	return 0;
}

static int pc_watch_pid(struct probe_state *ps, pid_t pid)
{
	struct pagecache_bpf *s = ps->skel;
	__u32 key = (__u32)pid;
	__u8 one = 1;

	if (bpf_map_update_elem(bpf_map__fd(s->maps.pids), &key, &one, BPF_ANY))
		return -errno;
	return 0;
}

static int pc_watch_file(struct probe_state *ps, dev_t dev, ino_t ino)
{
	struct pagecache_bpf *s = ps->skel;
	struct pc_file f = { .ino = ino, .dev = kdev_of(dev) };
	__u8 one = 1;

	if (bpf_map_update_elem(bpf_map__fd(s->maps.watch), &f, &one, BPF_ANY))
		return errno == E2BIG || errno == ENOSPC ? -E2BIG : -errno;
	return 0;
}

static int pc_unwatch_files(struct probe_state *ps)
{
	struct pagecache_bpf *s = ps->skel;

	return probe_clear_map(bpf_map__fd(s->maps.watch), sizeof(struct pc_file));
}
#endif

const struct probe_ops pagecache_probe = {
	PROBE_OPS(pc, "page-cache")
	.watch_max = PC_WATCH_MAX,
#ifndef IOSTRAT_NO_BPF
	.watch_pid = pc_watch_pid,
	.watch_file = pc_watch_file,
	.unwatch_files = pc_unwatch_files,
#endif
};
