/* SPDX-License-Identifier: MIT */
/*
 * What one measured variant of a sweep gets in its forked child, and the
 * few helpers every variant (C or C++) uses.  Shared with
 * api_iostream.cc, so plain C only.
 *
 * A variant function opens, moves the data, closes, and returns 0 or a
 * negative errno after vctx_fail().  It brackets exactly the measured part
 * with vctx_start()/vctx_stop(): building the source data for a write is
 * outside (a program that writes already has its data), opening,
 * allocating its own buffer, every read/write, fsync and closing are
 * inside.
 */
#ifndef IOSTRAT_SWEEP_VCTX_H
#define IOSTRAT_SWEEP_VCTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#include <xxhash.h>

#include "core/strategy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* /proc/self/io: the kernel's own count of read- and write-family calls. */
struct pio {
	uint64_t syscr, syscw;
};

struct vctx {
	/* the job */
	const char *const *paths; /* reads: every file, in order; writes: one */
	size_t npaths;
	uint64_t size;        /* write: bytes to write; read: unused */
	size_t block;         /* bytes per call/buffer (whole file: == size) */
	size_t stdio_buf;     /* stdio/iostream buffer; 0 = library default */
	enum fsync_mode fsync; /* writes: FSYNC_FILE fsyncs before close, inside
	                        * the time; FSYNC_NONE does not */
	uint64_t seed;        /* source data of a write (sweep_pattern) */
	bool corrupt;         /* test hook: flip one bit of the data */

	/* source data for writes: src[i] = data[i % period], len >= period + block */
	unsigned char *src;
	size_t period;

	/* results */
	XXH3_state_t *xs;     /* every byte read goes through vctx_feed() */
	uint64_t syscalls;    /* read/write calls the variant made itself */
	bool self_counted;    /* syscalls is the variant's own count (raw, mmap);
	                       * else the library made them: use /proc/self/io */
	uint64_t bytes;       /* bytes moved */
	size_t lib_buf;       /* buffer size the library really used, 0 = n/a */
	int err;
	char errmsg[256];

	/* the measured interval */
	double t0, t1;
	struct rusage r0, r1;
	struct pio io0, io1;
	bool flipped;         /* the corrupt hook has acted */
	int io_fd;            /* /proc/self/io, or -1 */
	unsigned io_self;     /* reads a snapshot itself adds to syscr */
};

void vctx_start(struct vctx *c);
void vctx_stop(struct vctx *c);
/* Hand n bytes the variant read to the consumer (xxh3 of the stream). */
void vctx_feed(struct vctx *c, const void *p, size_t n);
/* The n source bytes at offset off of the data being written. */
const unsigned char *vctx_src(const struct vctx *c, uint64_t off, size_t n);
/* Record a failure: "PATH: WHAT: strerror" (err is -errno); returns err. */
int vctx_fail(struct vctx *c, int err, const char *path, const char *what);

typedef int (*variant_fn)(struct vctx *c);

/* The measured part of a reading variant: each of c's files read by one,
 * with a buffer of c->block bytes. */
int vctx_read_each(struct vctx *c, int (*one)(struct vctx *c, const char *path, char *buf));
/* The measured part of a writing variant: c's file opened with flags
 * (O_CREAT | O_TRUNC added), filled by fill, fsynced when c->fsync asks,
 * closed. */
int vctx_write_file(struct vctx *c, int flags,
		    int (*fill)(struct vctx *c, int fd, const char *path));

/* The variants (src/sweep/io_*.c, api_iostream.cc). */
int raw_read(struct vctx *c);
int raw_write(struct vctx *c);
int stdio_read(struct vctx *c);
int stdio_write(struct vctx *c);
int mmap_read(struct vctx *c);
int mmap_write(struct vctx *c);
int iostream_read(struct vctx *c);
int iostream_write(struct vctx *c);

#ifdef __cplusplus
}
#endif

#endif
