// SPDX-License-Identifier: MIT
/* The helpers of a sweep variant: its measured bracket, its data and its failure. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "vctx.h"

/* One pread of /proc/self/io: the kernel counts it in the next snapshot
 * (measure.c calibrates that as io_self). */
static void pio_read(const struct vctx *c, struct pio *p)
{
	char buf[512], *s;
	ssize_t n;

	memset(p, 0, sizeof(*p));
	if (c->io_fd < 0)
		return;
	n = pread(c->io_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return;
	buf[n] = 0;
	s = strstr(buf, "syscr:");
	if (s)
		p->syscr = strtoull(s + 6, NULL, 10);
	s = strstr(buf, "syscw:");
	if (s)
		p->syscw = strtoull(s + 6, NULL, 10);
}

void vctx_start(struct vctx *c)
{
	pio_read(c, &c->io0);
	getrusage(RUSAGE_SELF, &c->r0);
	c->t0 = now_mono();
}

void vctx_stop(struct vctx *c)
{
	c->t1 = now_mono();
	getrusage(RUSAGE_SELF, &c->r1);
	pio_read(c, &c->io1);
}

void vctx_feed(struct vctx *c, const void *p, size_t n)
{
	c->bytes += n;
	if (c->corrupt && !c->flipped && n) {
		unsigned char b = *(const unsigned char *)p ^ 1;

		c->flipped = true;
		XXH3_64bits_update(c->xs, &b, 1);
		p = (const unsigned char *)p + 1;
		n--;
	}
	XXH3_64bits_update(c->xs, p, n);
}

const unsigned char *vctx_src(const struct vctx *c, uint64_t off, size_t n)
{
	(void)n; /* measure.c sized src for the largest n of this variant */
	return c->src + off % c->period;
}

int vctx_fail(struct vctx *c, int err, const char *path, const char *what)
{
	if (!c->err) {
		c->err = err;
		snprintf(c->errmsg, sizeof(c->errmsg), "%s: %s: %s", path, what,
			 strerror(-err));
	}
	return err;
}

int vctx_read_each(struct vctx *c, int (*one)(struct vctx *c, const char *path, char *buf))
{
	char *buf;
	int ret = 0;

	vctx_start(c);
	buf = malloc(c->block);
	if (!buf)
		return vctx_fail(c, -ENOMEM, "read buffer", "allocating");
	for (size_t i = 0; !ret && i < c->npaths; i++)
		ret = one(c, c->paths[i], buf);
	free(buf);
	vctx_stop(c);
	return ret;
}

int vctx_write_file(struct vctx *c, int flags,
		    int (*fill)(struct vctx *c, int fd, const char *path))
{
	const char *path = c->paths[0];
	int fd, ret;

	vctx_start(c);
	fd = open(path, flags | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return vctx_fail(c, -errno, path, "open");
	ret = fill(c, fd, path);
	/* for mmap, fsync writes back the dirty shared pages, as msync would */
	if (!ret && c->fsync == FSYNC_FILE && fsync(fd) < 0)
		ret = vctx_fail(c, -errno, path, "fsync");
	if (close(fd) < 0 && !ret)
		ret = vctx_fail(c, -errno, path, "close");
	vctx_stop(c);
	return ret;
}
