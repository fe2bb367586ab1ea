// SPDX-License-Identifier: MIT
/* Uncached buffered I/O (RWF_DONTCACHE): the kernel's probe, and reads and writes with the flag. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "dontcache.h"
#include "lib/util.h"

/* Where to probe: the first of $TMPDIR, /var/tmp, /tmp that is not in
 * memory (tmpfs and ramfs never take the flag, whatever the kernel);
 * else the first there is.  *mem: the one chosen is in memory. */
static const char *probe_dir(bool *mem)
{
	const char *dirs[] = { getenv("TMPDIR"), "/var/tmp", "/tmp" };
	const char *first = NULL;
	struct statfs sf;

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (!dirs[i] || !*dirs[i] || statfs(dirs[i], &sf) < 0)
			continue;
		if (sf.f_type != TMPFS_MAGIC && sf.f_type != RAMFS_MAGIC) {
			*mem = false;
			return dirs[i];
		}
		first = first ? first : dirs[i];
	}
	*mem = true;
	return first ? first : "/tmp";
}

/* A temporary file in dir, already unlinked: fd or -errno. */
static int probe_file(const char *dir)
{
	char path[4096];
	int fd;

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

/* 0: the kernel took the flag on a write and a read in dir; else -errno. */
static int probe_once(const char *dir)
{
	static char page[4096];
	struct iovec iov = { page, sizeof(page) };
	int fd = probe_file(dir), ret = 0;

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
	static bool mem;
	static const char *dir;
	const char *fake = getenv("IOSTRAT_FAKE_NO_DONTCACHE");
	struct utsname u;

	if (known == 1) {
		dir = probe_dir(&mem);
		known = fake && !strcmp(fake, "1") ? -EOPNOTSUPP : probe_once(dir);
	}
	if (!known)
		return 0;
	uname(&u);
	if ((known == -EOPNOTSUPP || known == -EINVAL) && mem)
		snprintf(why, len, "--dontcache: RWF_DONTCACHE refused on %s, in memory "
			 "(tmpfs or ramfs): set TMPDIR to a disk filesystem to probe "
			 "this kernel (%s)", dir, u.release);
	else if (known == -EOPNOTSUPP || known == -EINVAL)
		snprintf(why, len, "--dontcache: this kernel (%s) does not support "
			 "RWF_DONTCACHE (needs %s or later)", u.release, DONTCACHE_SINCE);
	else
		snprintf(why, len, "--dontcache: cannot probe RWF_DONTCACHE on this "
			 "kernel (%s): a temporary file in %s: %s", u.release, dir,
			 strerror(-known));
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
