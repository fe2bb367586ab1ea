// SPDX-License-Identifier: MIT
/* direct's output for a record transform: outputs staged in an aligned buffer, written O_DIRECT in whole chunks, the last block padded and the file truncated to its length. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "direct.h"

/* A full staging buffer out at s->off (sink null: only counted). */
static int stage_flush(struct direct_stage *s)
{
	int ret = 0;

	if (s->fd >= 0)
		ret = pwrite_full(s->fd, s->buf, s->used, s->off);
	s->off += (off_t)s->used;
	s->used = 0;
	return ret;
}

/* xform_stream's sink: outputs appended, a chunk written as it fills. */
static int stage_sink(void *ctx, const uint8_t *p, size_t n)
{
	struct direct_stage *s = ctx;

	while (n) {
		size_t k = MIN(s->dc->chunk - s->used, n);
		int ret;

		memcpy(s->buf + s->used, p, k);
		s->used += k;
		s->total += k;
		p += k;
		n -= k;
		if (s->used == s->dc->chunk && (ret = stage_flush(s))) {
			s->werr = ret;
			return ret;
		}
	}
	return 0;
}

int direct_stage_open(struct direct_stage *s, const struct job *job,
		      const struct direct_conf *dc)
{
	void *p = NULL;

	memset(s, 0, sizeof(*s));
	s->dc = dc;
	s->fd = -1;
	if (posix_memalign(&p, dc->mem_align, dc->chunk))
		return -ENOMEM;
	s->buf = p;
	return xform_stream_open(&s->xs, job->xform, stage_sink, s);
}

void direct_stage_close(struct direct_stage *s)
{
	if (s->xs.w.x)
		xform_stream_close(&s->xs);
	free(s->buf);
	s->buf = NULL;
}

void direct_stage_begin(struct direct_stage *s, int out)
{
	s->fd = out;
	s->off = 0;
	s->used = 0;
	s->total = 0;
	s->werr = 0;
	s->xs.carry_len = 0; /* a file that failed may have left a record */
	s->xs.ctx = s;
}

/* A failure: the write's, or the transform's. */
static int stage_failed(const struct job *job, const struct direct_stage *s, int ret,
			struct run_stats *st, const char *inpath, const char *outpath)
{
	if (s->werr)
		return stats_fail(st, ret, outpath, "write (O_DIRECT)");
	return stats_failf(st, ret, inpath, "transform %s: %s", job->xform->name,
			   strerror(-ret));
}

int direct_stage_feed(const struct job *job, struct direct_stage *s, const uint8_t *in,
		      size_t len, struct run_stats *st, const char *inpath,
		      const char *outpath)
{
	int ret = xform_stream_feed(&s->xs, in, len);

	return ret ? stage_failed(job, s, ret, st, inpath, outpath) : 0;
}

/* The last block: written padded, the output truncated to its length. */
static int stage_tail(struct direct_stage *s)
{
	bool tail;
	int ret;

	if (s->fd < 0 || !s->used)
		return 0;
	ret = direct_write(s->fd, s->buf, s->used, s->off, s->dc, &tail);
	if (ret)
		s->werr = ret;
	return ret;
}

int direct_stage_end(const struct job *job, struct direct_stage *s, struct run_stats *st,
		     const char *inpath, const char *outpath)
{
	int ret = xform_stream_end(&s->xs);

	if (!ret)
		ret = stage_tail(s);
	if (ret)
		return stage_failed(job, s, ret, st, inpath, outpath);
	if (s->fd >= 0)
		stats_add_out(st, s->total);
	return 0;
}
