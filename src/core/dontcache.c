// SPDX-License-Identifier: MIT
/* Uncached buffered I/O (RWF_DONTCACHE): the kernel's probe, and reads and writes with the flag. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "dontcache.h"
#include "lib/util.h"

/* A temporary file in $TMPDIR or /var/tmp, already unlinked: fd or -errno. */
static int probe_file(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/var/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
		return fd < 0 ? -errno : fd;
	snprintf(path, sizeof(path), "%s/iostrat-probe-XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(path);
	return fd;
}

/* 0: the kernel took the flag on a write and a read; else -errno. */
static int probe_once(void)
{
	static char page[4096];
	struct iovec iov = { page, sizeof(page) };
	int fd = probe_file(), ret = 0;

	if (fd < 0)
		return fd;
	if (pwritev2(fd, &iov, 1, 0, RWF_DONTCACHE) < 0 ||
	    preadv2(fd, &iov, 1, 0, RWF_DONTCACHE) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int dontcache_probe(char *why, size_t len)
{
	static int known = 1; /* 1: not probed yet */
	const char *fake = getenv("IOSTRAT_FAKE_NO_DONTCACHE");
	struct utsname u;

	if (known == 1)
		known = fake && !strcmp(fake, "1") ? -EOPNOTSUPP : probe_once();
	if (!known)
		return 0;
	uname(&u);
	if (known == -EOPNOTSUPP || known == -EINVAL)
		snprintf(why, len, "--dontcache: this kernel (%s) does not support "
			 "RWF_DONTCACHE (needs %s or later)", u.release, DONTCACHE_SINCE);
	else
		snprintf(why, len, "--dontcache: cannot probe RWF_DONTCACHE on this "
			 "kernel (%s): a temporary file: %s", u.release, strerror(-known));
	return 1;
}

int job_rwf(const struct job *job)
{
	return job->dontcache ? RWF_DONTCACHE : 0;
}

ssize_t read_rwf(int fd, void *buf, size_t n, int rwf)
{
	struct iovec iov = { buf, n };

	return rwf ? preadv2(fd, &iov, 1, -1, rwf) : read(fd, buf, n);
}

ssize_t read_full_rwf(int fd, void *buf, size_t n, int rwf)
{
	size_t done = 0;

	if (!rwf)
		return read_full(fd, buf, n);
	while (done < n) {
		ssize_t k = read_rwf(fd, (char *)buf + done, n - done, rwf);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			break;
		done += (size_t)k;
	}
	return (ssize_t)done;
}

int write_full_rwf(int fd, const void *buf, size_t n, int rwf)
{
	size_t done = 0;

	if (!rwf)
		return write_full(fd, buf, n);
	while (done < n) {
		struct iovec iov = { (char *)buf + done, n - done };
		ssize_t k = pwritev2(fd, &iov, 1, -1, rwf);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			return -EIO;
		done += (size_t)k;
	}
	return 0;
}
