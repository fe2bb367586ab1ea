/* SPDX-License-Identifier: MIT */
/* Shared between direct.c (qd 1) and direct_pipe.c (qd 2 read-ahead). */
#ifndef IOSTRAT_STRATEGIES_DIRECT_H
#define IOSTRAT_STRATEGIES_DIRECT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/outfile.h"
#include "core/per_file.h"
#include "core/xform.h"

struct direct_conf {
	size_t align;      /* file offset and length alignment */
	size_t mem_align;  /* buffer alignment (>= align, >= page) */
	size_t chunk;      /* bytes per read/write, a multiple of align */
	unsigned qd;       /* 1, or 2: one chunk read ahead */
	const char *align_source; /* statx, logical_block_size, default */
};

/* The job's conf, set by direct_run() before any thread starts. */
const struct direct_conf *direct_run_conf(void);

/* One clear error naming the filesystem of path and suggesting another
 * strategy; returns -EINVAL. */
int direct_refuse(struct run_stats *st, const char *path, const char *why);
/* tmpfs and ramfs serve O_DIRECT from the page cache or refuse it: a
 * "direct" result there would be a lie.  0, or direct_refuse(). */
int direct_check_fs(const char *dir, struct run_stats *st);
/* direct_check_fs on job's IN and (unless sink null) OUT, as a
 * strategy.check_where: 0, or 1 and the refusal in why. */
int direct_check_where(const struct job *job, char *why, size_t len);
int direct_check_file(int fd, const char *path, const struct direct_conf *dc,
		      struct run_stats *st);
ssize_t direct_read(int fd, void *buf, size_t len, off_t off);
/* A read's count n recorded: -errno (the failure, recorded in st), 1 at
 * the end of the file, 0 with n bytes in. */
int direct_took(struct run_stats *st, ssize_t n, const char *inpath);
/* The XOR of buf[0..n) in place (column *col on), written at off unless
 * out < 0 (sink null): 0, or the write's failure recorded in st.  An
 * unaligned n is the file's tail: nothing may follow it. */
int direct_xor_out(const struct job *job, uint8_t *buf, size_t n, int out, off_t off,
		   const struct direct_conf *dc, uint64_t *col, struct run_stats *st,
		   const char *outpath);
int direct_write(int fd, uint8_t *buf, size_t n, off_t off,
		 const struct direct_conf *dc, bool *tail);

/* Open both ends of file idx with O_DIRECT, run loop, commit or abort.
 * out is -1 with --sink null. */
typedef int (*direct_loop_fn)(const struct job *job, int in, int out,
			      void *ctx, struct run_stats *st,
			      const char *inpath, const char *outpath);
int direct_file_io(const struct job *job, size_t idx,
		   const struct direct_conf *dc, struct run_stats *st,
		   direct_loop_fn loop, void *ctx);

/*
 * A record transform's output (direct_stage.c): the read chunks fed to an
 * xform_stream (a record crossing chunks carried), its outputs appended
 * to an aligned staging buffer of one chunk written O_DIRECT each time it
 * fills; at the end the last block is written padded and the output
 * ftruncate'd to its length (direct_write).  Memory per worker, beside the
 * read buffers: the staging chunk, the stream's output buffer (the
 * outputs of one chunk's records) and its carry (the longest record
 * crossing a chunk boundary, at most IOSTRAT_RECORD_MAX).
 */
struct direct_stage {
	const struct direct_conf *dc;
	uint8_t *buf;        /* dc->chunk bytes, dc->mem_align aligned */
	size_t used;
	int fd;              /* the output; -1: sink null (only counted) */
	off_t off;           /* where buf goes in the output */
	uint64_t total;      /* this file's output bytes */
	int werr;            /* the write error, kept apart from the transform's */
	struct xform_stream xs; /* xs.w.x NULL: not open (the XOR) */
};
int direct_stage_open(struct direct_stage *s, const struct job *job,
		      const struct direct_conf *dc);
void direct_stage_close(struct direct_stage *s);
/* A new file, its output out (-1: sink null). */
void direct_stage_begin(struct direct_stage *s, int out);
/* The next bytes read, in order: 0, or the failure reported in st (the
 * transform's named "transform NAME" with inpath, a write's with outpath). */
int direct_stage_feed(const struct job *job, struct direct_stage *s, const uint8_t *in,
		      size_t len, struct run_stats *st, const char *inpath,
		      const char *outpath);
/* The end of the file: its last record, the padded tail, the truncate,
 * the output bytes counted; 0 or the failure reported as feed's. */
int direct_stage_end(const struct job *job, struct direct_stage *s, struct run_stats *st,
		     const char *inpath, const char *outpath);

extern const struct per_file_ops direct_pipe_ops;

#endif
