// SPDX-License-Identifier: MIT
/*
 * The reader loop of the io_uring pipeline (the design is in uring.c).
 *
 * One pass of the loop: take the chunks the workers finished (write
 * them), hand the completed reads at the head of the in-order FIFO to the
 * workers, plan reads while the QD and the pool allow, submit, sleep in
 * io_uring_enter until something completes, handle the completions.  user_data is a pointer with the op kind in its low bits.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/dontcache.h"
#include "core/transform.h"
#include "lib/util.h"
#include "uring.h"

enum { OP_READ = 0, OP_WRITE = 1, OP_FSYNC = 2, OP_EFD = 3, OP_MASK = 3 };

static void *ud_ptr(uint64_t ud) { return (void *)(uintptr_t)(ud & ~(uint64_t)OP_MASK); }
static uint64_t ud_make(void *p, int op) { return (uint64_t)(uintptr_t)p | (uint64_t)op; }

static int fail(struct uctx *c, int err, const struct ufile *f, bool out,
		const char *what)
{
	char in[PATH_MAX];

	c->failed = true;
	__atomic_store_n(&c->wq.abort, true, __ATOMIC_RELAXED);
	if (out)
		return stats_fail(c->st, err, f->of.path, what);
	job_in_path(c->job, f->idx, in, sizeof(in));
	return stats_fail(c->st, err, in, what);
}

/* ---- buffers -------------------------------------------------------------- */

static struct chunk *chunk_get(struct uctx *c)
{
	struct chunk *ch = c->free;

	c->free = ch->next;
	c->nfree--;
	ch->next = NULL;
	return ch;
}

static void chunk_put(struct uctx *c, struct chunk *ch)
{
	free(ch->head);
	ch->head = NULL;
	ch->head_len = 0;
	ch->f = NULL;
	ch->next = c->free;
	c->free = ch;
	c->nfree++;
}

/* Point an SQE at fd, or at its registered slot. */
static void sqe_file(struct io_uring_sqe *sqe, int slot)
{
	if (slot >= 0) {
		sqe->fd = slot;
		sqe->flags |= IOSQE_FIXED_FILE;
	}
}

/* Queue the rest of ch's read (OP_READ, up to want) or write (OP_WRITE,
 * up to wlen) from where a short one stopped, on the registered buffer
 * and file when there are. */
static void submit_io(struct uctx *c, struct chunk *ch, int op)
{
	struct io_uring_sqe *sqe = uring_sqe(c);
	struct ufile *f = ch->f;
	bool wr = op == OP_WRITE;
	uint64_t done = wr ? ch->wrote : ch->got;
	uint8_t *p = (wr ? ch->wbuf : ch->buf) + done;
	unsigned n = (unsigned)MIN((wr ? ch->wlen : ch->want) - done, 1u << 30);
	uint64_t off = (wr ? ch->woff : ch->off) + done;
	int fd = wr ? f->of.fd : f->in_fd;

	/* a record transform's output buffer is not a registered one */
	if (c->fixed_bufs && wr && ch->wbuf == ch->buf)
		io_uring_prep_write_fixed(sqe, fd, p, n, off, (int)ch->idx);
	else if (c->fixed_bufs && !wr)
		io_uring_prep_read_fixed(sqe, fd, p, n, off, (int)ch->idx);
	else if (wr)
		io_uring_prep_write(sqe, fd, p, n, off);
	else
		io_uring_prep_read(sqe, fd, p, n, off);
	sqe->rw_flags = job_rwf(c->job);
	sqe_file(sqe, wr ? f->out_slot : f->in_slot);
	io_uring_sqe_set_data64(sqe, ud_make(ch, op));
	c->inflight++;
	if (wr)
		c->n_writes++;
	else
		c->n_reads++;
}

static void arm_eventfd(struct uctx *c)
{
	struct io_uring_sqe *sqe = uring_sqe(c);

	io_uring_prep_read(sqe, c->wq.efd, &c->efd_val, sizeof(c->efd_val), 0);
	io_uring_sqe_set_data64(sqe, ud_make(NULL, OP_EFD));
	c->efd_armed = true;
}

/* ---- files ---------------------------------------------------------------- */

static void file_unlink(struct uctx *c, struct ufile *f)
{
	if (f->prev)
		f->prev->next = f->next;
	else
		c->open = f->next;
	if (f->next)
		f->next->prev = f->prev;
	c->open_files--;
	free(f->carry);
	free(f);
}

static void close_input(struct uctx *c, struct ufile *f)
{
	if (f->in_fd < 0)
		return;
	uring_slot_put(c, f->in_slot);
	f->in_slot = -1;
	close(f->in_fd);
	f->in_fd = -1;
}

/* Rename the output into place: its data are written (and fsync'd). */
static int commit(struct uctx *c, struct ufile *f)
{
	struct job nosync = *c->job;
	int ret = 0;

	uring_slot_put(c, f->out_slot);
	f->out_slot = -1;
	if (f->of.fd >= 0) {
		/* the fsync, if any, already ran through the ring */
		nosync.fsync = FSYNC_NONE;
		ret = out_commit(&nosync, &f->of);
		if (ret)
			fail(c, ret, f, true, "rename");
	}
	file_unlink(c, f);
	return ret;
}

/* All chunks of f are written: trim, fsync through the ring, commit. */
static void file_finish(struct uctx *c, struct ufile *f)
{
	struct io_uring_sqe *sqe;

	close_input(c, f);
	if (f->of.fd < 0 || c->failed) {
		if (!c->failed)
			commit(c, f);
		return;
	}
	/* O_DIRECT wrote whole blocks; the file ends at the data's end */
	if (c->job->direct && ftruncate(f->of.fd, (off_t)f->total) < 0) {
		fail(c, -errno, f, true, "truncate");
		return;
	}
	if (c->job->fsync != FSYNC_FILE) {
		commit(c, f);
		return;
	}
	sqe = uring_sqe(c);
	io_uring_prep_fsync(sqe, f->of.fd, 0);
	sqe_file(sqe, f->out_slot);
	io_uring_sqe_set_data64(sqe, ud_make(f, OP_FSYNC));
	f->sync_in_flight = true;
	c->inflight++;
}

static void maybe_finish(struct uctx *c, struct ufile *f)
{
	if (f->planned && !f->pending && !f->sync_in_flight)
		file_finish(c, f);
}

/* Chunks at least this many per file make registering the fd pay off. */
#define REGISTER_MIN_CHUNKS 4

static int file_open(struct uctx *c, size_t idx, struct ufile **out)
{
	int dflag = c->job->direct ? O_DIRECT : 0;
	struct ufile *f = calloc(1, sizeof(*f));
	char in[PATH_MAX];
	struct stat sb;
	int ret;

	if (!f)
		return -ENOMEM;
	f->idx = idx;
	f->in_slot = f->out_slot = -1;
	f->of.fd = -1;
	f->next = c->open;
	if (c->open)
		c->open->prev = f;
	c->open = f;
	c->open_files++;
	*out = f;
	job_in_path(c->job, idx, in, sizeof(in));
	f->in_fd = open(in, O_RDONLY | O_CLOEXEC | dflag);
	if (f->in_fd < 0 && errno == EINVAL && dflag)
		return stats_failf(c->st, -EINVAL, in, "open with O_DIRECT: the "
				   "filesystem refuses direct I/O (tmpfs?); run without --direct");
	if (f->in_fd < 0)
		return fail(c, -errno, f, false, "open");
	if (fstat(f->in_fd, &sb) < 0)
		return fail(c, -errno, f, false, "stat");
	f->size = (uint64_t)sb.st_size;
	f->planned = f->size == 0;
	if (!dflag)
		posix_fadvise(f->in_fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (c->job->sink != SINK_NULL) {
		ret = out_open(c->job, idx, dflag, &f->of);
		if (ret == -EINVAL && dflag)
			return stats_failf(c->st, ret, f->of.tmp, "create with O_DIRECT: "
					   "the filesystem refuses direct I/O (tmpfs?); "
					   "run without --direct");
		if (ret)
			return fail(c, ret, f, true, "create");
	}
	if (f->size >= REGISTER_MIN_CHUNKS * (uint64_t)c->chunk) {
		f->in_slot = uring_slot_get(c, f->in_fd);
		if (f->of.fd >= 0)
			f->out_slot = uring_slot_get(c, f->of.fd);
	}
	return 0;
}

/* ---- planning reads -------------------------------------------------------- */

static void plan_chunk(struct uctx *c, struct ufile *f)
{
	struct chunk *ch = chunk_get(c);
	uint64_t left = f->size - f->next_off;

	ch->f = f;
	ch->off = f->next_off;
	ch->want = (uint32_t)MIN(left, (uint64_t)c->chunk);
	if (c->job->direct) /* O_DIRECT reads whole blocks; EOF cuts them */
		ch->want = (uint32_t)MIN((uint64_t)c->chunk,
				 (left + URING_DIRECT_ALIGN - 1) & ~(uint64_t)(URING_DIRECT_ALIGN - 1));
	ch->got = 0;
	ch->wrote = 0;
	ch->read_done = false;
	ch->last = ch->off + c->chunk >= f->size;
	if (c->fifo_tail)
		c->fifo_tail->next = ch;
	else
		c->fifo = ch;
	c->fifo_tail = ch;
	f->next_off += c->chunk;
	f->planned = f->next_off >= f->size;
	f->pending++;
	f->reading++;
	c->reads_inflight++;
	submit_io(c, ch, OP_READ);
}

static bool room_for_reads(struct uctx *c)
{
	/* fsyncs are not bounded by the pool: keep the CQ from overflowing */
	return !c->failed && c->nfree && c->reads_inflight < c->qd &&
	       c->inflight + 2 < c->ring_entries;
}

static void plan_reads(struct uctx *c)
{
	while (room_for_reads(c)) {
		if (!c->cur) {
			if (c->next_file >= c->job->nfiles)
				return;
			if (file_open(c, c->next_file++, &c->cur)) {
				c->failed = true;
				__atomic_store_n(&c->wq.abort, true, __ATOMIC_RELAXED);
				return;
			}
		}
		if (!c->cur->planned)
			plan_chunk(c, c->cur);
		if (c->cur->planned) {
			struct ufile *f = c->cur;

			c->cur = NULL;
			maybe_finish(c, f); /* an empty file is done already */
		}
	}
}

/* ---- handing chunks on ----------------------------------------------------- */

static void chunk_written(struct uctx *c, struct chunk *ch)
{
	struct ufile *f = ch->f;

	f->pending--;
	chunk_put(c, ch);
	if (!c->failed)
		maybe_finish(c, f);
}

/* A transformed chunk: write it (or drop it: sink null, or after an error). */
static void chunk_transformed(struct uctx *c, struct chunk *ch)
{
	if (c->failed || ch->f->of.fd < 0) {
		chunk_written(c, ch);
		return;
	}
	ch->wbuf = ch->buf;
	ch->woff = ch->off;
	ch->olen = ch->got;
	ch->wlen = ch->got;
	if (c->job->direct)
		ch->wlen = (ch->got + URING_DIRECT_ALIGN - 1) &
			   ~(uint32_t)(URING_DIRECT_ALIGN - 1);
	submit_io(c, ch, OP_WRITE);
}

/* A record transform's error (its -errno, or -E2BIG), naming the input. */
static void fail_xform(struct uctx *c, int err, const struct ufile *f)
{
	char in[PATH_MAX];

	if (c->failed)
		return;
	c->failed = true;
	__atomic_store_n(&c->wq.abort, true, __ATOMIC_RELAXED);
	job_in_path(c->job, f->idx, in, sizeof(in));
	stats_failf(c->st, err, in, "transform %s: %s", c->job->xform->name,
		    strerror(-err));
}

/* A record chunk whose output offset is known: write its outputs there. */
static void outputs_placed(struct uctx *c, struct chunk *ch)
{
	struct ufile *f = ch->f;

	if (ch->err)
		fail_xform(c, ch->err, f);
	if (c->failed || f->of.fd < 0 || !ch->out_len) {
		chunk_written(c, ch);
		return;
	}
	ch->wbuf = ch->out;
	ch->woff = f->out_off;
	ch->olen = ch->wlen = ch->out_len;
	f->out_off += ch->out_len;
	submit_io(c, ch, OP_WRITE);
}

/* The output FIFO's head is the earliest record chunk not yet placed:
 * once transformed, its output goes right after the previous ones. */
static void place_outputs(struct uctx *c)
{
	struct chunk *ch;

	while ((ch = c->ofifo) && ch->xformed) {
		c->ofifo = ch->onext;
		if (!c->ofifo)
			c->ofifo_tail = NULL;
		ch->onext = NULL;
		outputs_placed(c, ch);
	}
}

/* Chunks back from the workers. */
static void collect_done(struct uctx *c)
{
	struct chunk *ch = uring_wq_take_done(&c->wq), *next;

	for (; ch; ch = next) {
		next = ch->next;
		c->at_workers--;
		if (c->wq.xf)
			ch->xformed = true;
		else
			chunk_transformed(c, ch);
	}
	place_outputs(c);
}

/* A record chunk in input order: split it, hand it to a worker and queue
 * it for its output offset (a chunk with nothing to run is done). */
static void dispatch_records(struct uctx *c, struct chunk *ch)
{
	int ret = uring_records_split(c->wq.xf, ch);

	if (ret)
		fail_xform(c, ret, ch->f);
	if (ret || (!ch->head_len && ch->bend == ch->bstart)) {
		chunk_written(c, ch);
		return;
	}
	ch->xformed = false;
	if (c->ofifo_tail)
		c->ofifo_tail->onext = ch;
	else
		c->ofifo = ch;
	c->ofifo_tail = ch;
	c->at_workers++;
	uring_wq_push(&c->wq, ch);
}

/* The head of the FIFO is the next chunk in file order: once its read is
 * done its column is known, and the next chunk's follows from it. */
static void dispatch(struct uctx *c)
{
	struct chunk *ch;

	while ((ch = c->fifo) && ch->read_done) {
		struct ufile *f = ch->f;

		c->fifo = ch->next;
		if (!c->fifo)
			c->fifo_tail = NULL;
		if (c->wq.xf && !c->failed) {
			dispatch_records(c, ch);
			continue;
		}
		if (c->failed || !ch->got) {
			f->pending--;
			chunk_put(c, ch);
			if (!c->failed)
				maybe_finish(c, f);
			continue;
		}
		ch->col = f->col;
		if (!c->job->work) {
			/* W=0 is a copy: no CPU work worth a hand-off (and two
			 * context switches) per chunk; the reader runs it. */
			transform_chunk(ch->buf, ch->got, 0, &f->col);
			chunk_transformed(c, ch);
			continue;
		}
		f->col = transform_col_after(ch->buf, ch->got, f->col);
		c->at_workers++;
		uring_wq_push(&c->wq, ch);
	}
}

/* ---- completions ----------------------------------------------------------- */

static void read_done(struct uctx *c, struct chunk *ch, int res)
{
	struct ufile *f = ch->f;

	if (res == -EAGAIN || res == -EINTR) {
		c->n_eagain++;
		submit_io(c, ch, OP_READ);
		return;
	}
	if (res < 0) {
		fail(c, res, f, false, "read");
	} else if (res > 0) {
		ch->got += (uint32_t)res;
		f->total += (uint64_t)res;
		stats_add_in(c->st, (uint64_t)res);
		/* short, not at the size we planned for: read the rest */
		if (ch->got < ch->want && ch->off + ch->got < f->size && !c->failed) {
			c->n_short++;
			submit_io(c, ch, OP_READ);
			return;
		}
	}
	/* res == 0 is EOF: the file shrank; the chunk ends here */
	ch->read_done = true;
	c->reads_inflight--;
	if (!--f->reading && f->planned && f != c->cur)
		close_input(c, f);
}

static void write_done(struct uctx *c, struct chunk *ch, int res)
{
	if (res == -EAGAIN || res == -EINTR) {
		c->n_eagain++;
		submit_io(c, ch, OP_WRITE);
		return;
	}
	if (res <= 0) {
		fail(c, res ? res : -EIO, ch->f, true, "write");
		chunk_written(c, ch);
		return;
	}
	ch->wrote += (uint32_t)res;
	if (ch->wrote < ch->wlen && !c->failed) {
		c->n_short++;
		submit_io(c, ch, OP_WRITE);
		return;
	}
	stats_add_out(c->st, ch->olen);
	chunk_written(c, ch);
}

static void fsync_done(struct uctx *c, struct ufile *f, int res)
{
	f->sync_in_flight = false;
	if (res < 0) {
		fail(c, res, f, true, "fsync");
		return;
	}
	if (!c->failed)
		commit(c, f);
}

static void handle(struct uctx *c, const struct io_uring_cqe *cqe)
{
	void *p = ud_ptr(cqe->user_data);
	int op = (int)(cqe->user_data & OP_MASK);

	if (op == OP_EFD) {
		c->efd_armed = false;
		return;
	}
	c->inflight--;
	if (op == OP_READ)
		read_done(c, p, cqe->res);
	else if (op == OP_WRITE)
		write_done(c, p, cqe->res);
	else
		fsync_done(c, p, cqe->res);
}

static void reap(struct uctx *c)
{
	struct io_uring_cqe *cqes[64];
	unsigned n;

	while ((n = io_uring_peek_batch_cqe(&c->ring, cqes, ARRAY_SIZE(cqes)))) {
		for (unsigned i = 0; i < n; i++)
			handle(c, cqes[i]);
		io_uring_cq_advance(&c->ring, n);
	}
}

/* ---- the loop -------------------------------------------------------------- */

static bool finished(const struct uctx *c)
{
	if (c->failed)
		return !c->inflight && !c->at_workers;
	return c->next_file >= c->job->nfiles && !c->cur && !c->open_files &&
	       c->nfree == c->nbuf;
}

/* After an error: every op has completed; drop what is left. */
static void cleanup(struct uctx *c)
{
	collect_done(c);
	dispatch(c);
	while (c->open) {
		struct ufile *f = c->open;

		close_input(c, f);
		uring_slot_put(c, f->out_slot);
		if (f->of.fd >= 0)
			out_abort(&f->of);
		file_unlink(c, f);
	}
}

int uring_pipeline(struct uctx *c)
{
	int ret;

	for (;;) {
		/* hand on first: a buffer freed here is read into at once */
		collect_done(c);
		dispatch(c);
		plan_reads(c);
		if (finished(c))
			break;
		if (!c->inflight && !c->at_workers) {
			/* nothing can complete: a bug, but never a hang */
			stats_failf(c->st, -EIO, "io_uring", "pipeline stalled");
			c->failed = true;
			break;
		}
		if (!c->efd_armed)
			arm_eventfd(c);
		ret = io_uring_submit_and_wait(&c->ring, 1);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY) {
			stats_fail(c->st, ret, "io_uring", "submit");
			c->failed = true;
			break; /* the ring cannot run: tear-down cancels it */
		}
		reap(c);
	}
	if (c->failed)
		cleanup(c);
	return c->st->err;
}
