/* SPDX-License-Identifier: MIT */
/*
 * Page-cache view, shared by ebpf/pagecache.bpf.c (kernel) and src/trace/
 * (user).  Counted only for the filesystem and processes asked for.
 *
 *   requested  pages that read() asked for (filemap:mm_filemap_get_pages,
 *              first event of a read per thread, clamped to the file size)
 *              plus pages reached through mmap (fault-around ranges of
 *              mm_filemap_map_pages and single mm_filemap_fault pages)
 *   misses     pages inserted (mm_filemap_add_to_page_cache, 1 << order
 *              each) into files that were read or mapped
 *   hits       requested - misses (at least 0)
 */
#ifndef IOSTRAT_EBPF_PAGECACHE_H
#define IOSTRAT_EBPF_PAGECACHE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

struct pc_stats {
	__u64 read_calls;     /* reads counted (first get_pages of each) */
	__u64 read_pages;     /* pages those reads asked for, clamped */
	__u64 past_eof;       /* pages cut off by the clamp */
	__u64 added;          /* pages inserted into read/mapped files */
	__u64 added_other;    /* pages inserted into other files (writes) */
	__u64 add_events;     /* folios inserted into read/mapped files */
	__u64 ra_sync, ra_async;  /* readahead decisions */
	__u64 ra_pages;       /* pages readahead set out to read */
	__u64 mmap_faults;    /* filemap_fault calls (page not yet mapped) */
	__u64 mmap_pages;     /* pages in fault-around ranges */
};

#define PC_WATCH_MAX 65536 /* files iostrat run can restrict counting to */

struct pc_file {
	__u64 ino;
	__u32 dev, pad;      /* filesystem dev_t, kernel encoding */
};

/* Per-thread memory: the last get_pages range (to skip its repeats within
 * one read call), the last map_pages range, the last readahead window.
 * Only threads that passed the process filter have one (of process tgid:
 * a thread id reused by another process does not inherit it). */
struct pc_thread {
	__u64 gp_ino, gp_index, gp_last;
	__u64 ra_ino, ra_start, ra_end;
	__u32 gp_dev, ra_dev;
	__u32 tgid, pad;     /* the process that passed the filters */
};

#endif
