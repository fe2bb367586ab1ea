// SPDX-License-Identifier: MIT
/*
 * mmap: reads hash the mapping in place, one block at a time (no copy is
 * mmap's point); writes size the file with ftruncate and copy each block
 * into a shared mapping.  No read/write calls at all: the data moves by
 * page faults (minflt/majflt in the row).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "vctx.h"

static int read_one(struct vctx *c, const char *path)
{
	struct stat sb;
	size_t size;
	char *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return vctx_fail(c, -errno, path, "open");
	if (fstat(fd, &sb) < 0) {
		int err = -errno;

		close(fd);
		return vctx_fail(c, err, path, "fstat");
	}
	size = (size_t)sb.st_size;
	if (!size) {
		close(fd);
		return 0;
	}
	p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return vctx_fail(c, -errno, path, "mmap");
	madvise(p, size, MADV_SEQUENTIAL);
	for (size_t off = 0; off < size; off += c->block)
		vctx_feed(c, p + off, MIN(c->block, size - off));
	munmap(p, size);
	return 0;
}

int mmap_read(struct vctx *c)
{
	int ret = 0;

	c->self_counted = true;
	vctx_start(c);
	for (size_t i = 0; !ret && i < c->npaths; i++)
		ret = read_one(c, c->paths[i]);
	vctx_stop(c);
	return ret;
}

static int fill_map(struct vctx *c, int fd, const char *path)
{
	size_t size = (size_t)c->size;
	char *p;

	if (ftruncate(fd, (off_t)size) < 0)
		return vctx_fail(c, -errno, path, "ftruncate");
	if (!size)
		return 0;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return vctx_fail(c, -errno, path, "mmap");
	for (size_t off = 0; off < size; off += c->block) {
		size_t len = MIN(c->block, size - off);

		memcpy(p + off, vctx_src(c, off, len), len);
		c->bytes += len;
	}
	munmap(p, size);
	return 0;
}

int mmap_write(struct vctx *c)
{
	c->self_counted = true;
	return vctx_write_file(c, O_RDWR, fill_map);
}
