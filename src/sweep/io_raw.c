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
	char *buf;
	int ret = 0;

	c->self_counted = true;
	vctx_start(c);
	buf = malloc(c->block);
	if (!buf)
		return vctx_fail(c, -ENOMEM, "read buffer", "allocating");
	for (size_t i = 0; !ret && i < c->npaths; i++)
		ret = read_one(c, c->paths[i], buf);
	free(buf);
	vctx_stop(c);
	return ret;
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
	const char *path = c->paths[0];
	int fd, ret;

	c->self_counted = true;
	vctx_start(c);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return vctx_fail(c, -errno, path, "open");
	ret = write_blocks(c, fd, path);
	if (!ret && c->fsync == FSYNC_FILE && fsync(fd) < 0)
		ret = vctx_fail(c, -errno, path, "fsync");
	if (close(fd) < 0 && !ret)
		ret = vctx_fail(c, -errno, path, "close");
	vctx_stop(c);
	return ret;
}
