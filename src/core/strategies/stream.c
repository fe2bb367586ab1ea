// SPDX-License-Identifier: MIT
/*
 * stream: read a line, transform it, write it, repeat.
 *
 * Our own reader rather than stdio's getline(): getline grows its buffer to
 * the longest line, so a 1 GiB line would cost 1 GiB; here memory is two
 * buffers of --bufsize whatever the line length (a line longer than the
 * buffer is transformed in pieces, the column carried across them).
 * Output goes through a write buffer of the same size, as a BufferedWriter
 * would: the point of the strategy is per-line processing, not a write(2)
 * per line.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/settings.h"
#include "core/dontcache.h"
#include "core/outfile.h"
#include "core/per_file.h"
#include "core/transform.h"
#include "core/xform.h"
#include "lib/util.h"

#define STREAM_DEFAULT_BUF (64 * 1024)

/* What stream's settings table fills (struct job .sopts). */
struct stream_opts {
	int fadvise;	/* index in fadvise_names */
};

static const char *const fadvise_names[] = { "sequential", "noreuse",
					     "dontneed", "none", NULL };

static const struct setting stream_settings[] = {
	{ .name = "fadvise", SETTING_ENUM(struct stream_opts, fadvise),
	  .values = fadvise_names,
	  .def = "sequential",
	  .where = SET_BOTH, .column = "fadvise", .id = "fadvise=%s",
	  .flags = SETF_ID_OPTIONAL,
	  .help = "posix_fadvise on each input: sequential (default), noreuse,\n"
		  "dontneed (its pages dropped once read) or none" },
	{ 0 },
};

/* --fadvise's advice before the input is read; dontneed: after, too. */
static void advise(const struct job *job, int fd, bool done)
{
	const struct stream_opts *o = job->sopts;
	static const int before[] = { POSIX_FADV_SEQUENTIAL, POSIX_FADV_NOREUSE,
				      POSIX_FADV_SEQUENTIAL };

	if (!done && o->fadvise < 3)
		posix_fadvise(fd, 0, 0, before[o->fadvise]);
	if (done && o->fadvise == 2)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

struct stream_ctx {
	size_t size;
	uint8_t *in;
	uint8_t *out;
	struct xform_stream xs;  /* a record transform's (xs.w.x NULL: the XOR) */
};

struct writer {
	struct stream_ctx *c;
	int fd;      /* -1: sink null */
	int rwf;     /* RWF_DONTCACHE with --dontcache */
	size_t used;
	uint64_t total;
	int werr;    /* the first write error (a record transform's sink) */
};

static int writer_flush(struct writer *w)
{
	int ret = 0;

	if (w->fd >= 0 && w->used)
		ret = write_full_rwf(w->fd, w->c->out, w->used, w->rwf);
	w->total += w->used;
	w->used = 0;
	return ret;
}

static int writer_put(struct writer *w, const uint8_t *p, size_t n)
{
	while (n) {
		size_t room = w->c->size - w->used;
		size_t k = MIN(room, n);
		int ret;

		memcpy(w->c->out + w->used, p, k);
		w->used += k;
		p += k;
		n -= k;
		if (w->used == w->c->size && (ret = writer_flush(w)))
			return ret;
	}
	return 0;
}

/* A record transform's outputs into the writer (write errors kept apart
 * from the transform's). */
static int writer_sink(void *ctx, const uint8_t *p, size_t n)
{
	struct writer *w = ctx;
	int ret = writer_put(w, p, n);

	if (ret && !w->werr)
		w->werr = ret;
	return ret;
}

static int stream_init(const struct job *job, struct run_stats *st, void **ctx)
{
	struct stream_ctx *c = calloc(1, sizeof(*c));

	(void)st;
	if (!c)
		return -ENOMEM;
	c->size = job->bufsize ? job->bufsize : STREAM_DEFAULT_BUF;
	c->in = malloc(c->size);
	c->out = malloc(c->size);
	*ctx = c;
	if (!c->in || !c->out)
		return -ENOMEM;
	return job_xform_in_place(job) ? 0 :
	       xform_stream_open(&c->xs, job->xform, writer_sink, NULL);
}

static void stream_fini(void *ctx)
{
	struct stream_ctx *c = ctx;

	if (!c)
		return;
	if (c->xs.w.x)
		xform_stream_close(&c->xs);
	free(c->in);
	free(c->out);
	free(c);
}

/* Transform and emit every line (or line piece) of one input buffer. */
static int stream_lines(struct writer *w, uint8_t *buf, size_t len,
			unsigned work, uint64_t *col)
{
	uint8_t *p = buf, *end = buf + len;

	while (p < end) {
		uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		int ret;

		transform_chunk(p, n, work, col);
		ret = writer_put(w, p, n);
		if (ret)
			return ret;
		p += n;
	}
	return 0;
}

/* One input buffer: the XOR line by line, or a record transform's
 * records (the record going on carried to the next buffer). */
static int stream_buf(const struct job *job, struct writer *w, size_t n, uint64_t *col)
{
	if (!w->c->xs.w.x)
		return stream_lines(w, w->c->in, n, job->work, col);
	w->c->xs.ctx = w;
	return xform_stream_feed(&w->c->xs, w->c->in, n);
}

/* A failure of the copy: the write's, or the transform's. */
static int copy_failed(const struct job *job, struct run_stats *st, const struct writer *w,
		       int ret, const char *inpath, const char *outpath)
{
	if (!w->c->xs.w.x || w->werr)
		return stats_fail(st, ret, outpath, "write");
	return stats_failf(st, ret, inpath, "transform %s: %s", job->xform->name,
			   xform_strerror(ret));
}

static int stream_copy(const struct job *job, int in, struct writer *w,
		       struct run_stats *st, const char *inpath,
		       const char *outpath)
{
	uint64_t col = 0;
	int ret;

	for (;;) {
		ssize_t n = read_rwf(in, w->c->in, w->c->size, w->rwf);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return stats_fail(st, -errno, inpath, "read");
		if (n == 0)
			break;
		stats_add_in(st, (uint64_t)n);
		ret = stream_buf(job, w, (size_t)n, &col);
		if (ret)
			return copy_failed(job, st, w, ret, inpath, outpath);
	}
	if (w->c->xs.w.x && (ret = xform_stream_end(&w->c->xs)))
		return copy_failed(job, st, w, ret, inpath, outpath);
	ret = writer_flush(w);
	if (ret)
		return stats_fail(st, ret, outpath, "write");
	return 0;
}

static int stream_file(const struct job *job, size_t idx, void *ctx,
		       struct run_stats *st)
{
	struct writer w = { .c = ctx, .fd = -1, .rwf = job_rwf(job) };
	char in[PATH_MAX];
	struct outfile of = { .fd = -1 };
	int fd, ret;

	job_in_path(job, idx, in, sizeof(in));
	fd = open(in, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return stats_fail(st, -errno, in, "open");
	advise(job, fd, false);
	if (job->sink != SINK_NULL) {
		ret = out_open(job, idx, 0, &of);
		if (ret) {
			close(fd);
			return stats_fail(st, ret, of.tmp, "create");
		}
		w.fd = of.fd;
	}
	ret = stream_copy(job, fd, &w, st, in, of.path);
	advise(job, fd, true);
	close(fd);
	ret = out_finish(job, &of, ret, st);
	if (!ret && job->sink != SINK_NULL)
		stats_add_out(st, w.total);
	return ret;
}

static const struct per_file_ops stream_ops = PER_FILE_OPS(stream);

static int stream_run(const struct job *job, struct run_stats *st)
{
	stats_set_int(st, "buffer_bytes",
		      (long long)(job->bufsize ? job->bufsize : STREAM_DEFAULT_BUF));
	return per_file_run(job, st, &stream_ops);
}

/* The columns it adds to a row (results/row.h). */
static const struct column stream_columns[] = {
	{ "buffer_bytes", COL_SIZE, 0, "bytes", "core", "the stdio buffer size used", 0 },
	{ 0 },
};

const struct strategy strategy_stream = {
	STRATEGY(stream), STRATEGY_OPTS(stream),
	.summary = "read a line, transform it, write it (memory: 2 x --bufsize, default 64 KiB)",
	.flags = STRAT_REPORT_BASE | STRAT_DONTCACHE | STRAT_BUFSIZE | STRAT_RECORDS,
	.default_io = STREAM_DEFAULT_BUF,
	.columns = stream_columns,
};
