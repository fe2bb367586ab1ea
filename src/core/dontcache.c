// SPDX-License-Identifier: MIT
/* Uncached buffered I/O (RWF_DONTCACHE): the probe where a run reads and writes, and reads and writes with the flag. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "dontcache.h"
#include "lib/blockdev.h"
#include "lib/util.h"

/* A regular, not hidden file directly in dir (any input will do): 0, or
 * -ENOENT when there is none (the run itself says so) or -errno. */
static int first_file(const char *dir, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct stat sb;
	int ret = -ENOENT;

	if (!d)
		return -errno;
	while (ret && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(buf, len, "%s/%s", dir, de->d_name);
		if (!stat(buf, &sb) && S_ISREG(sb.st_mode))
			ret = 0;
	}
	closedir(d);
	return ret;
}

/* A temporary file in dir, already unlinked: fd or -errno. */
static int probe_file(const char *dir)
{
	char path[PATH_MAX];
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
		return fd < 0 ? -errno : fd;
	snprintf(path, sizeof(path), "%s/.iostrat-probe-XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(path);
	return fd;
}

/* 0: the kernel took the flag on a write (write) and a read of a
 * temporary file in dir, or (file) on a read of that file; else -errno. */
static int try_flag(const char *path, bool file, bool write)
{
	static char page[4096];
	struct iovec iov = { page, sizeof(page) };
	int fd = file ? open(path, O_RDONLY | O_CLOEXEC) : probe_file(path), ret = 0;

	if (fd < 0)
		return file ? -errno : fd;
	if ((write && pwritev2(fd, &iov, 1, 0, RWF_DONTCACHE) < 0) ||
	    preadv2(fd, &iov, 1, 0, RWF_DONTCACHE) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Does this kernel know the flag (DONTCACHE_SINCE or later)?  Only to
 * word a refusal: an unknown flag and a file system without the support
 * both fail with EOPNOTSUPP. */
static bool kernel_knows_flag(const char *release)
{
	unsigned maj = 0, min = 0, since_maj = 0, since_min = 0;

	sscanf(DONTCACHE_SINCE, "%u.%u", &since_maj, &since_min);
	if (sscanf(release, "%u.%u", &maj, &min) != 2)
		return true; /* unknown form: blame the file system, named */
	return maj > since_maj || (maj == since_maj && min >= since_min);
}

static void kernel_refusal(const char *release, char *why, size_t len)
{
	snprintf(why, len, "--dontcache: this kernel (%s) does not support "
		 "RWF_DONTCACHE (needs %s or later)", release, DONTCACHE_SINCE);
}

/* The line for err from the flag on what (the "output directory"), path
 * as the user named it, at the path tried (path or its parent). */
static void refusal(int err, const char *what, const char *path, const char *at,
		    char *why, size_t len)
{
	struct blockdev_info bi;
	struct utsname u;

	uname(&u);
	if ((err == -EOPNOTSUPP || err == -EINVAL) && !kernel_knows_flag(u.release))
		kernel_refusal(u.release, why, len);
	else if (err == -EOPNOTSUPP || err == -EINVAL)
		snprintf(why, len, "--dontcache: the %s %s is on %s, which does not "
			 "support RWF_DONTCACHE (this kernel, %s, does)", what, path,
			 !blockdev_of_path(at, &bi) && bi.fs[0] ? bi.fs : "a file system",
			 u.release);
	else
		snprintf(why, len, "--dontcache: cannot try RWF_DONTCACHE on the %s %s: %s",
			 what, path, strerror(-err));
}

/* The flag where dir is read from (input: a read of one of its files)
 * or written to: 0, or 1 and the line in why. */
static int try_dir(const char *dir, bool input, char *why, size_t len)
{
	char at[PATH_MAX], file[PATH_MAX];
	struct stat sb;
	int ret;

	if (input && !stat(dir, &sb) && S_ISDIR(sb.st_mode)) {
		if (first_file(dir, file, sizeof(file)))
			return 0; /* no input: the run says so */
		ret = try_flag(file, true, false);
		if (ret)
			refusal(ret, "input file", file, file, why, len);
		return !!ret;
	}
	path_existing_dir(dir, at, sizeof(at));
	ret = try_flag(at, false, true);
	if (ret)
		refusal(ret, input ? "input directory" : "output directory", dir, at,
			why, len);
	return !!ret;
}

int dontcache_probe(const char *in_dir, const char *out_dir, char *why, size_t len)
{
	const char *fake = getenv("IOSTRAT_FAKE_NO_DONTCACHE");
	struct utsname u;

	if (fake && !strcmp(fake, "1")) {
		uname(&u);
		kernel_refusal(u.release, why, len);
		return 1;
	}
	if (in_dir && try_dir(in_dir, true, why, len))
		return 1;
	return out_dir && try_dir(out_dir, false, why, len);
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
