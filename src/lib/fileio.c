// SPDX-License-Identifier: MIT
/* Whole reads and writes, small files, sysfs, directories made and removed. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/* One read or write of len bytes at off, or at the file position when
 * off < 0 (the positional calls reject negative offsets before here). */
static ssize_t rw_once(int fd, char *p, size_t len, off_t off, bool wr)
{
	if (wr)
		return off < 0 ? write(fd, p, len) : pwrite(fd, p, len, off);
	return off < 0 ? read(fd, p, len) : pread(fd, p, len, off);
}

/* Move len bytes between buf and fd, retrying on EINTR and short
 * transfers: the bytes moved (a read stops early only at end of file),
 * or -errno (a write that moves nothing: -EIO). */
static ssize_t rw_all(int fd, char *buf, size_t len, off_t off, bool wr)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = rw_once(fd, buf + done, len - done,
				    off < 0 ? off : off + (off_t)done, wr);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return wr ? -EIO : (ssize_t)done;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* write_full's and pwrite_full's: 0 or -errno (buf is only read). */
static int write_all(int fd, const void *buf, size_t len, off_t off)
{
	ssize_t n = rw_all(fd, (char *)buf, len, off, true);

	return n < 0 ? (int)n : 0;
}

ssize_t read_full(int fd, void *buf, size_t len)
{
	return rw_all(fd, buf, len, -1, false);
}

ssize_t pread_full(int fd, void *buf, size_t len, off_t off)
{
	return off < 0 ? -EINVAL : rw_all(fd, buf, len, off, false);
}

int write_full(int fd, const void *buf, size_t len)
{
	return write_all(fd, buf, len, -1);
}

int pwrite_full(int fd, const void *buf, size_t len, off_t off)
{
	return off < 0 ? -EINVAL : write_all(fd, buf, len, off);
}

/* Open dir and call sync_fd on it: 0 or -errno. */
static int sync_dir_with(const char *dir, int (*sync_fd)(int))
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (sync_fd(fd) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int fsync_dir(const char *dir)
{
	return sync_dir_with(dir, fsync);
}

int syncfs_dir(const char *dir)
{
	return sync_dir_with(dir, syncfs);
}

int write_file_atomic(const char *path, const void *buf, size_t len)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	char *slash;
	int fd, ret;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ret = write_full(fd, buf, len);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path) < 0)
		ret = -errno;
	if (ret) {
		unlink(tmp);
		return ret;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = 0;
	else if (slash)
		*slash = 0;
	else
		strcpy(dir, ".");
	return fsync_dir(dir);
}

int read_file_small(const char *path, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, n = 0;
	char *buf;

	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;

			free(buf);
			close(fd);
			return err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = 0;
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

int read_sysfs(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read_full(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return (int)n;
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

int write_sysfs(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = write_full(fd, val, strlen(val));
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

int mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, mode) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int rm_one(const char *p, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(p) < 0 ? -errno : 0;
	return unlink(p) < 0 && errno != ENOENT ? -errno : 0;
}

int rm_rf(const char *path)
{
	struct stat st;

	if (!path || !*path || !strcmp(path, "/"))
		return -EINVAL;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) < 0 ? -errno : 0;
	return nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS);
}
