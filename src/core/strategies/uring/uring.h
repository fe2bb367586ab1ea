/* SPDX-License-Identifier: MIT */
/*
 * Internals of the io_uring pipeline (design: see uring.c).
 *
 * Ownership: everything in struct uctx belongs to the reader thread except
 * struct wq, which the reader shares with the workers under wq.lock.  A
 * chunk is owned by exactly one side at a time: the reader (free, reading,
 * waiting in order, writing) or one worker (transforming).
 */
#ifndef IOSTRAT_URING_H
#define IOSTRAT_URING_H

#include <liburing.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/outfile.h"
#include "core/strategy.h"
#include "core/xform.h"

/* Chosen by measurement (README "The io_uring pipeline", Measured):
 * 512 KiB x 16 against 1 MiB x 8, same pool, cold W=0 --fsync end:
 * 0.50 vs 0.60 s on big, 0.57 vs 0.68 s on medium-long, equal on
 * medium-short.  Most of it is the final writeback, faster for the
 * smaller folios that 512 KiB writes make. */
#define URING_DEFAULT_CHUNK (512 * 1024)
#define URING_DEFAULT_QD 16
#define URING_DIRECT_ALIGN 4096

/* What uring's settings table fills (struct job .sopts). */
struct uring_opts {
	bool sqpoll;          /* IORING_SETUP_SQPOLL: a kernel thread polls the SQ */
	unsigned sq_idle_ms;  /* its sq_thread_idle */
};
#define URING_SQ_IDLE_DEFAULT 1000 /* ms: the kernel's own when given 0 */

/* One input file (and its output) from open to commit. */
struct ufile {
	size_t idx;          /* job->files index */
	int in_fd;
	int in_slot;         /* registered-file slot, or -1 */
	struct outfile of;   /* of.fd < 0: no output (sink null) */
	int out_slot;
	uint64_t size;       /* fstat() at open: what we read */
	uint64_t next_off;   /* next chunk to plan */
	uint64_t col;        /* column of the next chunk to dispatch */
	uint64_t total;      /* bytes read */
	unsigned reading;    /* reads in flight */
	unsigned pending;    /* chunks of this file holding a buffer */
	bool planned;        /* every read of the file is issued */
	bool sync_in_flight;
	/* record transforms: the record going on past the last dispatched
	 * chunk (at most IOSTRAT_RECORD_MAX + 1 bytes), and where the next
	 * output goes (the outputs before it, in input order) */
	uint8_t *carry;
	size_t carry_len, carry_cap;
	uint64_t out_off;
	struct ufile *prev, *next; /* list of open files (cleanup) */
};

/* One buffer of the pool, and the chunk of a file it holds. */
struct chunk {
	struct ufile *f;
	uint8_t *buf;
	uint64_t off;        /* file offset of buf[0] */
	uint64_t col;        /* column of buf[0] (set at dispatch) */
	uint32_t want;       /* bytes asked for */
	uint32_t got;        /* bytes read so far */
	uint64_t wlen;       /* bytes to write (got, or aligned up for O_DIRECT) */
	uint64_t wrote;
	uint64_t woff;       /* output offset of wbuf[0] */
	uint64_t olen;       /* output bytes (stats): got, or out_len */
	uint8_t *wbuf;       /* what is written: buf (XOR), or out */
	unsigned idx;        /* registered buffer index */
	bool read_done;
	bool last;           /* the file's last planned chunk */
	struct chunk *next;  /* free list, in-order FIFO, or a wq list */

	/* record transforms: the worker runs head[0..head_len) (the carried
	 * record completed by buf's first bytes) then buf[bstart..bend) */
	uint8_t *head;
	size_t head_len;
	size_t bstart, bend;
	uint8_t *out;        /* the outputs: grown by the worker, kept */
	size_t out_cap, out_len;
	int err;             /* the transform's -errno */
	bool xformed;        /* back from the worker */
	struct chunk *onext; /* the output FIFO (input order) */
};

/* The bounded hand-off to and from the workers. */
struct wq {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct chunk *todo, *todo_tail; /* reader -> workers */
	struct chunk *done, *done_tail; /* workers -> reader */
	bool stop;           /* workers exit when todo is empty */
	bool abort;          /* workers skip the transform (after an error) */
	int efd;             /* eventfd: "done went non-empty" */
	unsigned work;
	const struct xform *xf; /* a record transform, or NULL: the XOR */
};

struct uctx {
	const struct job *job;
	struct run_stats *st;
	struct io_uring ring;
	bool ring_ok;
	unsigned ring_entries;
	const char *ring_flags;
	bool fixed_bufs, fixed_files;
	unsigned nslots;     /* registered-file table size */
	int *slot_free;      /* stack of free slots */
	unsigned nslot_free;

	size_t chunk;
	unsigned qd, nbuf, workers;
	uint8_t *pool;
	size_t pool_bytes;
	size_t pool_map;     /* mapped: pool_bytes rounded up to 2 MiB */
	struct chunk *chunks;
	struct chunk *free;
	unsigned nfree;

	struct chunk *fifo, *fifo_tail; /* reads in issue (= file) order */
	struct chunk *ofifo, *ofifo_tail; /* record transforms: dispatched
					   * chunks waiting for their output
					   * offset, in input order */
	struct ufile *cur;   /* file being planned */
	size_t next_file;
	struct ufile *open;  /* every open file */
	unsigned open_files;
	unsigned reads_inflight;
	unsigned inflight;   /* ops in the ring, the eventfd read excluded */
	unsigned at_workers;
	bool failed;

	struct wq wq;
	pthread_t *tids;
	unsigned started;
	uint64_t efd_val;
	bool efd_armed;

	/* figures for st->extra */
	uint64_t n_reads, n_writes, n_short, n_eagain;
};

/* ring.c: set up / tear down the ring, pool registration, file slots */
int uring_ring_init(struct uctx *c);
void uring_ring_exit(struct uctx *c);
int uring_slot_get(struct uctx *c, int fd);
void uring_slot_put(struct uctx *c, int slot);
struct io_uring_sqe *uring_sqe(struct uctx *c);

/* workers.c */
int uring_workers_start(struct uctx *c);
void uring_workers_stop(struct uctx *c);
void uring_wq_push(struct wq *q, struct chunk *ch);
struct chunk *uring_wq_take_done(struct wq *q);

/* records.c */
int uring_records_split(const struct xform *x, struct chunk *ch);

/* pipeline.c */
int uring_pipeline(struct uctx *c);

#endif
