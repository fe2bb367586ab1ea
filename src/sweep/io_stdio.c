// SPDX-License-Identifier: MIT
/*
 * C stdio: fread/fwrite per block.  With c->stdio_buf the stream gets a
 * buffer of exactly that size via setvbuf (glibc ignores the size when
 * setvbuf's buffer is NULL, so we pass our own); 0 keeps glibc's default
 * (st_blksize, capped at BUFSIZ).  The calls stdio makes are counted by
 * the kernel (/proc/self/io), not by us.
 */
#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/util.h"
#include "vctx.h"

static int set_buffer(struct vctx *c, FILE *f, char **libbuf, const char *path)
{
	if (!c->stdio_buf)
		return 0;
	*libbuf = malloc(c->stdio_buf);
	if (!*libbuf)
		return vctx_fail(c, -ENOMEM, path, "stdio buffer");
	if (setvbuf(f, *libbuf, _IOFBF, c->stdio_buf))
		return vctx_fail(c, -EINVAL, path, "setvbuf");
	return 0;
}

static int read_one(struct vctx *c, const char *path, char *buf)
{
	FILE *f = fopen(path, "re");
	char *libbuf = NULL;
	size_t n;
	int ret;

	if (!f)
		return vctx_fail(c, -errno, path, "fopen");
	ret = set_buffer(c, f, &libbuf, path);
	while (!ret && (n = fread(buf, 1, c->block, f)) > 0)
		vctx_feed(c, buf, n);
	if (!ret && ferror(f))
		ret = vctx_fail(c, errno ? -errno : -EIO, path, "fread");
	c->lib_buf = __fbufsize(f);
	fclose(f);
	free(libbuf);
	return ret;
}

int stdio_read(struct vctx *c)
{
	return vctx_read_each(c, read_one);
}

static int write_blocks(struct vctx *c, FILE *f, const char *path)
{
	for (uint64_t off = 0; off < c->size;) {
		size_t len = (size_t)MIN((uint64_t)c->block, c->size - off);

		if (fwrite(vctx_src(c, off, len), 1, len, f) != len)
			return vctx_fail(c, errno ? -errno : -EIO, path, "fwrite");
		off += len;
		c->bytes += len;
	}
	if (fflush(f))
		return vctx_fail(c, errno ? -errno : -EIO, path, "fflush");
	if (c->fsync == FSYNC_FILE && fsync(fileno(f)) < 0)
		return vctx_fail(c, -errno, path, "fsync");
	return 0;
}

int stdio_write(struct vctx *c)
{
	const char *path = c->paths[0];
	char *libbuf = NULL;
	FILE *f;
	int ret;

	vctx_start(c);
	f = fopen(path, "we");
	if (!f)
		return vctx_fail(c, -errno, path, "fopen");
	ret = set_buffer(c, f, &libbuf, path);
	if (!ret)
		ret = write_blocks(c, f, path);
	c->lib_buf = __fbufsize(f);
	if (fclose(f) && !ret)
		ret = vctx_fail(c, errno ? -errno : -EIO, path, "fclose");
	free(libbuf);
	vctx_stop(c);
	return ret;
}
