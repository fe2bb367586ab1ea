// SPDX-License-Identifier: (MIT OR GPL-2.0)
/*
 * Page-cache hits and misses of one run (see pagecache.h for the figures).
 *
 * Only tracepoints: filemap:mm_filemap_get_pages (a read asked for pages
 * index..last_index; the event repeats with the remaining range while one
 * read call walks its folio batches, so only the first of such a run per
 * thread counts), filemap:mm_filemap_add_to_page_cache (one folio of
 * 1 << order pages inserted = missed), readahead:* and the mmap fault
 * events.  As in seeks.bpf.c each event has a tp_btf, a raw_tp and a
 * classic tracepoint program sharing one body; the loader picks, per event,
 * the first the running kernel offers.  The classic tracepoints have no
 * inode, so they cannot clamp reads to the file size (read_pages may then
 * exceed what was really there).
 *
 * Kernels before 6.8 lack filemap:mm_filemap_get_pages and every
 * readahead:* event: there the same bodies run from fentry (or kprobe,
 * where fentry is refused) on the kernel's own functions, which the loader
 * finds in the kernel's BTF: the read path (filemap_read, before 5.12
 * generic_file_buffered_read), the insertion (filemap_add_folio,
 * add_to_page_cache_lru) and readahead (page_cache_sync_ra,
 * page_cache_async_ra, page_cache_ra_unbounded).  These are internal
 * functions: a rename costs their figures (the loader says which), never
 * the rest.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "maps.bpf.h"
#include "pagecache.h"

/* Filesystem to watch (kernel dev_t encoding), 0 = every filesystem. */
const volatile __u32 targ_fs_dev = 0;
/* Count only processes in `pids` (and their children). */
const volatile __u8 filter_pids = 0;
/* Count only the files in `watch` (iostrat run: the input files). */
const volatile __u8 filter_files = 0;
const volatile __u32 page_shift = 12;

BPF_MAP(stats, PERCPU_ARRAY, 1, __u32, struct pc_stats);

BPF_MAP(pids, HASH, 4096, __u32, __u8); /* tgid */

BPF_MAP(threads, LRU_HASH, 4096, __u32, struct pc_thread); /* thread id */

/* Files the watched processes read, mapped or read ahead: insertions into
 * them are misses; insertions into other files are writes. */
BPF_MAP(files, LRU_HASH, 65536, struct pc_file, __u8);

BPF_MAP(watch, HASH, PC_WATCH_MAX, struct pc_file, __u8);

static __always_inline struct pc_stats *wanted(__u32 dev)
{
	__u32 zero = 0;

	if (targ_fs_dev && dev != targ_fs_dev)
		return 0;
	if (filter_pids) {
		__u32 tgid = bpf_get_current_pid_tgid() >> 32;

		if (!bpf_map_lookup_elem(&pids, &tgid))
			return 0;
	}
	return bpf_map_lookup_elem(&stats, &zero);
}

/* wanted() and, when asked, one of the watched files */
static __always_inline struct pc_stats *wanted_file(__u32 dev, __u64 ino)
{
	struct pc_file f = { .ino = ino, .dev = dev };

	if (filter_files && !bpf_map_lookup_elem(&watch, &f))
		return 0;
	return wanted(dev);
}

static __always_inline void mark_file(__u32 dev, __u64 ino)
{
	struct pc_file f = { .ino = ino, .dev = dev };
	__u8 one = 1;

	if (!bpf_map_lookup_elem(&files, &f))
		bpf_map_update_elem(&files, &f, &one, BPF_ANY);
}

/* This thread's memory, if it has passed the filters before. */
static __always_inline struct pc_thread *thread_known(void)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct pc_thread *t = bpf_map_lookup_elem(&threads, &tid);

	return t && t->tgid == (__u32)(id >> 32) ? t : 0;
}

/* Called once the filters passed: this thread's memory, made if new. */
static __always_inline struct pc_thread *thread_of(void)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct pc_thread zero = { .tgid = (__u32)(id >> 32) }, *t;

	t = bpf_map_lookup_elem(&threads, &tid);
	if (t && t->tgid == zero.tgid)
		return t;
	bpf_map_update_elem(&threads, &tid, &zero, BPF_ANY);
	return bpf_map_lookup_elem(&threads, &tid);
}

/* Pages index..last, cut at the end of a file of isize bytes (isize < 0:
 * unknown). */
static __always_inline __u64 clamp_pages(struct pc_stats *st, __u64 index,
					 __u64 last, __s64 isize)
{
	__u64 end;

	if (last < index)
		return 0;
	if (isize < 0)
		return last - index + 1;
	end = ((__u64)isize + (1ULL << page_shift) - 1) >> page_shift;
	if (index >= end) {
		st->past_eof += last - index + 1;
		return 0;
	}
	if (last >= end) {
		st->past_eof += last - end + 1;
		last = end - 1;
	}
	return last - index + 1;
}

/*
 * The hottest event (once per read call, every 4 KiB with small buffers
 * from a warm cache), so its common case is one hash lookup: a thread
 * that passed the filters reading the file it read last time needs no
 * pids or watch lookup (both sets only grow between resets, which clear
 * the thread memory too).
 */
static __always_inline int on_get_pages(__u32 dev, __u64 ino, __u64 index,
					__u64 last, __s64 isize)
{
	struct pc_thread *t;
	struct pc_stats *st;
	__u32 zero = 0;

	if (targ_fs_dev && dev != targ_fs_dev)
		return 0;
	t = thread_known();
	if (t && t->gp_dev == dev && t->gp_ino == ino && t->gp_last) {
		st = bpf_map_lookup_elem(&stats, &zero);
	} else {
		st = wanted_file(dev, ino);
		if (st)
			t = thread_of();
	}
	if (!st || !t)
		return 0;
	/* The same read call asking again for the rest of its range. */
	if (t->gp_dev == dev && t->gp_ino == ino && t->gp_last == last &&
	    index > t->gp_index && index <= last) {
		t->gp_index = index;
		return 0;
	}
	/* the previous read of this thread was of this file: marked then */
	if (t->gp_dev != dev || t->gp_ino != ino || !t->gp_last)
		mark_file(dev, ino);
	t->gp_dev = dev;
	t->gp_ino = ino;
	t->gp_index = index;
	t->gp_last = last;
	st->read_calls++;
	st->read_pages += clamp_pages(st, index, last, isize);
	return 0;
}

static __always_inline int on_map_pages(__u32 dev, __u64 ino, __u64 index,
					__u64 last, __s64 isize)
{
	struct pc_stats *st = wanted_file(dev, ino);

	if (!st)
		return 0;
	mark_file(dev, ino);
	st->mmap_pages += clamp_pages(st, index, last, isize);
	return 0;
}

static __always_inline int on_fault(__u32 dev, __u64 ino)
{
	struct pc_stats *st = wanted_file(dev, ino);

	if (!st)
		return 0;
	mark_file(dev, ino);
	st->mmap_faults++;
	return 0;
}

static __always_inline int on_add(__u32 dev, __u64 ino, __u32 order)
{
	struct pc_stats *st = wanted_file(dev, ino);
	struct pc_file f = { .ino = ino, .dev = dev };
	__u64 pages = 1ULL << (order & 31);

	if (!st)
		return 0;
	if (bpf_map_lookup_elem(&files, &f)) {
		st->added += pages;
		st->add_events++;
	} else {
		st->added_other += pages;
	}
	return 0;
}

static __always_inline int on_ra(__u32 dev, __u64 ino, int async)
{
	struct pc_stats *st = wanted_file(dev, ino);

	if (!st)
		return 0;
	mark_file(dev, ino);
	if (async)
		st->ra_async++;
	else
		st->ra_sync++;
	return 0;
}

/* A readahead window of size pages from index (page_cache_ra_order). */
static __always_inline int on_ra_order(__u32 dev, __u64 ino, __u64 index,
				       __u64 size, __s64 isize)
{
	struct pc_stats *st = wanted_file(dev, ino);
	struct pc_thread *t;
	__u64 end;

	if (!st)
		return 0;
	mark_file(dev, ino);
	/* the window may reach past the end of the file: nothing read there */
	end = isize < 0 ? index + size :
		((__u64)isize + (1ULL << page_shift) - 1) >> page_shift;
	if (end > index + size)
		end = index + size;
	if (end > index)
		st->ra_pages += end - index;
	t = thread_of();
	if (t) {
		t->ra_dev = dev;
		t->ra_ino = ino;
		t->ra_start = index;
		t->ra_end = index + size;
	}
	return 0;
}

/* The page-by-page readahead: alone (random reads, fadvise) or as the
 * fallback of the window just counted by on_ra_order. */
static __always_inline int on_ra_unbounded(__u32 dev, __u64 ino, __u64 index,
					   __u64 nr)
{
	struct pc_stats *st = wanted_file(dev, ino);
	struct pc_thread *t;

	if (!st)
		return 0;
	mark_file(dev, ino);
	t = thread_of();
	if (t && t->ra_dev == dev && t->ra_ino == ino && index >= t->ra_start &&
	    index < t->ra_end)
		return 0;
	st->ra_pages += nr;
	return 0;
}

static __always_inline int on_fork(__u32 child)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u8 one = 1;

	if (filter_pids && bpf_map_lookup_elem(&pids, &tgid))
		bpf_map_update_elem(&pids, &child, &one, BPF_ANY);
	return 0;
}

/* ---- kernel structures (tp_btf and raw_tp) ------------------------------ */

/*
 * tp_btf arguments are typed pointers the program may follow with plain
 * loads; raw_tp ones need bpf_probe_read_kernel (BPF_CORE_READ), several
 * times slower on the read path's hottest event.  `direct` is a constant
 * at every call: the compiler keeps only one of the two ways.
 */
#define RD(direct, p, f) ((direct) ? (p)->f : BPF_CORE_READ(p, f))

struct ino_info {
	__u64 ino;
	__s64 isize;
	__u32 dev;
};

static __always_inline void inode_info(struct inode *inode, const int direct,
				       struct ino_info *ii)
{
	struct super_block *sb = RD(direct, inode, i_sb);

	ii->dev = RD(direct, sb, s_dev);
	ii->ino = RD(direct, inode, i_ino);
	ii->isize = RD(direct, inode, i_size);
}

/* A range of a mapping's pages, as get_pages and map_pages report it. */
#define MAP_RANGE(ON)                                                         \
static __always_inline int map_##ON(struct address_space *mapping,           \
				    unsigned long index, unsigned long last,  \
				    const int direct)                         \
{                                                                             \
	struct ino_info ii;                                                   \
									      \
	inode_info(RD(direct, mapping, host), direct, &ii);                   \
	return on_##ON(ii.dev, ii.ino, index, last, ii.isize);                \
}

MAP_RANGE(get_pages)
MAP_RANGE(map_pages)

static __always_inline int map_fault(struct address_space *mapping,
				     const int direct)
{
	struct ino_info ii;

	inode_info(RD(direct, mapping, host), direct, &ii);
	return on_fault(ii.dev, ii.ino);
}

static __always_inline __u32 folio_order_of(struct folio *folio)
{
	unsigned long flags = 0, flags1 = 0;

	/* flags is a plain word (6.1) or a one-word struct (6.18):
	 * CO-RE refuses to relocate one as the other, but it is the first
	 * word of a folio (and of the page it overlays) on every kernel */
	bpf_probe_read_kernel(&flags, sizeof(flags), folio);
	if (!(flags & (1UL << bpf_core_enum_value(enum pageflags, PG_head))))
		return 0;
	if (!bpf_core_field_exists(folio->_flags_1))
		return 0;
	flags1 = BPF_CORE_READ(folio, _flags_1);
	return flags1 & 0xff;
}

static __always_inline int folio_add(struct folio *folio, const int direct)
{
	struct address_space *mapping = RD(direct, folio, mapping);
	struct ino_info ii;

	inode_info(RD(direct, mapping, host), direct, &ii);
	return on_add(ii.dev, ii.ino, folio_order_of(folio));
}

static __always_inline int inode_ra(struct inode *inode, int async,
				    const int direct)
{
	struct ino_info ii;

	inode_info(inode, direct, &ii);
	return on_ra(ii.dev, ii.ino, async);
}

static __always_inline int inode_ra_order(struct inode *inode, unsigned long index,
					  struct file_ra_state *ra, const int direct)
{
	struct ino_info ii;

	inode_info(inode, direct, &ii);
	return on_ra_order(ii.dev, ii.ino, index, RD(direct, ra, size), ii.isize);
}

static __always_inline int inode_ra_unbounded(struct inode *inode,
					      unsigned long index, unsigned long nr,
					      const int direct)
{
	struct ino_info ii;

	inode_info(inode, direct, &ii);
	return on_ra_unbounded(ii.dev, ii.ino, index, nr);
}

/* One program per event and family; the bodies above do the work. */
#define PC_TYPED(fam, sec, d)                                                  \
SEC(sec "/mm_filemap_get_pages")                                             \
int BPF_PROG(fam##_get_pages, struct address_space *m, unsigned long i,      \
	     unsigned long l)                                                \
{ return map_get_pages(m, i, l, d); }                                        \
SEC(sec "/mm_filemap_map_pages")                                             \
int BPF_PROG(fam##_map_pages, struct address_space *m, unsigned long i,      \
	     unsigned long l)                                                \
{ return map_map_pages(m, i, l, d); }                                        \
SEC(sec "/mm_filemap_fault")                                                 \
int BPF_PROG(fam##_fault, struct address_space *m, unsigned long i)          \
{ return map_fault(m, d); }                                                  \
SEC(sec "/mm_filemap_add_to_page_cache")                                     \
int BPF_PROG(fam##_add, struct folio *f)                                     \
{ return folio_add(f, d); }                                                  \
SEC(sec "/page_cache_sync_ra")                                               \
int BPF_PROG(fam##_sync_ra, struct inode *n, unsigned long i,                \
	     struct file_ra_state *ra, unsigned long req)                    \
{ return inode_ra(n, 0, d); }                                                \
SEC(sec "/page_cache_async_ra")                                              \
int BPF_PROG(fam##_async_ra, struct inode *n, unsigned long i,               \
	     struct file_ra_state *ra, unsigned long req)                    \
{ return inode_ra(n, 1, d); }                                                \
SEC(sec "/page_cache_ra_order")                                              \
int BPF_PROG(fam##_ra_order, struct inode *n, unsigned long i,               \
	     struct file_ra_state *ra)                                       \
{ return inode_ra_order(n, i, ra, d); }                                      \
SEC(sec "/page_cache_ra_unbounded")                                          \
int BPF_PROG(fam##_ra_unbounded, struct inode *n, unsigned long i,           \
	     unsigned long nr, unsigned long la)                             \
{ return inode_ra_unbounded(n, i, nr, d); }                                  \
SEC(sec "/sched_process_fork")                                               \
int BPF_PROG(fam##_fork, struct task_struct *parent, struct task_struct *c)  \
{ return on_fork(RD(d, c, pid)); }

PC_TYPED(btf, "tp_btf", 1)
PC_TYPED(raw, "raw_tp", 0)

/* Before folios (5.16) mm_filemap_add_to_page_cache passed a page. */
static __always_inline int page_add(struct page *page, const int direct)
{
	struct address_space *mapping = RD(direct, page, mapping);
	struct ino_info ii;

	inode_info(RD(direct, mapping, host), direct, &ii);
	return on_add(ii.dev, ii.ino, 0);
}

SEC("tp_btf/mm_filemap_add_to_page_cache")
int BPF_PROG(btf_add_page, struct page *p)
{
	return page_add(p, 1);
}

SEC("raw_tp/mm_filemap_add_to_page_cache")
int BPF_PROG(raw_add_page, struct page *p)
{
	return page_add(p, 0);
}

/* ---- kernel functions (fentry, kprobe) ---------------------------------- */

/*
 * A buffered read call as mm_filemap_get_pages reports its first batch:
 * pages ki_pos >> shift .. (ki_pos + count - 1) >> shift.  The loader
 * points the programs at filemap_read (5.12 on) or
 * generic_file_buffered_read (before): both take (iocb, iter, ...).
 */
static __always_inline int kiocb_read(struct kiocb *iocb, struct iov_iter *iter,
				      const int direct)
{
	struct file *file = RD(direct, iocb, ki_filp);
	struct address_space *mapping = RD(direct, file, f_mapping);
	__s64 pos = RD(direct, iocb, ki_pos);
	__u64 count = BPF_CORE_READ(iter, count);
	struct ino_info ii;

	if (!count || pos < 0)
		return 0;
	inode_info(RD(direct, mapping, host), direct, &ii);
	return on_get_pages(ii.dev, ii.ino, (__u64)pos >> page_shift,
			    ((__u64)pos + count - 1) >> page_shift, ii.isize);
}

/* filemap_add_folio(mapping, folio, index, gfp) and, before folios,
 * add_to_page_cache_lru(page, mapping, index, gfp): the mapping is an
 * argument; the order is the folio's (a page: 0). */
static __always_inline int mapping_add(struct address_space *mapping,
				       struct folio *folio, const int direct)
{
	struct ino_info ii;

	inode_info(RD(direct, mapping, host), direct, &ii);
	return on_add(ii.dev, ii.ino, folio ? folio_order_of(folio) : 0);
}

/* page_cache_sync_ra / page_cache_async_ra (ractl, ...) */
static __always_inline int ractl_ra(struct readahead_control *ractl, int async,
				    const int direct)
{
	struct address_space *mapping = RD(direct, ractl, mapping);

	return inode_ra(RD(direct, mapping, host), async, direct);
}

/* page_cache_ra_unbounded(ractl, nr_to_read, lookahead): the window is
 * clamped to the file's end by its callers. */
static __always_inline int ractl_unbounded(struct readahead_control *ractl,
					   unsigned long nr, const int direct)
{
	struct address_space *mapping = RD(direct, ractl, mapping);

	return inode_ra_unbounded(RD(direct, mapping, host),
				  RD(direct, ractl, _index), nr, direct);
}

/* filemap_map_pages(vmf, start_pgoff, end_pgoff), filemap_fault(vmf) */
static __always_inline struct address_space *vmf_mapping(struct vm_fault *vmf,
							 const int direct)
{
	struct vm_area_struct *vma = RD(direct, vmf, vma);
	struct file *file = RD(direct, vma, vm_file);

	return RD(direct, file, f_mapping);
}

/* page_cache_ra_order(ractl, ra, ...) */
static __always_inline int ractl_ra_order(struct readahead_control *ractl,
					  struct file_ra_state *ra, const int direct)
{
	struct address_space *mapping = RD(direct, ractl, mapping);

	return inode_ra_order(RD(direct, mapping, host), RD(direct, ractl, _index),
			      ra, direct);
}

/* Kernel function FN's two programs, fe_NAME (fentry: plain loads) and
 * kp_NAME (kprobe: probe reads), of the same arguments: each returns
 * CALL with `direct` 1 or 0. */
#define FN_PROGS(NAME, FN, CALL, ...)                                         \
SEC("fentry/" #FN)                                                            \
int BPF_PROG(fe_##NAME, __VA_ARGS__) { const int direct = 1; return CALL; }  \
SEC("kprobe/" #FN)                                                            \
int BPF_KPROBE(kp_##NAME, __VA_ARGS__) { const int direct = 0; return CALL; }

FN_PROGS(map_pages, filemap_map_pages, map_map_pages(vmf_mapping(vmf, direct), start, end, direct),
	 struct vm_fault *vmf, unsigned long start, unsigned long end)
FN_PROGS(fault, filemap_fault, map_fault(vmf_mapping(vmf, direct), direct),
	 struct vm_fault *vmf)
FN_PROGS(ra_order, page_cache_ra_order, ractl_ra_order(ractl, ra, direct),
	 struct readahead_control *ractl, struct file_ra_state *ra)
FN_PROGS(read, filemap_read, kiocb_read(iocb, iter, direct),
	 struct kiocb *iocb, struct iov_iter *iter)
FN_PROGS(add_folio, filemap_add_folio, mapping_add(mapping, folio, direct),
	 struct address_space *mapping, struct folio *folio)
FN_PROGS(add_page, add_to_page_cache_lru, mapping_add(mapping, 0, direct),
	 struct page *page, struct address_space *mapping)
FN_PROGS(sync_ra, page_cache_sync_ra, ractl_ra(ractl, 0, direct),
	 struct readahead_control *ractl)
FN_PROGS(async_ra, page_cache_async_ra, ractl_ra(ractl, 1, direct),
	 struct readahead_control *ractl)
FN_PROGS(ra_unbounded, page_cache_ra_unbounded, ractl_unbounded(ractl, nr, direct),
	 struct readahead_control *ractl, unsigned long nr)

/* ---- classic tracepoints ------------------------------------------------ */

SEC("tracepoint/filemap/mm_filemap_get_pages")
int tp_get_pages(struct trace_event_raw_mm_filemap_op_page_cache_range *ctx)
{
	return on_get_pages(ctx->s_dev, ctx->i_ino, ctx->index, ctx->last_index, -1);
}

SEC("tracepoint/filemap/mm_filemap_map_pages")
int tp_map_pages(struct trace_event_raw_mm_filemap_op_page_cache_range *ctx)
{
	return on_map_pages(ctx->s_dev, ctx->i_ino, ctx->index, ctx->last_index, -1);
}

SEC("tracepoint/filemap/mm_filemap_fault")
int tp_fault(struct trace_event_raw_mm_filemap_fault *ctx)
{
	return on_fault(ctx->s_dev, ctx->i_ino);
}

SEC("tracepoint/filemap/mm_filemap_add_to_page_cache")
int tp_add(struct trace_event_raw_mm_filemap_op_page_cache *ctx)
{
	/* the record has no order before folios (5.16): one page each */
	return on_add(ctx->s_dev, ctx->i_ino,
		      bpf_core_field_exists(ctx->order) ? ctx->order : 0);
}

SEC("tracepoint/readahead/page_cache_sync_ra")
int tp_sync_ra(struct trace_event_raw_page_cache_ra_op *ctx)
{
	return on_ra(ctx->s_dev, ctx->i_ino, 0);
}

SEC("tracepoint/readahead/page_cache_async_ra")
int tp_async_ra(struct trace_event_raw_page_cache_ra_op *ctx)
{
	return on_ra(ctx->s_dev, ctx->i_ino, 1);
}

SEC("tracepoint/readahead/page_cache_ra_order")
int tp_ra_order(struct trace_event_raw_page_cache_ra_order *ctx)
{
	return on_ra_order(ctx->s_dev, ctx->i_ino, ctx->index, ctx->size, -1);
}

SEC("tracepoint/readahead/page_cache_ra_unbounded")
int tp_ra_unbounded(struct trace_event_raw_page_cache_ra_unbounded *ctx)
{
	return on_ra_unbounded(ctx->s_dev, ctx->i_ino, ctx->index, ctx->nr_to_read);
}

SEC("tracepoint/sched/sched_process_fork")
int tp_fork(struct trace_event_raw_sched_process_fork *ctx)
{
	return on_fork(ctx->child_pid);
}

char LICENSE[] SEC("license") = "Dual MIT/GPL";
