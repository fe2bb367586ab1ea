// SPDX-License-Identifier: MIT
/* Loader and reader of ebpf/pagecache.bpf.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace.h"

#ifdef IOSTRAT_NO_BPF
int tracer_watch_pid(struct tracer *t, pid_t pid)
{
	(void)t;
	(void)pid;
	return -ENOTSUP;
}
int tracer_watch_file(struct tracer *t, dev_t dev, ino_t ino)
{
	(void)t;
	(void)dev;
	(void)ino;
	return -ENOTSUP;
}
int tracer_unwatch_files(struct tracer *t) { (void)t; return -ENOTSUP; }
int tracer_read_pc(struct tracer *t, struct pc_stats *out)
{
	(void)t;
	memset(out, 0, sizeof(*out));
	return -ENOTSUP;
}
#else
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ebpf/pagecache.skel.h"
#include "probe.h"

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

static const struct probe_cand map_pages_cands[] = {
	PC_EVENT("map_pages", "mm_filemap_map_pages", NULL),
	{ "tp_map_pages", PSRC_TRACEPOINT, "filemap/mm_filemap_map_pages", NULL, NULL },
	PC_FUNC("map_pages", "filemap_map_pages"),
	{ NULL },
};

static const struct probe_cand fault_cands[] = {
	PC_EVENT("fault", "mm_filemap_fault", NULL),
	{ "tp_fault", PSRC_TRACEPOINT, "filemap/mm_filemap_fault", NULL, NULL },
	PC_FUNC("fault", "filemap_fault"),
	{ NULL },
};

static const struct probe_cand add_cands[] = {
	PC_EVENT("add", "mm_filemap_add_to_page_cache", "folio"),
	PC_EVENT("add_page", "mm_filemap_add_to_page_cache", "page"),
	{ "tp_add", PSRC_TRACEPOINT, "filemap/mm_filemap_add_to_page_cache", NULL, NULL },
	PC_FUNC("add_folio", "filemap_add_folio"),
	PC_FUNC("add_page", "add_to_page_cache_lru"),
	{ NULL },
};

static const struct probe_cand sync_ra_cands[] = {
	PC_EVENT("sync_ra", "page_cache_sync_ra", NULL),
	{ "tp_sync_ra", PSRC_TRACEPOINT, "readahead/page_cache_sync_ra", NULL, NULL },
	PC_FUNC("sync_ra", "page_cache_sync_ra"),
	{ NULL },
};

static const struct probe_cand async_ra_cands[] = {
	PC_EVENT("async_ra", "page_cache_async_ra", NULL),
	{ "tp_async_ra", PSRC_TRACEPOINT, "readahead/page_cache_async_ra", NULL, NULL },
	PC_FUNC("async_ra", "page_cache_async_ra"),
	{ NULL },
};

static const struct probe_cand ra_order_cands[] = {
	PC_EVENT("ra_order", "page_cache_ra_order", NULL),
	{ "tp_ra_order", PSRC_TRACEPOINT, "readahead/page_cache_ra_order", NULL, NULL },
	PC_FUNC("ra_order", "page_cache_ra_order"),
	{ NULL },
};

static const struct probe_cand ra_unbounded_cands[] = {
	PC_EVENT("ra_unbounded", "page_cache_ra_unbounded", NULL),
	{ "tp_ra_unbounded", PSRC_TRACEPOINT, "readahead/page_cache_ra_unbounded", NULL, NULL },
	PC_FUNC("ra_unbounded", "page_cache_ra_unbounded"),
	{ NULL },
};

static const struct probe_cand fork_cands[] = {
	PC_EVENT("fork", "sched_process_fork", NULL),
	{ "tp_fork", PSRC_TRACEPOINT, "sched/sched_process_fork", NULL, NULL },
	{ NULL },
};

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

static int pc_open(const struct tracer *t, void **skel, struct bpf_object **obj)
{
	struct pagecache_bpf *s = pagecache_bpf__open();

	if (!s)
		return -errno;
	s->rodata->targ_fs_dev = t->filter.fs_dev;
	s->rodata->filter_pids = t->filter.pids;
	s->rodata->filter_files = t->filter.files;
	s->rodata->page_shift = page_shift();
	*skel = s;
	*obj = s->obj;
	return 0;
}

static int pc_load(void *skel)
{
	return pagecache_bpf__load(skel);
}

static void pc_destroy(void *skel)
{
	pagecache_bpf__destroy(skel);
}

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

const struct probe_ops pagecache_probe = {
	.name = "page-cache",
	.points = pc_points,
	.npoints = sizeof(pc_points) / sizeof(pc_points[0]),
	.open = pc_open,
	.load = pc_load,
	.destroy = pc_destroy,
	.reset = pc_reset,
};

static struct pagecache_bpf *pc_of(struct tracer *t)
{
	return t->probes[PROBE_PAGECACHE].skel;
}

int tracer_watch_pid(struct tracer *t, pid_t pid)
{
	__u32 key = (__u32)pid;
	__u8 one = 1;

	if (!pc_of(t))
		return 0; /* nothing loaded that filters by process */
	if (bpf_map_update_elem(bpf_map__fd(pc_of(t)->maps.pids), &key, &one, BPF_ANY))
		return -errno;
	return 0;
}

int tracer_watch_file(struct tracer *t, dev_t dev, ino_t ino)
{
	struct pc_file f = { .ino = ino, .dev = kdev_of(dev) };
	__u8 one = 1;

	if (!pc_of(t))
		return 0;
	if (bpf_map_update_elem(bpf_map__fd(pc_of(t)->maps.watch), &f, &one, BPF_ANY))
		return errno == E2BIG || errno == ENOSPC ? -E2BIG : -errno;
	return 0;
}

int tracer_unwatch_files(struct tracer *t)
{
	if (!pc_of(t))
		return 0;
	return probe_clear_map(bpf_map__fd(pc_of(t)->maps.watch), sizeof(struct pc_file));
}

int tracer_read_pc(struct tracer *t, struct pc_stats *out)
{
	__u32 zero = 0;

	if (!pc_of(t)) {
		memset(out, 0, sizeof(*out));
		return 0;
	}
	return probe_sum_percpu(bpf_map__fd(pc_of(t)->maps.stats), &zero,
				sizeof(*out), out);
}
#endif
