// SPDX-License-Identifier: MIT
/*
 * uring: one reader thread keeps large reads in flight with io_uring and
 * feeds worker threads; the transformed chunks go back out through the
 * same ring.
 *
 * Design
 *   - The calling thread is the reader.  It alone owns the ring
 *     (IORING_SETUP_SINGLE_ISSUER + DEFER_TASKRUN where the kernel has
 *     them, falling back flag by flag on -EINVAL) and everything else
 *     except the work queue; it sleeps in one place, io_uring_enter.
 *   - One pool of qd + workers buffers of --chunk bytes, mmap'd (page
 *     aligned for O_DIRECT) and registered (read_fixed/write_fixed); if
 *     pinning is refused (RLIMIT_MEMLOCK) plain read/write is used.
 *     Memory is the pool, whatever the file sizes; its size is in the
 *     result row (pool_bytes).
 *   - Files are read one at a time, in list order, chunk by chunk at
 *     offsets 0, chunk, 2 chunk...: the device sees one sequential stream.
 *     At most --qd reads are in flight and a read needs a free buffer, so
 *     slow workers or slow writes stop the reader (back-pressure).
 *   - Reads may complete out of order; they sit in a FIFO in issue order
 *     and leave it from the head only, so the reader knows each chunk's
 *     starting column (transform_col_after() of the previous chunk of the
 *     same file) before a worker sees it: lines split across chunks, and
 *     lines longer than a chunk, come out right.
 *   - Workers (--threads of them) take chunks from a mutex/condvar queue,
 *     transform them in place, put them on a done list and wake the reader
 *     with an eventfd that the reader keeps a read posted on.  The queue
 *     holds pool buffers, so it is bounded by the pool.  A chunk is handed
 *     on as soon as it is in order: a slow disk starves no worker longer
 *     than the read it waits for.
 *   - Writes go to the same offsets in the output (the transform keeps
 *     lengths), so they may complete in any order.  When every chunk of a
 *     file is written: --direct trims the block-rounded tail (ftruncate),
 *     --fsync file fsyncs through the ring, then out_commit() renames.
 *   - Any other record transform (STRAT_RECORDS; the XOR above keeps its
 *     path, in place, exactly): at in-order dispatch the reader knows
 *     the file's record carried from its previous chunk.  It hands the
 *     worker a head -- the carried record completed by the chunk's bytes
 *     up to its first record end -- and the body, the whole records after
 *     it (xform_whole); the tail after the last record end is the next
 *     carry.  A chunk with no record end only grows the carry (at most
 *     IOSTRAT_RECORD_MAX + 1 bytes, -E2BIG beyond); the file's last
 *     chunk hands over everything left (records.c).  Each worker thread
 *     has its own transform state and runs head then body (xform_run)
 *     into the chunk's output buffer, grown to xform_out_bound and kept
 *     for the chunk's next use.  Outputs complete out of order: an
 *     output FIFO in input order gives each chunk, once it and every
 *     earlier chunk is back, the file's next output offset (the sum of
 *     the earlier outputs), and its write goes there -- so writes still
 *     complete in any order and the file ends at the sum of its outputs.
 *     Memory: the pool, plus one output buffer per pool buffer (each the
 *     bound of the largest output it held: 2 x chunk for hex; the row's
 *     out_bytes), plus the carried records (one per file being read, the
 *     heads of the chunks in flight: each at most one record).  --direct
 *     is refused with a record transform (check): the outputs land at
 *     unaligned offsets, which O_DIRECT cannot write.  A transform's
 *     error (its -errno, -E2BIG) is the run's first error, named
 *     "transform NAME" with the input file.
 *   - Every op carries its chunk or file in user_data (kind in the low
 *     bits).  Short reads and writes are continued from where they ended,
 *     -EAGAIN/-EINTR resubmitted, a read returning 0 is EOF; a file is read
 *     up to the size fstat() gave at open.  The first error is recorded
 *     with the file name (stats_fail); then nothing new starts, every op in
 *     flight is waited for, and the outputs are aborted.
 *   - Files with at least 4 chunks are registered in a sparse file table
 *     (one register call each way pays off only over several ops).
 *   - --sink null reads and transforms but opens no output.  --direct
 *     opens inputs and outputs O_DIRECT and needs --chunk to be a multiple
 *     of 4096.
 *   - --sqpoll: the ring is made with IORING_SETUP_SQPOLL (and
 *     SINGLE_ISSUER where taken; the TASKRUN flags do not go with it), its
 *     thread idling --sq_thread_idle ms; a kernel or a policy that refuses
 *     it is one error, never a silent fallback.  --dontcache: every read
 *     and write carries RWF_DONTCACHE in its rw_flags.
 *   - No io_uring (kernel.io_uring_disabled, seccomp, old kernel): one
 *     error naming the reason.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/settings.h"
#include "lib/util.h"
#include "core/strategies/direct.h"
#include "uring.h"

static const struct setting uring_settings[] = {
	{ .name = "sqpoll", SETTING_BOOL(struct uring_opts, sqpoll),
	  .def = "0", .where = SET_BOTH, .column = "sqpoll", .id = "sqpoll",
	  .flags = SETF_ID_OPTIONAL,
	  .help = "IORING_SETUP_SQPOLL: a kernel thread polls the submission\n"
		  "queue (fewer system calls, one more busy CPU)" },
	{ .name = "sq_thread_idle", SETTING_UINT(struct uring_opts, sq_idle_ms),
	  .min = 1, .max = 60000,
	  .def = "1000", .metavar = "MS", .where = SET_BOTH, .column = "sq_thread_idle",
	  .id = "sq_thread_idle=%s", .flags = SETF_ID_OPTIONAL,
	  .help = "with --sqpoll: ms the polling thread spins idle before it\n"
		  "sleeps (1..60000, default 1000)" },
	{ 0 },
};

/* MemAvailable of /proc/meminfo in bytes, or 0 if unknown. */
static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb * 1024;
}

/*
 * The pool is (qd + threads) x chunk.  A chunk larger than the largest
 * file is never filled: it is cut to that file's size (rounded up to the
 * direct alignment), so --chunk 1G on a 420-byte file maps 4 KiB buffers,
 * not gigabytes.  What remains may take at most half the available
 * memory; beyond that, one clear refusal instead of swapping the machine.
 */
static int bound_pool(struct uctx *c)
{
	uint64_t biggest = 1, avail = mem_available(), pool;

	for (size_t i = 0; c->job->sizes && i < c->job->nfiles; i++)
		biggest = MAX(biggest, c->job->sizes[i]);
	biggest = (biggest + URING_DIRECT_ALIGN - 1) / URING_DIRECT_ALIGN *
		  URING_DIRECT_ALIGN;
	if (c->chunk > biggest)
		c->chunk = (size_t)biggest;
	pool = (uint64_t)c->nbuf * c->chunk;
	if (avail && pool > avail / 2)
		return stats_failf(c->st, -ENOMEM, "--chunk",
				   "buffer pool of (qd + threads) %u x %zu bytes = "
				   "%.1f MB: more than half the available memory "
				   "(%.1f MB); lower --chunk, --qd or --threads",
				   c->nbuf, c->chunk, (double)pool / 1e6,
				   (double)avail / 1e6);
	return 0;
}

/* The pool the settings ask: qd + threads buffers of chunk bytes
 * (strategy.pool_bytes); bound_pool may cut chunk to the largest file. */
static size_t uring_pool_bytes(const struct job *job)
{
	size_t chunk = job->chunk ? job->chunk : URING_DEFAULT_CHUNK;
	unsigned qd = job->qd ? job->qd : URING_DEFAULT_QD;

	return (size_t)(qd + (job->threads ? job->threads : 1)) * chunk;
}

/* strategy.check_where: with --direct, where direct may run. */
static int uring_check_where(const struct job *job, char *why, size_t len)
{
	return job->direct ? direct_check_where(job, why, len) : 0;
}

/* strategy.check: --sq-thread-idle is the polling thread's, so --sqpoll's;
 * --direct only with the XOR (outputs keep the inputs' aligned offsets). */
static int uring_check(const struct job *job, char *why, size_t len)
{
	const struct uring_opts *o = job->sopts;

	if (job->direct && !job_xform_in_place(job)) {
		snprintf(why, len, "--direct: not with transform %s (its outputs land "
			 "at unaligned offsets, which O_DIRECT cannot write); run "
			 "without --direct", job->xform->name);
		return 1;
	}
	if (!o || o->sqpoll || o->sq_idle_ms == URING_SQ_IDLE_DEFAULT)
		return 0;
	snprintf(why, len, "--sq-thread-idle: only with --sqpoll (it is the idle time "
		 "of the polling thread --sqpoll starts)");
	return 1;
}

static int check_job(struct uctx *c)
{
	const struct job *job = c->job;

	c->chunk = job->chunk ? job->chunk : URING_DEFAULT_CHUNK;
	c->qd = job->qd ? job->qd : URING_DEFAULT_QD;
	c->workers = job->threads ? job->threads : 1;
	c->nbuf = c->qd + c->workers;
	if (c->chunk > (1u << 30))
		return stats_failf(c->st, -EINVAL, "--chunk", "%zu bytes: at most 1 GiB",
				   c->chunk);
	if (job->direct && c->chunk % URING_DIRECT_ALIGN)
		return stats_failf(c->st, -EINVAL, "--chunk", "%zu is not a multiple "
				   "of %d, which --direct needs", c->chunk,
				   URING_DIRECT_ALIGN);
	if (c->nbuf > 16384)
		return stats_failf(c->st, -EINVAL, "--qd", "qd + threads = %u buffers: "
				   "at most 16384", c->nbuf);
	if (job->direct) { /* the very check -s direct makes */
		int ret = direct_check_fs(job->in_dir, c->st);

		if (!ret && job->sink != SINK_NULL)
			ret = direct_check_fs(job->out_dir, c->st);
		if (ret)
			return ret;
	}
	return bound_pool(c);
}

#define HUGE_SZ (2UL << 20)

/*
 * The pool, 2 MiB aligned and THP-advised: a 1 MiB read into 4 KiB pages
 * is 256 segments, more than a virtio disk takes in one request (254
 * here), so every read would be split in two; huge pages make it one
 * segment.  Where THP is off this changes nothing.
 */
static void *pool_map(size_t len, size_t *maplen)
{
	size_t full = (len + HUGE_SZ - 1) & ~(HUGE_SZ - 1);
	uint8_t *p = mmap(NULL, full + HUGE_SZ, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;
	size_t head;

	if (p == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)p + HUGE_SZ - 1) & ~(uintptr_t)(HUGE_SZ - 1);
	head = a - (uintptr_t)p;
	if (head)
		munmap(p, head);
	if (HUGE_SZ - head)
		munmap((uint8_t *)a + full, HUGE_SZ - head);
	madvise((void *)a, full, MADV_HUGEPAGE);
	*maplen = full;
	return (void *)a;
}

static int pool_alloc(struct uctx *c)
{
	c->pool_bytes = (size_t)c->nbuf * c->chunk; /* chunk cut to the files */
	c->pool = pool_map(c->pool_bytes, &c->pool_map);
	if (!c->pool)
		return stats_fail(c->st, -errno, "io_uring", "allocating the buffer pool");
	c->chunks = calloc(c->nbuf, sizeof(*c->chunks));
	if (!c->chunks)
		return stats_fail(c->st, -ENOMEM, "io_uring", "allocating the buffer pool");
	for (unsigned i = c->nbuf; i-- > 0;) {
		c->chunks[i].idx = i;
		c->chunks[i].buf = c->pool + (size_t)i * c->chunk;
		c->chunks[i].next = c->free;
		c->free = &c->chunks[i];
	}
	c->nfree = c->nbuf;
	return 0;
}

/* The record transforms' output buffers, at the largest each grew to. */
static size_t out_bytes(const struct uctx *c)
{
	size_t n = 0;

	for (unsigned i = 0; c->chunks && i < c->nbuf; i++)
		n += c->chunks[i].out_cap;
	return n;
}

static void free_outputs(struct uctx *c)
{
	for (unsigned i = 0; c->chunks && i < c->nbuf; i++)
		free(c->chunks[i].out);
}

static void record(struct uctx *c)
{
	struct run_stats *st = c->st;

	stats_set_int(st, "chunk_bytes", (long long)c->chunk);
	stats_set_int(st, "qd_used", c->qd);
	stats_set_int(st, "workers", c->workers);
	stats_set_int(st, "pool_bytes", (long long)c->pool_bytes);
	if (c->wq.xf)
		stats_set_int(st, "out_bytes", (long long)out_bytes(c));
	if (!c->ring_flags)
		return;
	stats_set_str(st, "ring_flags", c->ring_flags);
	stats_set_int(st, "fixed_buffers", c->fixed_bufs);
	stats_set_int(st, "fixed_files", c->fixed_files);
	stats_set_int(st, "uring_reads", (long long)c->n_reads);
	stats_set_int(st, "uring_writes", (long long)c->n_writes);
	stats_set_int(st, "uring_short", (long long)c->n_short);
	stats_set_int(st, "uring_eagain", (long long)c->n_eagain);
}

static int uring_run(const struct job *job, struct run_stats *st)
{
	struct uctx *c = calloc(1, sizeof(*c));
	double t0 = now_mono(), t1 = t0, t2 = t0;
	int ret;

	if (!c)
		return stats_fail(st, -ENOMEM, "io_uring", "setup");
	c->job = job;
	c->st = st;
	c->wq.efd = -1;
	ret = check_job(c);
	if (!ret)
		ret = pool_alloc(c);
	if (!ret)
		ret = uring_ring_init(c);
	if (!ret) {
		ret = uring_workers_start(c);
		if (ret)
			stats_fail(st, ret, "io_uring", "starting workers");
	}
	t1 = now_mono();
	if (!ret)
		ret = uring_pipeline(c);
	t2 = now_mono();
	uring_workers_stop(c);
	record(c);
	/* setup (pool, ring, registration, threads) and the pipeline itself,
	 * to tell fixed costs from I/O when comparing with fio */
	stats_set_real(st, "setup_s", t1 - t0);
	stats_set_real(st, "pipeline_s", t2 - t1);
	uring_ring_exit(c);
	if (c->pool)
		munmap(c->pool, c->pool_map);
	free_outputs(c);
	free(c->chunks);
	free(c);
	return ret ? ret : st->err;
}

/* The columns it adds to a row (results/row.h). */
static const struct column uring_columns[] = {
	{ "chunk_bytes", COL_SIZE, 0, "bytes", "core", "the I/O size used", 0 },
	{ "qd_used", COL_COUNT, 0, 0, "core", "the queue depth used", 0 },
	{ "workers", COL_COUNT, 0, 0, "core", "transform threads", 0 },
	{ "pool_bytes", COL_SIZE, 0, "bytes", "core", "the buffer pool's size", 0 },
	{ "out_bytes", COL_SIZE, 0, "bytes", "core", "a record transform's output buffers (one per pool buffer, each grown to the largest output it held)", 0 },
	{ "ring_flags", COL_TEXT, 0, 0, "core", "the ring's setup flags", 0 },
	{ "fixed_buffers", COL_COUNT, 0, 0, "core", "1 when the buffers are registered with the ring", 0 },
	{ "fixed_files", COL_COUNT, 0, 0, "core", "1 when the files are registered with the ring", 0 },
	{ "uring_reads", COL_COUNT, 0, 0, "core", "reads submitted", 0 },
	{ "uring_writes", COL_COUNT, 0, 0, "core", "writes submitted", 0 },
	{ "uring_short", COL_COUNT, 0, 0, "core", "short reads or writes resubmitted", 0 },
	{ "uring_eagain", COL_COUNT, 0, 0, "core", "-EAGAIN completions resubmitted", 0 },
	{ "setup_s", COL_TIME, 0, "s", "core", "pool, ring, registration and threads", 0 },
	{ "pipeline_s", COL_TIME, 0, "s", "core", "the pipeline itself", 0 },
	{ 0 },
};

const struct strategy strategy_uring = {
	STRATEGY(uring), STRATEGY_OPTS(uring),
	.summary = "one io_uring reader (--qd reads of --chunk) feeding --threads workers "
		   "(memory: (qd + threads) x chunk)",
	.default_io = URING_DEFAULT_CHUNK,
	.flags = STRAT_DIRECT | STRAT_DONTCACHE | STRAT_CHUNK | STRAT_QD | STRAT_RECORDS,
	.default_qd = URING_DEFAULT_QD,
	.pool_bytes = uring_pool_bytes,
	.check = uring_check,
	.check_where = uring_check_where,
	.columns = uring_columns,
};
