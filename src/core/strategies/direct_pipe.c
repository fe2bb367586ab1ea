// SPDX-License-Identifier: MIT
/*
 * direct --qd 2: double buffering.  Each worker thread owns one reader
 * thread and two aligned buffers; the reader fills buffer k+1 with an
 * O_DIRECT pread while the worker transforms and writes buffer k, so the
 * device sees a read and a write in flight at once instead of taking
 * turns.  Memory: 2 x chunk per worker.
 *
 * Hand-off under one mutex: full[b] says buffer b holds len[b] bytes
 * (len 0: EOF, < 0: -errno, unaligned: the file's tail, the last one).
 * The reader stops a file at EOF, error, tail, or when the worker sets
 * stop (its write failed); the worker waits for the reader to be idle
 * before the input fd is closed.
 *
 * A record transform: the worker feeds the chunks, in order, to its
 * staging output (direct_stage.c) instead of writing them back.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "core/transform.h"
#include "lib/util.h"
#include "direct.h"

struct pipe_ctx {
	const struct direct_conf *dc;
	uint8_t *buf[2];
	struct direct_stage stage; /* a record transform's output */
	ssize_t len[2];
	bool full[2];
	int fd;          /* the file being read */
	bool job;        /* a file is posted, reader not yet started on it */
	bool busy;       /* reader is working on a file */
	bool stop;       /* worker: stop reading this file */
	bool quit;       /* worker thread is done */
	bool started;
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

/* Wait (mu held) until buffer b is free or the file is stopped. */
static bool wait_free(struct pipe_ctx *c, unsigned b)
{
	while (c->full[b] && !c->stop)
		pthread_cond_wait(&c->cv, &c->mu);
	return !c->stop;
}

static void read_file(struct pipe_ctx *c, int fd)
{
	off_t off = 0;

	for (unsigned k = 0;; k++) {
		unsigned b = k & 1;
		ssize_t n;

		pthread_mutex_lock(&c->mu);
		if (!wait_free(c, b)) {
			pthread_mutex_unlock(&c->mu);
			return;
		}
		pthread_mutex_unlock(&c->mu);
		n = direct_read(fd, c->buf[b], c->dc->chunk, off);
		pthread_mutex_lock(&c->mu);
		c->len[b] = n;
		c->full[b] = true;
		pthread_cond_broadcast(&c->cv);
		pthread_mutex_unlock(&c->mu);
		if (n <= 0 || (size_t)n % c->dc->align)
			return;
		off += n;
	}
}

static void *reader(void *arg)
{
	struct pipe_ctx *c = arg;

	pthread_mutex_lock(&c->mu);
	for (;;) {
		while (!c->job && !c->quit)
			pthread_cond_wait(&c->cv, &c->mu);
		if (c->quit)
			break;
		c->job = false;
		c->busy = true;
		pthread_mutex_unlock(&c->mu);
		read_file(c, c->fd);
		pthread_mutex_lock(&c->mu);
		c->busy = false;
		pthread_cond_broadcast(&c->cv);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

static void post_file(struct pipe_ctx *c, int fd)
{
	pthread_mutex_lock(&c->mu);
	c->full[0] = c->full[1] = false;
	c->stop = false;
	c->fd = fd;
	c->job = true;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
}

static ssize_t take(struct pipe_ctx *c, unsigned b)
{
	ssize_t n;

	pthread_mutex_lock(&c->mu);
	while (!c->full[b])
		pthread_cond_wait(&c->cv, &c->mu);
	n = c->len[b];
	pthread_mutex_unlock(&c->mu);
	return n;
}

static void give_back(struct pipe_ctx *c, unsigned b)
{
	pthread_mutex_lock(&c->mu);
	c->full[b] = false;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
}

/* Stop the reader on this file and wait until it no longer uses fd. */
static void finish_file(struct pipe_ctx *c)
{
	pthread_mutex_lock(&c->mu);
	c->stop = true;
	pthread_cond_broadcast(&c->cv);
	while (c->busy || c->job)
		pthread_cond_wait(&c->cv, &c->mu);
	pthread_mutex_unlock(&c->mu);
}

/* Consume chunks in order; 1 when the file is done, 0 to go on, <0 error. */
static int consume(const struct job *job, struct pipe_ctx *c, unsigned b,
		   int out, off_t *off, uint64_t *col, struct run_stats *st,
		   const char *inpath, const char *outpath)
{
	ssize_t n = take(c, b);
	int ret = direct_took(st, n, inpath);

	if (ret)
		return ret;
	if (c->stage.xs.w.x)
		ret = direct_stage_feed(job, &c->stage, c->buf[b], (size_t)n, st,
					inpath, outpath);
	else
		ret = direct_xor_out(job, c->buf[b], (size_t)n, out, *off, c->dc, col, st,
				     outpath);
	if (ret)
		return ret;
	if ((size_t)n % c->dc->align)
		return 1;
	*off += n;
	give_back(c, b);
	return 0;
}

static int loop_qd2(const struct job *job, int in, int out, void *ctx,
		    struct run_stats *st, const char *inpath, const char *outpath)
{
	struct pipe_ctx *c = ctx;
	uint64_t col = 0;
	off_t off = 0;
	int ret = 0;

	if (c->stage.xs.w.x)
		direct_stage_begin(&c->stage, out);
	post_file(c, in);
	for (unsigned k = 0; !ret; k++) {
		ret = consume(job, c, k & 1, out, &off, &col, st, inpath, outpath);
	}
	finish_file(c);
	if (ret > 0 && c->stage.xs.w.x)
		ret = direct_stage_end(job, &c->stage, st, inpath, outpath);
	return ret < 0 ? ret : 0;
}

static int pipe_file(const struct job *job, size_t idx, void *ctx,
		     struct run_stats *st)
{
	struct pipe_ctx *c = ctx;

	return direct_file_io(job, idx, c->dc, st, loop_qd2, c);
}

static int pipe_init(const struct job *job, struct run_stats *st, void **ctx)
{
	struct pipe_ctx *c = calloc(1, sizeof(*c));
	void *p;
	int ret;

	(void)st;
	if (!c)
		return -ENOMEM;
	*ctx = c;
	c->dc = direct_run_conf();
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cv, NULL);
	for (int i = 0; i < 2; i++) {
		if (posix_memalign(&p, c->dc->mem_align, c->dc->chunk))
			return -ENOMEM;
		c->buf[i] = p;
	}
	if (!job_xform_in_place(job) && (ret = direct_stage_open(&c->stage, job, c->dc)))
		return ret;
	ret = pthread_create(&c->tid, NULL, reader, c);
	if (ret)
		return -ret;
	c->started = true;
	return 0;
}

static void pipe_fini(void *ctx)
{
	struct pipe_ctx *c = ctx;

	if (!c)
		return;
	if (c->started) {
		pthread_mutex_lock(&c->mu);
		c->quit = true;
		pthread_cond_broadcast(&c->cv);
		pthread_mutex_unlock(&c->mu);
		pthread_join(c->tid, NULL);
	}
	direct_stage_close(&c->stage);
	free(c->buf[0]);
	free(c->buf[1]);
	pthread_mutex_destroy(&c->mu);
	pthread_cond_destroy(&c->cv);
	free(c);
}

const struct per_file_ops direct_pipe_ops = PER_FILE_OPS(pipe);
