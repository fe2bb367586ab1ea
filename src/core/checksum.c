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

static int hash_all(const char *dir, const struct filelist *fl, int work,
		    uint64_t *sum, const char **bad)
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
		ret = hash_file(h, badpath, work, buf);
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
	return hash_all(dir, fl, -1, sum, bad);
}

int checksum_reference(const char *dir, const struct filelist *fl,
		       unsigned work, uint64_t *sum, const char **bad)
{
	return hash_all(dir, fl, (int)work, sum, bad);
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

int verify_outputs(const char *in, const char *out, const struct filelist *fl,
		   unsigned work, size_t *file, uint64_t *offset,
		   const char **why)
{
	uint8_t *a = malloc(CK_BUF), *b = malloc(CK_BUF);
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
		ret = cmp_one(fa, fb, work, a, b, offset);
		close(fa);
		close(fb);
	}
out:
	free(a);
	free(b);
	return ret;
}
