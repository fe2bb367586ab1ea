// SPDX-License-Identifier: MIT
/* xxh3-64 checksums of files and of the reference transform, and the first differing byte. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "checksum.h"
#include "reference.h"
#include "transform.h"
#include "lib/util.h"

#define CK_BUF (1 << 20)

static char badpath[PATH_MAX];
volatile sig_atomic_t checksum_stop;

/* Feed one file (transformed when work >= 0) into the hash state. */
static int hash_file(XXH3_state_t *h, const char *path, int work, uint8_t *buf)
{
	uint64_t col = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	/* smaller steps the heavier the transform: checksum_stop is looked at
	 * every step (1 MiB at work 0, 4 KiB from work 16320 on) */
	size_t step = MAX((size_t)4096, CK_BUF / (1 + (size_t)MAX(work, 0) / 64));

	for (;;) {
		ssize_t n = checksum_stop ? -EINTR : read_full(fd, buf, step);

		if (n < 0) {
			close(fd);
			return (int)n;
		}
		if (n == 0)
			break;
		if (work >= 0)
			transform_chunk(buf, (size_t)n, (unsigned)work, &col);
		XXH3_64bits_update(h, buf, (size_t)n);
	}
	close(fd);
	return 0;
}

static int hash_sink(void *ctx, const uint8_t *p, size_t n)
{
	XXH3_64bits_update(ctx, p, n);
	return checksum_stop ? -EINTR : 0;
}

/* Feed one file as x's reference gives it (a record transform). */
static int hash_records(XXH3_state_t *h, const char *path, const struct xform *x)
{
	return reference_file(x, path, hash_sink, h);
}

static int hash_all(const char *dir, const struct filelist *fl, const struct xform *x,
		    int work, uint64_t *sum, const char **bad)
{
	XXH3_state_t *h = XXH3_createState();
	uint8_t *buf = malloc(CK_BUF);
	int ret = 0;

	*bad = dir;
	if (!h || !buf) {
		ret = -ENOMEM;
		goto out;
	}
	XXH3_64bits_reset(h);
	for (size_t i = 0; i < fl->n && !ret; i++) {
		snprintf(badpath, sizeof(badpath), "%s/%s", dir, fl->names[i]);
		*bad = badpath;
		ret = x ? hash_records(h, badpath, x) : hash_file(h, badpath, work, buf);
	}
	if (!ret) {
		*sum = XXH3_64bits_digest(h);
		*bad = NULL;
	}
out:
	XXH3_freeState(h);
	free(buf);
	return ret;
}

int checksum_files(const char *dir, const struct filelist *fl, uint64_t *sum,
		   const char **bad)
{
	return hash_all(dir, fl, NULL, -1, sum, bad);
}

int checksum_reference(const char *dir, const struct filelist *fl,
		       const struct xform *x, unsigned work, uint64_t *sum,
		       const char **bad)
{
	static char why[128];
	uint64_t again;
	int ret;

	if (!x || x->in_place)
		return hash_all(dir, fl, NULL, (int)work, sum, bad);
	ret = hash_all(dir, fl, x, 0, sum, bad);
	if (!ret)
		ret = hash_all(dir, fl, x, 0, &again, bad);
	if (!ret && again != *sum) {
		snprintf(why, sizeof(why), "transform %.60s: two reference runs differ: "
			 "it is not deterministic", x->name);
		*bad = why;
		return -EILSEQ;
	}
	return ret;
}

void checksum_hex(uint64_t sum, char out[17])
{
	snprintf(out, 17, "%016" PRIx64, sum);
}

static int cmp_one(int in, int out, unsigned work, uint8_t *a, uint8_t *b,
		   uint64_t *offset)
{
	uint64_t col = 0, pos = 0;

	for (;;) {
		ssize_t na = read_full(in, a, CK_BUF);
		ssize_t nb = read_full(out, b, CK_BUF);
		size_t n;

		if (na < 0)
			return (int)na;
		if (nb < 0)
			return (int)nb;
		transform_chunk(a, (size_t)na, work, &col);
		n = (size_t)MIN(na, nb);
		for (size_t i = 0; i < n; i++) {
			if (a[i] != b[i]) {
				*offset = pos + i;
				return 1;
			}
		}
		if (na != nb) {
			*offset = pos + n;
			return 1;
		}
		if (na == 0)
			return 0;
		pos += (uint64_t)na;
	}
}

/* What the reference gives, against the output read alongside. */
struct cmp_ctx {
	int fd;
	uint8_t *b;
	uint64_t pos;
	bool differs;
};

static int cmp_sink(void *ctx, const uint8_t *p, size_t n)
{
	struct cmp_ctx *c = ctx;

	while (n && !c->differs) {
		ssize_t nb = read_full(c->fd, c->b, MIN(n, (size_t)CK_BUF));

		if (nb < 0)
			return (int)nb;
		for (ssize_t i = 0; i < nb; i++)
			if (p[i] != c->b[i]) {
				c->pos += (uint64_t)i;
				c->differs = true;
				return 0;
			}
		c->pos += (uint64_t)nb;
		if ((size_t)nb < MIN(n, (size_t)CK_BUF)) {
			c->differs = true; /* the output ends early */
			return 0;
		}
		p += nb;
		n -= (size_t)nb;
	}
	return 0;
}

/* cmp_one for a record transform: 0, 1 (*offset), or -errno. */
static int cmp_records(const char *in_path, int out, const struct xform *x,
		       uint8_t *b, uint64_t *offset)
{
	struct cmp_ctx c = { .fd = out, .b = b };
	int ret = reference_file(x, in_path, cmp_sink, &c);
	uint8_t extra;

	if (ret)
		return ret;
	if (!c.differs && read_full(out, &extra, 1) == 1)
		c.differs = true; /* the output goes on past the reference */
	*offset = c.pos;
	return c.differs;
}

int verify_outputs(const char *in, const char *out, const struct filelist *fl,
		   const struct xform *x, unsigned work, size_t *file,
		   uint64_t *offset, const char **why)
{
	uint8_t *a = malloc(CK_BUF), *b = malloc(CK_BUF);
	char inpath[PATH_MAX];
	int ret = 0;

	*why = NULL;
	if (!a || !b) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < fl->n && !ret; i++) {
		int fa, fb;

		*file = i;
		snprintf(badpath, sizeof(badpath), "%s/%s", in, fl->names[i]);
		fa = open(badpath, O_RDONLY | O_CLOEXEC);
		if (fa < 0) {
			ret = -errno;
			*why = badpath;
			break;
		}
		snprintf(badpath, sizeof(badpath), "%s/%s", out, fl->names[i]);
		fb = open(badpath, O_RDONLY | O_CLOEXEC);
		if (fb < 0) {
			ret = -errno;
			*why = badpath;
			close(fa);
			break;
		}
		snprintf(inpath, sizeof(inpath), "%s/%s", in, fl->names[i]);
		ret = x && !x->in_place ? cmp_records(inpath, fb, x, b, offset) :
		      cmp_one(fa, fb, work, a, b, offset);
		close(fa);
		close(fb);
	}
out:
	free(a);
	free(b);
	return ret;
}
