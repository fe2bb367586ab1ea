// SPDX-License-Identifier: MIT
/*
 * mmap: map each input read-only, advise the kernel (--madvise), and
 * transform into the output, either
 *   - write (default): copy a chunk of the mapping into a bounce buffer
 *     (--bufsize, default 256 KiB: it stays in L2 across the W passes),
 *     transform it there, write(2) it.  At W=0 the transform is the
 *     identity, so write(2) takes the bytes straight from the mapping;
 *   - --mmap-out: size the output with ftruncate, map it shared, copy each
 *     chunk from the input mapping into the output mapping and transform
 *     it in place; the kernel writes the dirty pages back (fsync in
 *     out_commit).
 * write is the default because it measured faster (README, "Strategies:
 * direct and mmap"): every page of a mapped output costs a write fault,
 * and write(2) fills the page cache without one.
 *
 * A record transform (any --transform but the XOR) writes: each chunk of
 * the mapping is copied into the bounce buffer under the SIGBUS guard and
 * fed to an xform_stream (a record crossing chunks carried), whose outputs
 * go through a write buffer of one chunk to write(2).  The transform never
 * reads the mapping itself: a SIGBUS inside its code (a plug-in's, with
 * its own state and allocations) could not be unwound safely.  Memory per
 * thread: the bounce and write buffers (a chunk each), the stream's output
 * buffer (the outputs of one chunk's records) and its carry (the longest
 * record crossing a chunk boundary, at most IOSTRAT_RECORD_MAX).
 * --mmap-out is refused with a record transform: the output is mapped at
 * the input's size before anything runs, and a record transform's output
 * size is known only once every record has run.
 *
 * Empty files are created without mapping anything (mmap of length 0 is
 * EINVAL).  A file that shrinks while mapped makes the next access to a
 * page past its new end raise SIGBUS: mmap_guard.c turns that into an
 * error for that file (the run fails with one clear line, no crash).  In
 * the W=0 write path the kernel itself touches the mapping and write(2)
 * fails with EFAULT instead; that is reported the same way.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/settings.h"
#include "core/outfile.h"
#include "core/per_file.h"
#include "core/transform.h"
#include "core/xform.h"
#include "lib/util.h"
#include "mmap_guard.h"

#define MMAP_DEFAULT_CHUNK ((size_t)256 << 10)

struct mmap_conf {
	int advice;        /* -1: none */
	const char *advice_name;
	bool map_out;
	size_t chunk;
};

/* A record transform's outputs on their way to write(2). */
struct mwriter {
	int fd;            /* -1: sink null (only counted) */
	uint8_t *buf;      /* mmap_conf.chunk bytes */
	size_t used;
	uint64_t total;    /* this file's output bytes */
	int werr;          /* the write error, kept apart from the transform's */
};

struct mmap_ctx {
	const struct mmap_conf *mc;
	uint8_t *bounce;   /* write mode only */
	struct mwriter w;  /* a record transform's */
	struct xform_stream xs; /* xs.w.x NULL: the XOR */
};

/* One file's state, so helpers stay short. */
struct mfile {
	const struct job *job;
	struct mmap_ctx *c;
	struct run_stats *st;
	const char *inpath;
	int in;
	const uint8_t *map;
	size_t size;
	uint64_t out_bytes; /* what the output holds once done */
	struct outfile of;
};

/* --madvise's values, in the order of advice_names */
static const int advices[] = { MADV_SEQUENTIAL, MADV_WILLNEED, MADV_HUGEPAGE, -1 };
static const char *const advice_names[] = { "sequential", "willneed",
					    "hugepage", "none", NULL };

/* What mmap's settings table fills (struct job .sopts). */
struct mmap_opts {
	int madvise;	/* index in advice_names */
	bool mmap_out;
};

/* A fault on the input mapping: the file shrank (the usual cause), or a
 * page-in failed (an I/O error reaches a mapping as SIGBUS too). */
static int shrunk(struct mfile *f, const char *how)
{
	struct stat sb;
	long long now = fstat(f->in, &sb) ? -1 : (long long)sb.st_size;

	if (now < 0 || (size_t)now >= f->size)
		return stats_failf(f->st, -EIO, f->inpath,
				   "%s: Input/output error (the file did not shrink: "
				   "a page-in failed)", how);
	return stats_failf(f->st, -EFAULT, f->inpath,
			   "file shrank while mapped (%zu bytes mapped, now %lld): "
			   "%s; the output of this file is incomplete and was removed",
			   f->size, now, how);
}

/* Mapped output: size it, map it, copy+transform chunk by chunk. */
static int to_mapped_out(struct mfile *f)
{
	const struct job *job = f->job;
	uint8_t *out;
	uint64_t col = 0;
	int ret = 0;

	if (ftruncate(f->of.fd, (off_t)f->size) < 0)
		return stats_fail(f->st, -errno, f->of.tmp, "ftruncate");
	out = mmap(NULL, f->size, PROT_READ | PROT_WRITE, MAP_SHARED, f->of.fd, 0);
	if (out == MAP_FAILED)
		return stats_fail(f->st, -errno, f->of.tmp, "mmap (output)");
	for (size_t off = 0; off < f->size && !ret; off += f->c->mc->chunk) {
		size_t n = MIN(f->c->mc->chunk, f->size - off);
		const void *fault = NULL;

		ret = guarded_copy_transform(out + off, f->map + off, n, job->work,
					     &col, &fault);
		if (ret && fault >= (const void *)out &&
		    fault < (const void *)(out + f->size))
			ret = stats_failf(f->st, -EIO, f->of.tmp,
					  "SIGBUS writing the mapped output (out of space?)");
		else if (ret)
			ret = shrunk(f, "SIGBUS reading the mapping");
	}
	munmap(out, f->size);
	return ret;
}

/* write(2) from the mapping (W=0) or from the bounce buffer. */
static int to_write(struct mfile *f)
{
	const struct job *job = f->job;
	uint64_t col = 0;

	for (size_t off = 0; off < f->size; off += f->c->mc->chunk) {
		size_t n = MIN(f->c->mc->chunk, f->size - off);
		const uint8_t *src = f->map + off;
		int ret;

		if (job->work) {
			const void *fault = NULL;

			if (guarded_copy_transform(f->c->bounce, src, n, job->work,
						   &col, &fault))
				return shrunk(f, "SIGBUS reading the mapping");
			src = f->c->bounce;
		}
		if (f->of.fd < 0)
			continue; /* sink null */
		ret = write_full(f->of.fd, src, n);
		if (ret == -EFAULT && src != f->c->bounce)
			return shrunk(f, "write(2) from the mapping failed with EFAULT");
		if (ret)
			return stats_fail(f->st, ret, f->of.path, "write");
	}
	return 0;
}

static int mwriter_flush(struct mwriter *w)
{
	int ret = 0;

	if (w->fd >= 0 && w->used)
		ret = write_full(w->fd, w->buf, w->used);
	w->used = 0;
	return ret;
}

/* xform_stream's sink: outputs buffered, a chunk written as it fills. */
static int mwriter_sink(void *ctx, const uint8_t *p, size_t n)
{
	struct mmap_ctx *c = ctx;
	struct mwriter *w = &c->w;

	while (n) {
		size_t k = MIN(c->mc->chunk - w->used, n);

		memcpy(w->buf + w->used, p, k);
		w->used += k;
		w->total += k;
		p += k;
		n -= k;
		if (w->used == c->mc->chunk && (w->werr = mwriter_flush(w)))
			return w->werr;
	}
	return 0;
}

/* A failure of a record transform's file: the write's, or the transform's. */
static int records_failed(struct mfile *f, int ret)
{
	if (f->c->w.werr)
		return stats_fail(f->st, ret, f->of.path, "write");
	return stats_failf(f->st, ret, f->inpath, "transform %s: %s",
			   f->job->xform->name, strerror(-ret));
}

/* A record transform: the mapping through the bounce buffer, chunk by
 * chunk, into the stream; its outputs through the write buffer. */
static int to_records(struct mfile *f)
{
	struct mmap_ctx *c = f->c;
	int ret;

	c->w = (struct mwriter){ .fd = f->of.fd, .buf = c->w.buf };
	c->xs.carry_len = 0; /* a file that failed may have left a record */
	for (size_t off = 0; off < f->size; off += c->mc->chunk) {
		size_t n = MIN(c->mc->chunk, f->size - off);
		const void *fault = NULL;

		if (guarded_copy(c->bounce, f->map + off, n, &fault))
			return shrunk(f, "SIGBUS reading the mapping");
		if ((ret = xform_stream_feed(&c->xs, c->bounce, n)))
			return records_failed(f, ret);
	}
	ret = xform_stream_end(&c->xs);
	if (!ret && (ret = mwriter_flush(&c->w)))
		c->w.werr = ret;
	if (ret)
		return records_failed(f, ret);
	f->out_bytes = c->w.total;
	return 0;
}

static int map_input(struct mfile *f)
{
	const struct mmap_conf *mc = f->c->mc;
	void *p = mmap(NULL, f->size, PROT_READ, MAP_SHARED, f->in, 0);

	if (p == MAP_FAILED)
		return stats_fail(f->st, -errno, f->inpath, "mmap");
	f->map = p;
	/* advice is advice: a kernel that ignores it changes speed, not output */
	if (mc->advice >= 0)
		madvise(p, f->size, mc->advice);
	return 0;
}

static int open_out(struct mfile *f, size_t idx)
{
	int ret;

	if (f->job->sink == SINK_NULL)
		return 0;
	ret = out_open(f->job, idx, f->c->mc->map_out ? O_RDWR : 0, &f->of);
	if (ret)
		return stats_fail(f->st, ret, f->of.tmp, "create");
	return 0;
}

static int transform_file(struct mfile *f)
{
	int ret;

	if (!f->size)
		return 0; /* empty: nothing to map, the output is just created */
	ret = map_input(f);
	if (ret)
		return ret;
	if (f->c->xs.w.x)
		ret = to_records(f);
	else if (f->c->mc->map_out && f->of.fd >= 0)
		ret = to_mapped_out(f);
	else
		ret = to_write(f);
	munmap((void *)f->map, f->size);
	return ret;
}

static int mmap_file(const struct job *job, size_t idx, void *ctx,
		     struct run_stats *st)
{
	char in[PATH_MAX];
	struct mfile f = { .job = job, .c = ctx, .st = st, .inpath = in,
			   .of = { .fd = -1 } };
	struct stat sb;
	int ret;

	job_in_path(job, idx, in, sizeof(in));
	f.in = open(in, O_RDONLY | O_CLOEXEC);
	if (f.in < 0)
		return stats_fail(st, -errno, in, "open");
	if (fstat(f.in, &sb) < 0) {
		ret = stats_fail(st, -errno, in, "fstat");
		close(f.in);
		return ret;
	}
	f.size = (size_t)sb.st_size;
	f.out_bytes = f.size; /* the XOR's; a record transform's is counted */
	ret = open_out(&f, idx);
	if (!ret)
		ret = transform_file(&f);
	close(f.in);
	if (!ret)
		stats_add_in(st, f.size);
	ret = out_finish(job, &f.of, ret, st);
	if (!ret && job->sink != SINK_NULL)
		stats_add_out(st, f.out_bytes);
	return ret;
}

static const struct mmap_conf *run_conf; /* set before threads start */

static int mmap_init(const struct job *job, struct run_stats *st, void **ctx)
{
	struct mmap_ctx *c = calloc(1, sizeof(*c));

	(void)st;
	if (!c)
		return -ENOMEM;
	*ctx = c;
	c->mc = run_conf;
	if (job_xform_in_place(job))
		return job->work && !(c->bounce = malloc(c->mc->chunk)) ? -ENOMEM : 0;
	c->bounce = malloc(c->mc->chunk);
	c->w.buf = malloc(c->mc->chunk);
	if (!c->bounce || !c->w.buf)
		return -ENOMEM;
	return xform_stream_open(&c->xs, job->xform, mwriter_sink, c);
}

static void mmap_fini(void *ctx)
{
	struct mmap_ctx *c = ctx;

	if (!c)
		return;
	if (c->xs.w.x)
		xform_stream_close(&c->xs);
	free(c->w.buf);
	free(c->bounce);
	free(c);
}

static const struct per_file_ops mmap_ops = PER_FILE_OPS(mmap);

static void mmap_conf(const struct job *job, struct mmap_conf *mc)
{
	const struct mmap_opts *o = job->sopts;

	mc->advice = advices[o->madvise];
	mc->advice_name = advice_names[o->madvise];
	mc->map_out = o->mmap_out;
	mc->chunk = job->bufsize ? job->bufsize :
		    job->chunk ? job->chunk : MMAP_DEFAULT_CHUNK;
}

static int mmap_run(const struct job *job, struct run_stats *st)
{
	static struct mmap_conf mc;
	int ret;

	mmap_conf(job, &mc);
	stats_set_str(st, "madvise", mc.advice_name);
	stats_set_str(st, "output_mode", mc.map_out ? "mmap" : "write");
	stats_set_int(st, "chunk_bytes", (long long)mc.chunk);
	run_conf = &mc;
	ret = mmap_guard_install();
	if (ret)
		return stats_fail(st, ret, job->in_dir, "installing the SIGBUS handler");
	ret = per_file_run(job, st, &mmap_ops);
	mmap_guard_remove();
	return ret;
}

/* strategy.check: --mmap-out maps the output at the input's size, which a
 * record transform's output need not have. */
static int mmap_check(const struct job *job, char *why, size_t len)
{
	const struct mmap_opts *o = job->sopts;

	if (!o || !o->mmap_out || job_xform_in_place(job) || job->sink == SINK_NULL)
		return 0;
	snprintf(why, len, "--mmap-out: the output is mapped at the input's size, and "
		 "transform %s's output size is known only after it ran (mmap without "
		 "--mmap-out runs it)", job->xform->name);
	return 1;
}

static const struct setting mmap_settings[] = {
	{ .name = "madvise", SETTING_ENUM(struct mmap_opts, madvise),
	  .values = advice_names,
	  .def = "sequential",
	  .where = SET_BOTH, .id = "madvise=%s", .flags = SETF_ID_OPTIONAL,
	  .help = "the input's madvise(2) advice (default sequential)" },
	{ .name = "mmap-out", SETTING_BOOL(struct mmap_opts, mmap_out), .where = SET_BOTH,
	  .def = "0",
	  .id = "mmap-out=%s", .flags = SETF_ID_OPTIONAL,
	  .help = "map the output file too instead of write(2) from a bounce buffer" },
	{ 0 },
};

/* The columns it adds to a row (results/row.h). */
static const struct column mmap_columns[] = {
	{ "madvise", COL_TEXT, 0, 0, "core", "the advice given for the input", 0 },
	{ "output_mode", COL_TEXT, "mmap|write", 0, "core", "how the output is written", 0 },
	{ "chunk_bytes", COL_SIZE, 0, "bytes", "core", "the I/O size used", 0 },
	{ 0 },
};

const struct strategy strategy_mmap = {
	STRATEGY(mmap), STRATEGY_OPTS(mmap),
	.summary = "map the input, madvise, transform into the output via write(2) or --mmap-out",
	.default_io = MMAP_DEFAULT_CHUNK,
	.flags = STRAT_BUFSIZE | STRAT_CHUNK | STRAT_RECORDS,
	.check = mmap_check,
	.columns = mmap_columns,
};
