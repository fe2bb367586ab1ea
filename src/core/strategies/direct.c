// SPDX-License-Identifier: MIT
/*
 * direct: O_DIRECT reads and writes in aligned chunks, bypassing the page
 * cache on both sides.
 *
 * Alignment comes from statx(STATX_DIOALIGN) of the first input file when
 * the kernel reports it, else the logical block size of the disks under
 * the input and output directories (4096 when neither is known).  One
 * alignment serves the whole job: the chunk (--bufsize or --chunk, default
 * 1 MiB) is rounded up to a multiple of it and each thread's buffer comes
 * from posix_memalign.  Every file is checked against it (statx of both
 * ends), so a file that needs more fails clearly instead of with EINVAL.
 *
 * The tail: a read at EOF returns the short remainder (O_DIRECT reads
 * only need an aligned offset and length, the kernel stops at i_size).
 * The unaligned tail is WRITTEN as a zero-padded full block, then the file
 * is ftruncate()d to its true size.  We chose this over clearing O_DIRECT
 * with fcntl for the tail so that every data write of the file stays
 * direct: the measurement is of one kind of I/O, and the truncate is a
 * metadata update.
 *
 * No fallback: a filesystem that refuses O_DIRECT (ramfs answers EINVAL)
 * or only pretends to do it (tmpfs on recent kernels accepts O_DIRECT and
 * serves it from the page cache) is one clear error that names it and
 * suggests another strategy.  A benchmark that quietly measured buffered
 * I/O under the name "direct" would be lying.
 *
 * --qd 2 double-buffers: a reader thread per worker reads chunk k+1 while
 * the worker transforms and writes chunk k (direct_pipe.c).
 *
 * A record transform (any --transform but the XOR) changes the output's
 * size, so the output is no longer the input chunk written back: the
 * chunks read are fed in order to a byte stream of records whose outputs
 * fill an aligned staging buffer, written O_DIRECT a chunk at a time; the
 * last block goes out padded and the file is truncated to its length, as
 * the XOR's tail (direct_stage.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lib/blockdev.h"
#include "core/outfile.h"
#include "core/per_file.h"
#include "core/transform.h"
#include "lib/util.h"
#include "direct.h"

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif
#ifndef RAMFS_MAGIC
#define RAMFS_MAGIC 0x858458f6
#endif

#define DIRECT_DEFAULT_CHUNK ((size_t)1 << 20)
#define DIRECT_FALLBACK_ALIGN 4096
#define DIRECT_MIN_MEM_ALIGN 4096

static void fs_name(const char *path, char *buf, size_t len)
{
	struct blockdev_info bi;

	memset(&bi, 0, sizeof(bi));
	if (blockdev_of_path(path, &bi) || !bi.fs[0])
		snprintf(buf, len, "this filesystem");
	else
		snprintf(buf, len, "%s", bi.fs);
}

int direct_refuse(struct run_stats *st, const char *path, const char *why)
{
	char fs[64];

	fs_name(path, fs, sizeof(fs));
	return stats_failf(st, -EINVAL, path,
			   "%s does not do direct I/O (%s); use --strategy "
			   "buffer, stream or mmap here, or put the files on a "
			   "disk filesystem", fs, why);
}

/* tmpfs accepts O_DIRECT on new kernels but it is the page cache either
 * way; ramfs refuses at open, and naming it up front is clearer. */
int direct_check_fs(const char *dir, struct run_stats *st)
{
	struct statfs sf;

	if (statfs(dir, &sf) < 0)
		return stats_fail(st, -errno, dir, "statfs");
	if (sf.f_type == TMPFS_MAGIC)
		return direct_refuse(st, dir, "its O_DIRECT is served from the page cache");
	if (sf.f_type == RAMFS_MAGIC)
		return direct_refuse(st, dir, "it refuses O_DIRECT");
	return 0;
}

int direct_check_where(const struct job *job, char *why, size_t len)
{
	char at[PATH_MAX];
	struct run_stats st;
	int ret;

	stats_init(&st);
	path_existing_dir(job->in_dir, at, sizeof(at)); /* a data set to make */
	ret = direct_check_fs(at, &st);
	if (!ret && job->sink != SINK_NULL) {
		path_existing_dir(job->out_dir, at, sizeof(at));
		ret = direct_check_fs(at, &st);
	}
	if (ret)
		snprintf(why, len, "%s", st.errmsg);
	stats_destroy(&st);
	return ret ? 1 : 0;
}

/* statx alignment of an open file: 0 if unknown, -EINVAL if the file
 * cannot do direct I/O at all (the kernel reports offset alignment 0). */
static long statx_align(int fd)
{
	struct statx sx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) < 0 ||
	    !(sx.stx_mask & STATX_DIOALIGN))
		return 0;
	if (!sx.stx_dio_offset_align)
		return -EINVAL;
	return (long)MAX(sx.stx_dio_offset_align, sx.stx_dio_mem_align);
}

static size_t lbs_of(const char *path)
{
	struct blockdev_info bi;
	char v[32];
	uint64_t n;

	memset(&bi, 0, sizeof(bi));
	if (blockdev_of_path(path, &bi) || !bi.disk[0] ||
	    blockdev_queue_attr(bi.disk, "logical_block_size", v, sizeof(v)) ||
	    parse_u64(v, &n) || !n)
		return 0;
	return (size_t)n;
}

/* The job's alignment, before any thread starts. */
static int probe_align(const struct job *job, struct run_stats *st,
		       struct direct_conf *dc)
{
	size_t lin = lbs_of(job->in_dir);
	size_t lout = job->sink == SINK_NULL ? 0 : lbs_of(job->out_dir);
	long sa = 0;

	dc->align_source = "logical_block_size";
	dc->align = MAX(lin, lout);
	if (job->nfiles) {
		char p[PATH_MAX];
		int fd;

		job_in_path(job, 0, p, sizeof(p));
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			int err = -errno;

			stats_fail(st, err, p, "open");
			return err;
		}
		sa = statx_align(fd);
		close(fd);
		if (sa < 0) {
			direct_refuse(st, p, "statx reports no direct I/O for this file");
			return -EINVAL;
		}
	}
	if (sa > 0) {
		/* statx speaks for the input file; the output disk still counts */
		dc->align = MAX((size_t)sa, lout);
		dc->align_source = "statx";
	}
	if (!dc->align) {
		dc->align = DIRECT_FALLBACK_ALIGN;
		dc->align_source = "default";
	}
	if (dc->align & (dc->align - 1)) {
		stats_failf(st, -EINVAL, job->in_dir,
			    "direct I/O alignment %zu is not a power of two", dc->align);
		return -EINVAL;
	}
	return 0;
}

static int direct_conf(const struct job *job, struct run_stats *st,
		       struct direct_conf *dc)
{
	size_t want = job->bufsize ? job->bufsize :
		      job->chunk ? job->chunk : DIRECT_DEFAULT_CHUNK;
	int ret;

	memset(dc, 0, sizeof(*dc));
	if ((ret = direct_check_fs(job->in_dir, st)))
		return ret;
	if (job->sink != SINK_NULL && (ret = direct_check_fs(job->out_dir, st)))
		return ret;
	if ((ret = probe_align(job, st, dc)))
		return ret;
	if (!dc->align)
		return -EINVAL; /* cannot happen; keeps the analyzer sure */
	dc->chunk = (want + dc->align - 1) / dc->align * dc->align;
	dc->mem_align = MAX(dc->align, (size_t)DIRECT_MIN_MEM_ALIGN);
	dc->qd = job->qd ? job->qd : 1;
	if (dc->qd > 2)
		dc->qd = 2; /* more buffers did not pay: one read ahead is enough */
	return 0;
}

/* Per-file check that our alignment satisfies what this file needs. */
int direct_check_file(int fd, const char *path, const struct direct_conf *dc,
		      struct run_stats *st)
{
	long a = statx_align(fd);

	if (a < 0)
		return direct_refuse(st, path, "statx reports no direct I/O for this file");
	if (a > 0 && dc->align % (size_t)a)
		return stats_failf(st, -EINVAL, path,
				   "needs direct I/O alignment %ld, the job probed %zu "
				   "(files on different devices?)", a, dc->align);
	return 0;
}

static int direct_open_in(const char *path, const struct direct_conf *dc,
		   struct run_stats *st, int *fdp)
{
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC), ret;

	if (fd < 0 && errno == EINVAL)
		return direct_refuse(st, path, "open with O_DIRECT: Invalid argument");
	if (fd < 0)
		return stats_fail(st, -errno, path, "open");
	ret = direct_check_file(fd, path, dc, st);
	if (ret) {
		close(fd);
		return ret;
	}
	*fdp = fd;
	return 0;
}

static int direct_open_out(const struct job *job, size_t idx,
		    const struct direct_conf *dc, struct run_stats *st,
		    struct outfile *of)
{
	int ret = out_open(job, idx, O_DIRECT, of);

	if (ret == -EINVAL) {
		unlink(of->tmp);
		return direct_refuse(st, job->out_dir,
				     "open with O_DIRECT: Invalid argument");
	}
	if (ret)
		return stats_fail(st, ret, of->tmp, "create");
	ret = direct_check_file(of->fd, of->tmp, dc, st);
	if (ret)
		out_abort(of);
	return ret;
}

/* pread that retries EINTR; a short count means EOF (or an aligned hole
 * the next call fills). */
ssize_t direct_read(int fd, void *buf, size_t len, off_t off)
{
	for (;;) {
		ssize_t n = pread(fd, buf, len, off);

		if (n >= 0 || errno != EINTR)
			return n < 0 ? -errno : n;
	}
}

/*
 * Write n bytes of buf (aligned, room for the padding) at off.  An
 * unaligned n is the file's tail: zero-pad to the alignment, write the
 * full block, truncate to the true size.  *tail tells the caller the file
 * cannot continue (the next offset would be unaligned).
 */
int direct_write(int fd, uint8_t *buf, size_t n, off_t off,
		 const struct direct_conf *dc, bool *tail)
{
	size_t padded = (n + dc->align - 1) / dc->align * dc->align;
	int ret;

	*tail = padded != n;
	if (*tail)
		memset(buf + n, 0, padded - n);
	ret = pwrite_full(fd, buf, padded, off);
	if (ret)
		return ret;
	if (*tail && ftruncate(fd, off + (off_t)n) < 0)
		return -errno;
	return 0;
}

/* ---- qd 1: read, transform, write, one chunk at a time -------------- */

struct direct_ctx {
	const struct direct_conf *dc;
	uint8_t *buf;
	struct direct_stage stage; /* a record transform's output */
};

int direct_took(struct run_stats *st, ssize_t n, const char *inpath)
{
	if (n < 0)
		return stats_fail(st, (int)n, inpath, "read (O_DIRECT)");
	if (n > 0)
		stats_add_in(st, (uint64_t)n);
	return n == 0;
}

int direct_xor_out(const struct job *job, uint8_t *buf, size_t n, int out, off_t off,
		   const struct direct_conf *dc, uint64_t *col, struct run_stats *st,
		   const char *outpath)
{
	bool tail;
	int ret;

	transform_chunk(buf, n, job->work, col);
	if (out < 0)
		return 0;
	ret = direct_write(out, buf, n, off, dc, &tail);
	if (ret)
		return stats_fail(st, ret, outpath, "write (O_DIRECT)");
	stats_add_out(st, (uint64_t)n);
	return 0;
}

static int copy_loop(const struct job *job, int in, int out,
		     struct direct_ctx *c, struct run_stats *st,
		     const char *inpath, const char *outpath)
{
	uint64_t col = 0;
	off_t off = 0;

	for (;;) {
		ssize_t n = direct_read(in, c->buf, c->dc->chunk, off);
		int ret = direct_took(st, n, inpath);

		if (!ret)
			ret = direct_xor_out(job, c->buf, (size_t)n, out, off, c->dc, &col, st,
					     outpath);
		if (ret)
			return ret < 0 ? ret : 0;
		if ((size_t)n % c->dc->align) /* the tail */
			return 0;
		off += n;
	}
}

int direct_file_io(const struct job *job, size_t idx,
		   const struct direct_conf *dc, struct run_stats *st,
		   direct_loop_fn loop, void *ctx)
{
	char in[PATH_MAX];
	struct outfile of = { .fd = -1 };
	int fd = -1, ret;

	job_in_path(job, idx, in, sizeof(in));
	ret = direct_open_in(in, dc, st, &fd);
	if (ret)
		return ret;
	if (job->sink != SINK_NULL) {
		ret = direct_open_out(job, idx, dc, st, &of);
		if (ret) {
			close(fd);
			return ret;
		}
	}
	ret = loop(job, fd, of.fd, ctx, st, in, of.path);
	close(fd);
	return out_finish(job, &of, ret, st);
}

/* A record transform: read chunks fed in order to the staging output. */
static int records_loop(const struct job *job, int in, int out,
			struct direct_ctx *c, struct run_stats *st,
			const char *inpath, const char *outpath)
{
	off_t off = 0;

	direct_stage_begin(&c->stage, out);
	for (;;) {
		ssize_t n = direct_read(in, c->buf, c->dc->chunk, off);
		int ret;

		if (n < 0)
			return stats_fail(st, (int)n, inpath, "read (O_DIRECT)");
		if (n == 0)
			break;
		stats_add_in(st, (uint64_t)n);
		ret = direct_stage_feed(job, &c->stage, c->buf, (size_t)n, st, inpath, outpath);
		if (ret)
			return ret;
		if ((size_t)n % c->dc->align)
			break; /* the file's tail */
		off += n;
	}
	return direct_stage_end(job, &c->stage, st, inpath, outpath);
}

static int loop_qd1(const struct job *job, int in, int out, void *ctx,
		    struct run_stats *st, const char *inpath, const char *outpath)
{
	struct direct_ctx *c = ctx;

	if (c->stage.xs.w.x)
		return records_loop(job, in, out, c, st, inpath, outpath);
	return copy_loop(job, in, out, c, st, inpath, outpath);
}

static int direct_file(const struct job *job, size_t idx, void *ctx,
		       struct run_stats *st)
{
	struct direct_ctx *c = ctx;

	return direct_file_io(job, idx, c->dc, st, loop_qd1, c);
}

static const struct direct_conf *run_conf; /* set before threads start */

static int direct_init(const struct job *job, struct run_stats *st, void **ctx)
{
	struct direct_ctx *c = calloc(1, sizeof(*c));
	void *p = NULL;

	(void)st;
	if (!c)
		return -ENOMEM;
	*ctx = c;
	c->dc = run_conf;
	if (posix_memalign(&p, c->dc->mem_align, c->dc->chunk))
		return -ENOMEM;
	c->buf = p;
	return job_xform_in_place(job) ? 0 : direct_stage_open(&c->stage, job, c->dc);
}

static void direct_fini(void *ctx)
{
	struct direct_ctx *c = ctx;

	if (!c)
		return;
	direct_stage_close(&c->stage);
	free(c->buf);
	free(c);
}

static const struct per_file_ops direct_ops = PER_FILE_OPS(direct);

static int direct_run(const struct job *job, struct run_stats *st)
{
	static struct direct_conf dc;
	int ret = direct_conf(job, st, &dc);

	if (ret)
		return ret;
	stats_set_int(st, "dio_align", (long long)dc.align);
	stats_set_str(st, "dio_align_source", dc.align_source);
	stats_set_int(st, "chunk_bytes", (long long)dc.chunk);
	stats_set_int(st, "qd_used", dc.qd);
	stats_set_str(st, "tail_write", "padded+ftruncate");
	run_conf = &dc;
	if (dc.qd >= 2)
		return per_file_run(job, st, &direct_pipe_ops);
	return per_file_run(job, st, &direct_ops);
}

const struct direct_conf *direct_run_conf(void)
{
	return run_conf;
}

/* The columns it adds to a row (results/row.h). */
static const struct column direct_columns[] = {
	{ "dio_align", COL_SIZE, 0, "bytes", "core", "the O_DIRECT alignment used", 0 },
	{ "dio_align_source", COL_TEXT, 0, 0, "core", "where the alignment came from (statx, sysfs, default)", 0 },
	{ "chunk_bytes", COL_SIZE, 0, "bytes", "core", "the I/O size used", 0 },
	{ "qd_used", COL_COUNT, 0, 0, "core", "the queue depth used", 0 },
	{ "tail_write", COL_TEXT, 0, 0, "core", "how the unaligned tail is written", 0 },
	{ 0 },
};

const struct strategy strategy_direct = {
	STRATEGY(direct),
	.summary = "O_DIRECT reads and writes in aligned chunks (--bufsize, default 1 MiB; --qd 2 reads ahead)",
	.default_io = DIRECT_DEFAULT_CHUNK,
	.flags = STRAT_DIRECT | STRAT_ALWAYS_DIRECT | STRAT_BUFSIZE | STRAT_CHUNK | STRAT_QD |
		 STRAT_RECORDS,
	.check_where = direct_check_where,
	.columns = direct_columns,
};
