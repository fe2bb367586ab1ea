// SPDX-License-Identifier: MIT
/*
 * faultfs: a pass-through FUSE filesystem for fault tests.  It serves the
 * files of a backing directory and fails reads or writes once they reach a
 * byte offset, with the errno asked for -- what dm-flakey would give us if
 * these kernels had device-mapper.
 *
 *   faultfs BACKING MOUNTPOINT [--read-fail-at N] [--write-fail-at N]
 *           [--errno EIO|ENOSPC] [--only NAME] [--spare N] [--vanish 1]
 *
 * --only limits the faults to files whose name contains NAME.  --spare N
 * lets the first N opens of such files for writing (and, separately, the
 * first N for reading) through unharmed: a bench's earlier repetitions
 * complete and a later one fails, whatever the timing.  --vanish 1 makes
 * the first open for reading of a --only file after the spared ones find it
 * gone: the backing file is unlinked and the open fails with ENOENT, as when
 * a file is deleted between the directory scan and its turn, deterministically
 * (a race with rm(1) is lost under load).  Runs in the
 * foreground, single-threaded; unmount with fusermount3 -u MOUNTPOINT.
 */
#define _GNU_SOURCE
#define FUSE_USE_VERSION 31
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct {
	char backing[PATH_MAX];
	long long read_at, write_at;
	int err;
	const char *only;
	long long spare, nread, nwrite; /* opens to spare; opens seen */
	int vanish;
} cfg = { .read_at = -1, .write_at = -1, .err = EIO };

/* Backing fds opened while still sparing: never faulted. */
#define MAX_FD 4096
static unsigned char spared[MAX_FD];

static void real(char *out, const char *path)
{
	snprintf(out, PATH_MAX, "%s%s", cfg.backing, path);
}

static int faulty(const char *path)
{
	return !cfg.only || strstr(path, cfg.only);
}

/* Count an open of a faulty file; remember whether it is spared. */
static void count_open(const char *path, int flags, int fd)
{
	long long *n = (flags & O_ACCMODE) == O_RDONLY ? &cfg.nread : &cfg.nwrite;

	if (fd < 0 || fd >= MAX_FD)
		return;
	spared[fd] = 0;
	if (faulty(path) && (*n)++ < cfg.spare)
		spared[fd] = 1;
}

static int hit(const char *path, struct fuse_file_info *fi, long long at,
	       off_t end)
{
	int fd = (int)fi->fh;

	if (at < 0 || !faulty(path) || end <= at)
		return 0;
	return !(fd >= 0 && fd < MAX_FD && spared[fd]);
}

static int ff_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	char p[PATH_MAX];

	if (fi)
		return fstat((int)fi->fh, st) < 0 ? -errno : 0;
	real(p, path);
	return lstat(p, st) < 0 ? -errno : 0;
}

static int ff_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags fl)
{
	char p[PATH_MAX];
	struct dirent *de;
	DIR *d;

	(void)off; (void)fi; (void)fl;
	real(p, path);
	d = opendir(p);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		fill(buf, de->d_name, NULL, 0, 0);
	closedir(d);
	return 0;
}

/* --vanish: this open of a --only file past the spared ones finds it gone. */
static int vanishes(const char *path, int flags)
{
	if (!cfg.vanish || !faulty(path) || (flags & O_ACCMODE) != O_RDONLY)
		return 0;
	return cfg.nread++ >= cfg.spare;
}

static int ff_open(const char *path, struct fuse_file_info *fi)
{
	char p[PATH_MAX];
	int fd;

	real(p, path);
	if (vanishes(path, fi->flags))
		return unlink(p) < 0 ? -errno : -ENOENT;
	fd = open(p, fi->flags & ~O_DIRECT);
	if (fd < 0)
		return -errno;
	count_open(path, fi->flags, fd);
	fi->fh = (uint64_t)fd;
	return 0;
}

static int ff_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	char p[PATH_MAX];
	int fd;

	real(p, path);
	fd = open(p, (fi->flags & ~O_DIRECT) | O_CREAT, mode);
	if (fd < 0)
		return -errno;
	count_open(path, fi->flags | O_WRONLY, fd);
	fi->fh = (uint64_t)fd;
	return 0;
}

/* A call's count as FUSE wants it: the bytes, or -errno. */
static int fuse_result(ssize_t n)
{
	return n < 0 ? -errno : (int)n;
}

static int ff_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	if (hit(path, fi, cfg.read_at, off + (off_t)size))
		return -cfg.err;
	return fuse_result(pread((int)fi->fh, buf, size, off));
}

static int ff_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	if (hit(path, fi, cfg.write_at, off + (off_t)size))
		return -cfg.err;
	return fuse_result(pwrite((int)fi->fh, buf, size, off));
}

static int ff_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	close((int)fi->fh);
	return 0;
}

static int ff_fsync(const char *path, int ds, struct fuse_file_info *fi)
{
	(void)path;
	return (ds ? fdatasync((int)fi->fh) : fsync((int)fi->fh)) < 0 ? -errno : 0;
}

static int ff_unlink(const char *path)
{
	char p[PATH_MAX];

	real(p, path);
	return unlink(p) < 0 ? -errno : 0;
}

static int ff_rename(const char *from, const char *to, unsigned int flags)
{
	char a[PATH_MAX], b[PATH_MAX];

	if (flags)
		return -EINVAL;
	real(a, from);
	real(b, to);
	return rename(a, b) < 0 ? -errno : 0;
}

static int ff_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	char p[PATH_MAX];

	if (fi)
		return ftruncate((int)fi->fh, size) < 0 ? -errno : 0;
	real(p, path);
	return truncate(p, size) < 0 ? -errno : 0;
}

static int ff_mkdir(const char *path, mode_t mode)
{
	char p[PATH_MAX];

	real(p, path);
	return mkdir(p, mode) < 0 ? -errno : 0;
}

static int ff_rmdir(const char *path)
{
	char p[PATH_MAX];

	real(p, path);
	return rmdir(p) < 0 ? -errno : 0;
}

static int ff_access(const char *path, int mask)
{
	char p[PATH_MAX];

	real(p, path);
	return access(p, mask) < 0 ? -errno : 0;
}

static int ff_statfs(const char *path, struct statvfs *sv)
{
	char p[PATH_MAX];

	real(p, path);
	return statvfs(p, sv) < 0 ? -errno : 0;
}

static const struct fuse_operations ops = {
	.getattr = ff_getattr, .readdir = ff_readdir, .open = ff_open,
	.create = ff_create, .read = ff_read, .write = ff_write,
	.release = ff_release, .fsync = ff_fsync, .unlink = ff_unlink,
	.rename = ff_rename, .truncate = ff_truncate, .mkdir = ff_mkdir,
	.rmdir = ff_rmdir, .access = ff_access, .statfs = ff_statfs,
};

int main(int argc, char **argv)
{
	char *fargv[8];
	int fargc = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: faultfs BACKING MOUNTPOINT [--read-fail-at N] "
				"[--write-fail-at N] [--errno EIO|ENOSPC] [--only NAME] "
				"[--spare N] [--vanish 1]\n");
		return 2;
	}
	if (!realpath(argv[1], cfg.backing)) {
		perror(argv[1]);
		return 2;
	}
	for (int i = 3; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--read-fail-at"))
			cfg.read_at = atoll(argv[i + 1]);
		else if (!strcmp(argv[i], "--write-fail-at"))
			cfg.write_at = atoll(argv[i + 1]);
		else if (!strcmp(argv[i], "--errno"))
			cfg.err = !strcmp(argv[i + 1], "ENOSPC") ? ENOSPC : EIO;
		else if (!strcmp(argv[i], "--only"))
			cfg.only = argv[i + 1];
		else if (!strcmp(argv[i], "--spare"))
			cfg.spare = atoll(argv[i + 1]);
		else if (!strcmp(argv[i], "--vanish"))
			cfg.vanish = atoi(argv[i + 1]);
	}
	fargv[fargc++] = argv[0];
	fargv[fargc++] = argv[2];
	fargv[fargc++] = "-f";
	fargv[fargc++] = "-s";
	fargv[fargc++] = "-o";
	fargv[fargc++] = "default_permissions";
	return fuse_main(fargc, fargv, &ops, NULL);
}
