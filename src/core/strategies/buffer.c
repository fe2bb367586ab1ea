// SPDX-License-Identifier: MIT
/*
 * buffer: read the whole file into memory, transform it, write it whole.
 * Memory is O(file size x threads) by design -- that is what it measures.
 * A file that grows while being read is read to its real EOF.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/dontcache.h"
#include "core/outfile.h"
#include "core/per_file.h"
#include "core/transform.h"
#include "core/xform.h"
#include "lib/util.h"

static int slurp(int fd, int rwf, uint8_t **bufp, size_t *lenp)
{
	struct stat sb;
	size_t cap, len = 0;
	uint8_t *buf;

	if (fstat(fd, &sb) < 0)
		return -errno;
	cap = (size_t)sb.st_size + 1; /* +1: see EOF without a realloc */
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = read_full_rwf(fd, buf + len, cap - len, rwf);

		if (n < 0) {
			free(buf);
			return (int)n;
		}
		len += (size_t)n;
		if (len < cap)
			break;
		uint8_t *nb = realloc(buf, cap * 2);

		if (!nb) {
			free(buf);
			return -ENOMEM;
		}
		buf = nb;
		cap *= 2;
	}
	*bufp = buf;
	*lenp = len;
	return 0;
}

/* The whole file through a record transform: *buf becomes the outputs
 * (a buffer of their own), *len their length.  0 or -errno. */
static int records(struct xform_worker *w, uint8_t **buf, size_t *len)
{
	uint8_t *out = malloc(xform_out_bound(w->x, *buf, *len) + 1);
	ssize_t n;

	if (!out)
		return -ENOMEM;
	n = xform_run(w, *buf, *len, out);
	if (n < 0) {
		free(out);
		return (int)n;
	}
	free(*buf);
	*buf = out;
	*len = (size_t)n;
	return 0;
}

/* The XOR in place, or ctx's record transform. */
static int transform(const struct job *job, void *ctx, uint8_t **buf, size_t *len)
{
	uint64_t col = 0;

	if (!ctx) {
		transform_chunk(*buf, *len, job->work, &col);
		return 0;
	}
	return records(ctx, buf, len);
}

static int buffer_file(const struct job *job, size_t idx, void *ctx,
		       struct run_stats *st)
{
	char in[PATH_MAX];
	struct outfile of;
	uint8_t *buf = NULL;
	size_t len = 0;
	int fd, ret;

	job_in_path(job, idx, in, sizeof(in));
	fd = open(in, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return stats_fail(st, -errno, in, "open");
	ret = slurp(fd, job_rwf(job), &buf, &len);
	close(fd);
	if (ret)
		return stats_fail(st, ret, in, "read");
	stats_add_in(st, len);
	ret = transform(job, ctx, &buf, &len);
	if (ret) {
		free(buf);
		return stats_failf(st, ret, in, "transform %s: %s", job->xform->name,
				   xform_strerror(ret));
	}
	if (job->sink == SINK_NULL) {
		free(buf);
		return 0;
	}
	ret = out_open(job, idx, 0, &of);
	if (ret) {
		free(buf);
		return stats_fail(st, ret, of.tmp, "create");
	}
	ret = write_full_rwf(of.fd, buf, len, job_rwf(job));
	free(buf);
	if (ret)
		ret = stats_fail(st, ret, of.path, "write");
	ret = out_finish(job, &of, ret, st);
	if (!ret)
		stats_add_out(st, len);
	return ret;
}

/* A thread's record-transform state (ctx NULL: the XOR in place). */
static int buffer_init(const struct job *job, struct run_stats *st, void **ctx)
{
	struct xform_worker *w;
	int ret;

	(void)st;
	*ctx = NULL;
	if (job_xform_in_place(job))
		return 0;
	w = malloc(sizeof(*w));
	if (!w)
		return -ENOMEM;
	ret = xform_worker_init(job->xform, w);
	if (ret)
		free(w);
	else
		*ctx = w;
	return ret;
}

static void buffer_fini(void *ctx)
{
	if (ctx)
		xform_worker_fini(ctx);
	free(ctx);
}

static const struct per_file_ops buffer_ops = PER_FILE_OPS(buffer);

static int buffer_run(const struct job *job, struct run_stats *st)
{
	return per_file_run(job, st, &buffer_ops);
}

const struct strategy strategy_buffer = {
	STRATEGY(buffer),
	.summary = "read the whole file, transform it, write it whole (memory: file x threads)",
	.flags = STRAT_REPORT_BASE | STRAT_DONTCACHE | STRAT_WHOLE_FILE | STRAT_RECORDS,
};
