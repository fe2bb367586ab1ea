// SPDX-License-Identifier: MIT
/* The system calls themselves: one read(2)/write(2) per block, counted. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/util.h"
#include "vctx.h"

static int read_one(struct vctx *c, const char *path, char *buf)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return vctx_fail(c, -errno, path, "open");
	for (;;) {
		ssize_t n = read(fd, buf, c->block);

		c->syscalls++;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			close(fd);
			return vctx_fail(c, err, path, "read");
		}
		if (n == 0)
			break;
		vctx_feed(c, buf, (size_t)n);
	}
	close(fd);
	return 0;
}

int raw_read(struct vctx *c)
{
	c->self_counted = true;
	return vctx_read_each(c, read_one);
}

static int write_blocks(struct vctx *c, int fd, const char *path)
{
	uint64_t off = 0;

	while (off < c->size) {
		size_t len = (size_t)MIN((uint64_t)c->block, c->size - off);
		ssize_t n = write(fd, vctx_src(c, off, len), len);

		c->syscalls++;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return vctx_fail(c, -errno, path, "write");
		if (n == 0)
			return vctx_fail(c, -EIO, path, "write returned 0");
		off += (uint64_t)n;
		c->bytes += (uint64_t)n;
	}
	return 0;
}

int raw_write(struct vctx *c)
{
	c->self_counted = true;
	return vctx_write_file(c, O_WRONLY, write_blocks);
}
