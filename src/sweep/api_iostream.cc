// SPDX-License-Identifier: MIT
/*
 * C++ iostreams: std::ifstream/std::ofstream in binary mode, read()/write()
 * per block.  With c->stdio_buf the filebuf gets exactly that buffer via
 * pubsetbuf, which libstdc++ honours only before open(); 0 leaves the
 * filebuf as constructed (libstdc++: BUFSIZ, allocated at open).  ofstream does
 * not expose its descriptor, so fsync goes through a second descriptor of
 * the same file after close (fsync flushes the inode, whichever fd).
 */
#include <cerrno>
#include <fstream>
#include <memory>
#include <new>

#include <fcntl.h>
#include <unistd.h>

#include "vctx.h"

namespace {

int err_or(int fallback)
{
	return errno ? -errno : fallback;
}

#ifdef __GLIBCXX__
/*
 * The buffer a filebuf uses: what pubsetbuf gave it, or libstdc++'s own
 * default (BUFSIZ), which no public call reports.  The size sits in a
 * protected member; a pointer to it, taken inside a derived class, reads
 * it on any filebuf without a cast.
 */
struct filebuf_peek : std::filebuf {
	static size_t size_of(const std::filebuf *b)
	{
		return b->*(&filebuf_peek::_M_buf_size);
	}
};

size_t lib_buf_of(const std::filebuf *b, size_t asked)
{
	(void)asked;
	return filebuf_peek::size_of(b);
}
#else
size_t lib_buf_of(const std::filebuf *b, size_t asked)
{
	(void)b;
	return asked; /* 0: unknown default */
}
#endif

/* The stream's buffer of c->stdio_buf bytes (none: its own default). */
static std::unique_ptr<char[]> own_buffer(const struct vctx *c, std::filebuf *b)
{
	std::unique_ptr<char[]> libbuf;

	if (c->stdio_buf) {
		libbuf.reset(new char[c->stdio_buf]);
		b->pubsetbuf(libbuf.get(), (std::streamsize)c->stdio_buf);
	}
	return libbuf;
}

int read_one(struct vctx *c, const char *path, char *buf)
{
	std::unique_ptr<char[]> libbuf; /* outlives the stream */
	std::ifstream in;

	libbuf = own_buffer(c, in.rdbuf());
	errno = 0;
	in.open(path, std::ios::in | std::ios::binary);
	if (!in.is_open())
		return vctx_fail(c, err_or(-EIO), path, "ifstream open");
	for (;;) {
		in.read(buf, (std::streamsize)c->block);
		std::streamsize n = in.gcount();

		if (n > 0)
			vctx_feed(c, buf, (size_t)n);
		if (!in)
			break;
	}
	if (in.bad())
		return vctx_fail(c, err_or(-EIO), path, "ifstream read");
	c->lib_buf = lib_buf_of(in.rdbuf(), c->stdio_buf);
	return 0;
}

int write_one(struct vctx *c, const char *path)
{
	std::unique_ptr<char[]> libbuf; /* outlives the stream, which flushes into it */
	std::ofstream out;

	libbuf = own_buffer(c, out.rdbuf());
	errno = 0;
	out.open(path, std::ios::out | std::ios::binary | std::ios::trunc);
	if (!out.is_open())
		return vctx_fail(c, err_or(-EIO), path, "ofstream open");
	for (uint64_t off = 0; off < c->size;) {
		uint64_t left = c->size - off;
		size_t len = left < c->block ? (size_t)left : c->block;

		out.write((const char *)vctx_src(c, off, len), (std::streamsize)len);
		if (!out)
			return vctx_fail(c, err_or(-EIO), path, "ofstream write");
		off += len;
		c->bytes += len;
	}
	c->lib_buf = lib_buf_of(out.rdbuf(), c->stdio_buf);
	out.close();
	if (out.fail())
		return vctx_fail(c, err_or(-EIO), path, "ofstream close");
	return 0;
}

int fsync_path(struct vctx *c, const char *path)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return vctx_fail(c, -errno, path, "open for fsync");
	if (fsync(fd) < 0)
		ret = vctx_fail(c, -errno, path, "fsync");
	close(fd);
	return ret;
}

} // namespace

extern "C" int iostream_read(struct vctx *c)
{
	int ret = 0;

	vctx_start(c);
	try {
		std::unique_ptr<char[]> buf(new char[c->block]);

		for (size_t i = 0; !ret && i < c->npaths; i++)
			ret = read_one(c, c->paths[i], buf.get());
	} catch (const std::bad_alloc &) {
		ret = vctx_fail(c, -ENOMEM, c->paths[0], "iostream buffers");
	} catch (...) {
		ret = vctx_fail(c, -EIO, c->paths[0], "iostream exception");
	}
	vctx_stop(c);
	return ret;
}

extern "C" int iostream_write(struct vctx *c)
{
	int ret;

	vctx_start(c);
	try {
		ret = write_one(c, c->paths[0]);
	} catch (const std::bad_alloc &) {
		ret = vctx_fail(c, -ENOMEM, c->paths[0], "iostream buffer");
	} catch (...) {
		ret = vctx_fail(c, -EIO, c->paths[0], "iostream exception");
	}
	if (!ret && c->fsync == FSYNC_FILE)
		ret = fsync_path(c, c->paths[0]);
	vctx_stop(c);
	return ret;
}
