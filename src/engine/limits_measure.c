// SPDX-License-Identifier: MIT
/* The limits' measurements themselves, run in the repetition's child: each times only its own I/O or CPU. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include <liburing.h>
#include <xxhash.h>

#include "config/run_config.h"
#include "core/transform.h"
#include "core/xform.h"
#include "lib/util.h"
#include "limits.h"

#define ALIGN 4096

static int fail(struct limit_result *r, int err, const char *dir, const char *name)
{
	snprintf(r->what, sizeof(r->what), "%s/%s", dir, name);
	return r->err = err;
}

/* ---- read_direct: io_uring, qd reads of bs in flight, in file order ----- */

struct ring_io {
	struct io_uring ring;
	uint8_t *bufs;
	unsigned *free_slots, nfree, qd;
	uint64_t bs;
};

static int queue_read(struct ring_io *io, int fd, uint64_t off)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&io->ring);
	unsigned slot = io->free_slots[--io->nfree];

	if (!sqe)
		return -EBUSY;
	io_uring_prep_read(sqe, fd, io->bufs + (size_t)slot * io->bs, (unsigned)io->bs, off);
	io_uring_sqe_set_data64(sqe, slot);
	return 0;
}

/* One file: *got the bytes it read (the short read at EOF included). */
static int read_file_ring(struct ring_io *io, int fd, uint64_t size, uint64_t *got)
{
	uint64_t off = 0;
	unsigned inflight = 0;
	int ret = 0;

	while (!ret && (off < size || inflight)) {
		struct io_uring_cqe *cqe;

		while (!ret && io->nfree && off < size) {
			ret = queue_read(io, fd, off);
			off += io->bs;
			inflight++;
		}
		if (ret || (ret = io_uring_submit_and_wait(&io->ring, 1)) < 0)
			break;
		ret = 0;
		while (io_uring_peek_cqe(&io->ring, &cqe) == 0) {
			if (cqe->res < 0 && !ret)
				ret = cqe->res;
			else if (cqe->res > 0)
				*got += (uint64_t)cqe->res;
			io->free_slots[io->nfree++] = (unsigned)io_uring_cqe_get_data64(cqe);
			inflight--;
			io_uring_cqe_seen(&io->ring, cqe);
		}
	}
	return ret;
}

static int ring_open(struct ring_io *io, unsigned qd, uint64_t bs)
{
	int ret;

	memset(io, 0, sizeof(*io));
	io->qd = qd;
	io->bs = bs;
	io->free_slots = calloc(qd, sizeof(*io->free_slots));
	if (!io->free_slots || posix_memalign((void **)&io->bufs, ALIGN, (size_t)qd * bs))
		return -ENOMEM;
	for (unsigned i = 0; i < qd; i++)
		io->free_slots[io->nfree++] = i;
	ret = io_uring_queue_init(qd, &io->ring, 0);
	return ret;
}

static void read_direct(const struct limit_job *j, struct limit_result *r)
{
	struct ring_io io;
	char path[PATH_MAX];
	double t0;
	int ret = ring_open(&io, j->qd, j->bs);

	if (ret) {
		fail(r, ret, j->in, "(io_uring setup)");
		return;
	}
	t0 = now_mono();
	for (size_t i = 0; i < j->fl->n && !r->err; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/%s", j->in, j->fl->names[i]);
		fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
		if (fd < 0 || (ret = read_file_ring(&io, fd, j->fl->sizes[i], &r->bytes)))
			fail(r, fd < 0 ? -errno : ret, j->in, j->fl->names[i]);
		if (fd >= 0)
			close(fd);
	}
	r->secs = now_mono() - t0;
}

/* ---- new files: written, copied -------------------------------------- */

/* The run's fsync class on one output: file fsyncs it before close. */
static int close_out(const struct limit_job *j, int fd)
{
	int ret = 0;

	if (j->fsync == FSYNC_FILE && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

/* ... and end syncs the output filesystem once, after every file. */
static int end_sync(const struct limit_job *j)
{
	return j->fsync == FSYNC_END ? syncfs_dir(j->out) : 0;
}

static int open_out(const struct limit_job *j, size_t i, int extra)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", j->out, j->fl->names[i]);
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | extra, 0644);
}

static int write_all(int fd, const uint8_t *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A new file of size bytes from buf (bs long); O_DIRECT writes whole
 * aligned blocks, and the file is cut back to its size. */
static int write_one(const struct limit_job *j, int fd, uint64_t size,
		     const uint8_t *buf, bool direct)
{
	uint64_t off = 0;
	int ret = 0;

	while (!ret && off < size) {
		uint64_t n = MIN(j->bs, size - off);

		if (direct)
			n = (n + ALIGN - 1) / ALIGN * ALIGN;
		ret = write_all(fd, buf, (size_t)n);
		off += n;
	}
	if (!ret && direct && off != size && ftruncate(fd, (off_t)size) < 0)
		ret = -errno;
	return ret;
}

/* Text lines of printable bytes: what the data sets hold. */
static void fill_text(uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = i % 64 == 63 ? '\n' : (uint8_t)('a' + i % 26);
}

static void write_new(const struct limit_job *j, struct limit_result *r, bool direct)
{
	uint8_t *buf;
	double t0;
	int ret = 0;

	if (posix_memalign((void **)&buf, ALIGN, (size_t)j->bs)) {
		fail(r, -ENOMEM, j->out, "(buffer)");
		return;
	}
	fill_text(buf, (size_t)j->bs);
	t0 = now_mono();
	for (size_t i = 0; i < j->fl->n && !ret; i++) {
		int fd = open_out(j, i, direct ? O_DIRECT : 0);

		ret = fd < 0 ? -errno : write_one(j, fd, j->fl->sizes[i], buf, direct);
		if (fd >= 0 && (fd = close_out(j, fd)) && !ret)
			ret = fd;
		if (ret)
			fail(r, ret, j->out, j->fl->names[i]);
		else
			r->bytes += j->fl->sizes[i];
	}
	if (!ret && (ret = end_sync(j)))
		fail(r, ret, j->out, "(syncfs)");
	r->secs = now_mono() - t0;
	free(buf);
}

/* One file, read(2) into buf and write(2) out, or copy_file_range(2). */
static int copy_one(const struct limit_job *j, int in, int out, uint8_t *buf,
		    uint64_t *bytes)
{
	for (;;) {
		ssize_t n = buf ? read(in, buf, (size_t)j->bs) :
			copy_file_range(in, NULL, out, NULL, (size_t)j->bs, 0);
		int ret;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		if (buf && (ret = write_all(out, buf, (size_t)n)))
			return ret;
		*bytes += (uint64_t)n;
	}
}

static void copy_files(const struct limit_job *j, struct limit_result *r, uint8_t *buf)
{
	char path[PATH_MAX];
	double t0 = now_mono();
	int ret = 0;

	for (size_t i = 0; i < j->fl->n && !ret; i++) {
		int in, out = -1;

		snprintf(path, sizeof(path), "%s/%s", j->in, j->fl->names[i]);
		in = open(path, O_RDONLY | O_CLOEXEC);
		if (in >= 0 && (out = open_out(j, i, 0)) >= 0)
			ret = copy_one(j, in, out, buf, &r->bytes);
		else
			ret = -errno;
		if (out >= 0 && (out = close_out(j, out)) && !ret)
			ret = out;
		if (in >= 0)
			close(in);
		if (ret)
			fail(r, ret, in < 0 ? j->in : j->out, j->fl->names[i]);
	}
	if (!ret && (ret = end_sync(j)))
		fail(r, ret, j->out, "(syncfs)");
	r->secs = now_mono() - t0;
}

/* ---- transform: the data set in memory, one thread, no I/O timed ------- */

static int load_all(const struct limit_job *j, uint8_t *buf)
{
	char path[PATH_MAX];
	uint64_t off = 0;

	for (size_t i = 0; i < j->fl->n; i++) {
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", j->in, j->fl->names[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		n = read_full(fd, buf + off, (size_t)j->fl->sizes[i]);
		close(fd);
		if (n < 0)
			return (int)n;
		if ((uint64_t)n != j->fl->sizes[i])
			return -ESTALE; /* the file shrank since the scan */
		off += j->fl->sizes[i];
	}
	return 0;
}

static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The chunk of the transform limit without a bs: uring's default chunk. */
#define TRANSFORM_CHUNK (1u << 20)

/* The transform as a strategy meets it: chunk by chunk (bs, else
 * TRANSFORM_CHUNK) in a buffer
 * the chunk was just copied into, so cache-hot; only the transform's own
 * calls are timed, and their thread CPU is the limit's CPU (the copies in
 * and out are what a strategy's read and write do, not the transform). */
static void transform_chunks(const struct limit_job *j, uint8_t *data, uint8_t *chunk,
			     uint64_t cb, struct limit_result *r)
{
	uint64_t off = 0;

	for (size_t i = 0; i < j->fl->n; i++) {
		uint64_t col = 0, end = off + j->fl->sizes[i]; /* a file starts a line */

		while (off < end) {
			size_t n = (size_t)(end - off < cb ? end - off : cb);
			double t0, c0;

			memcpy(chunk, data + off, n);
			t0 = now_mono();
			c0 = thread_cpu_s();
			transform_chunk(chunk, n, j->work, &col);
			r->user_s += thread_cpu_s() - c0;
			r->secs += now_mono() - t0;
			memcpy(data + off, chunk, n);
			off += n;
		}
	}
	r->bytes = off;
}

/* A record transform's outputs hashed as they come (the reference's sum) */
static int hash_out(void *ctx, const uint8_t *p, size_t n)
{
	XXH3_64bits_update(ctx, p, n);
	return 0;
}

/* A record transform as a strategy meets it: each file fed chunk by chunk
 * from memory through an xform_stream (the partial record carried); only
 * the feeding is timed, its thread CPU the limit's. */
static void records_chunks(const struct limit_job *j, const uint8_t *data, uint64_t cb,
			   struct limit_result *r)
{
	XXH3_state_t *h = XXH3_createState();
	struct xform_stream s;
	uint64_t off = 0;
	int ret = h ? xform_stream_open(&s, j->x, hash_out, h) : -ENOMEM;
	bool opened = !ret;

	if (h)
		XXH3_64bits_reset(h);
	for (size_t i = 0; !ret && i < j->fl->n; i++) {
		uint64_t end = off + j->fl->sizes[i];
		double t0 = now_mono(), c0 = thread_cpu_s();

		for (; !ret && off < end; off += MIN(cb, end - off))
			ret = xform_stream_feed(&s, data + off, (size_t)MIN(cb, end - off));
		if (!ret)
			ret = xform_stream_end(&s);
		r->user_s += thread_cpu_s() - c0;
		r->secs += now_mono() - t0;
	}
	if (ret)
		fail(r, ret, j->in, "(the transform)");
	else
		r->sum = XXH3_64bits_digest(h);
	r->bytes = off;
	if (opened)
		xform_stream_close(&s);
	XXH3_freeState(h);
}

static void transform(const struct limit_job *j, struct limit_result *r)
{
	uint8_t *buf = malloc(j->fl->total ? (size_t)j->fl->total : 1);
	uint64_t cb = j->bs ? j->bs : TRANSFORM_CHUNK;
	uint8_t *chunk = malloc((size_t)cb);
	int ret;

	if (!buf || !chunk) {
		fail(r, -ENOMEM, j->in, "(the data set in memory)");
	} else if ((ret = load_all(j, buf))) {
		fail(r, ret, j->in, "(loading)");
	} else if (j->x && !j->x->in_place) {
		records_chunks(j, buf, cb, r);
	} else {
		transform_chunks(j, buf, chunk, cb, r);
		r->sum = XXH3_64bits(buf, (size_t)r->bytes);
	}
	free(chunk);
	free(buf);
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* The CPU of the measured part: the process's (every thread's) after
 * minus before. */
static void cpu_since(const struct rusage *before, struct limit_result *r)
{
	struct rusage now;

	getrusage(RUSAGE_SELF, &now);
	r->user_s = tv_s(now.ru_utime) - tv_s(before->ru_utime);
	r->sys_s = tv_s(now.ru_stime) - tv_s(before->ru_stime);
}

static void measure(const struct limit_job *j, struct limit_result *r)
{
	uint8_t *buf = NULL;

	switch (j->limit) {
	case LIMIT_READ_DIRECT:
		read_direct(j, r);
		break;
	case LIMIT_WRITE_NEW_BUFFERED:
	case LIMIT_WRITE_NEW_DIRECT:
		write_new(j, r, j->limit == LIMIT_WRITE_NEW_DIRECT);
		break;
	case LIMIT_PAGECACHE_COPY:
		buf = malloc((size_t)j->bs);
		if (!buf) {
			fail(r, -ENOMEM, j->out, "(buffer)");
			break;
		}
		/* fall through */
	case LIMIT_COPY_FILE_RANGE:
		copy_files(j, r, buf);
		break;
	default:
		transform(j, r);
	}
	free(buf);
}

void limit_measure(const struct limit_job *j, struct limit_result *r)
{
	struct rusage before;

	memset(r, 0, sizeof(*r));
	getrusage(RUSAGE_SELF, &before);
	measure(j, r);
	if (j->limit != LIMIT_TRANSFORM) /* it times its own calls */
		cpu_since(&before, r);
}
