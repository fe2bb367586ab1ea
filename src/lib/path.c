// SPDX-License-Identifier: MIT
/* Paths: absolute forms, containment, and free space before writing. */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "util.h"

int abspath(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], res[PATH_MAX];
	const char *base;
	char *slash;

	if (realpath(path, res)) {
		if (strlen(res) >= len)
			return -ENAMETOOLONG;
		strcpy(out, res);
		return 0;
	}
	if (errno != ENOENT)
		return -errno;
	snprintf(dir, sizeof(dir), "%s", path);
	while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = 0;
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = 0;
		base = slash + 1;
		if (!realpath(slash == dir ? "/" : dir, res))
			return -errno;
	} else {
		base = dir;
		if (!getcwd(res, sizeof(res)))
			return -errno;
	}
	if ((size_t)snprintf(out, len, "%s/%s", strcmp(res, "/") ? res : "",
			     base) >= len)
		return -ENAMETOOLONG;
	return 0;
}

bool path_within(const char *inner, const char *outer)
{
	size_t n = strlen(outer);

	if (n == 1 && outer[0] == '/')
		return true;
	return !strncmp(inner, outer, n) && (inner[n] == 0 || inner[n] == '/');
}

/* Free bytes an unprivileged writer may use on path's filesystem (or on
 * its nearest existing ancestor's, for a directory not made yet). */
static int free_bytes(const char *path, uint64_t *avail, char *where,
		      size_t len)
{
	struct statvfs vfs;
	char *slash;

	snprintf(where, len, "%s", path);
	while (statvfs(where, &vfs) < 0) {
		if (errno != ENOENT)
			return -errno;
		slash = strrchr(where, '/');
		if (!slash)
			snprintf(where, len, ".");
		else if (slash == where)
			where[1] = 0;
		else
			*slash = 0;
	}
	/* ramfs and the like count no blocks: no limit to check */
	*avail = vfs.f_blocks ? (uint64_t)vfs.f_bavail * vfs.f_frsize : UINT64_MAX;
	return 0;
}

int space_check(const char *path, uint64_t need, uint64_t reserve,
		const char *what)
{
	char where[PATH_MAX];
	uint64_t avail = 0;
	int ret = free_bytes(path, &avail, where, sizeof(where));

	if (ret)
		return error_errno(ret, path, "free space");
	if (avail == UINT64_MAX || need + reserve <= avail)
		return 0;
	if (reserve)
		errorf("%s: %s needs %.1f MB, and %.1f MB more stay free for a run's "
		       "outputs; %.1f MB free on %s: refusing to start", path, what,
		       (double)need / 1e6, (double)reserve / 1e6, (double)avail / 1e6,
		       where);
	else
		errorf("%s: %s need %.1f MB; %.1f MB free on %s: refusing to start",
		       path, what, (double)need / 1e6, (double)avail / 1e6, where);
	return -ENOSPC;
}

bool dir_is_or_under(const char *path, const struct stat *id)
{
	char p[PATH_MAX];
	struct stat sb;
	size_t n;

	snprintf(p, sizeof(p), "%s", path);
	for (;;) {
		if (!stat(p, &sb) && sb.st_dev == id->st_dev &&
		    sb.st_ino == id->st_ino)
			return true;
		n = strlen(p);
		while (n > 1 && p[n - 1] != '/')
			n--;
		if (n <= 1) /* the root is id only if id is / */
			return !stat("/", &sb) && sb.st_dev == id->st_dev &&
			       sb.st_ino == id->st_ino;
		p[n - 1] = 0;
	}
}

bool path_inside_dir(const char *path, const char *dir)
{
	char abs[PATH_MAX];
	struct stat id;

	if (stat(dir, &id) < 0 || abspath(path, abs, sizeof(abs)))
		return false;
	return dir_is_or_under(abs, &id);
}

/* path if it exists, else the nearest parent that does: the directory a
 * data set or a scratch directory not made yet will be made in. */
void path_existing_dir(const char *path, char *buf, size_t len)
{
	struct stat sb;
	char *slash;

	snprintf(buf, len, "%s", path);
	while (stat(buf, &sb) < 0) {
		slash = strrchr(buf, '/');
		if (!slash) {
			snprintf(buf, len, ".");
			return;
		}
		slash[slash == buf] = 0; /* "/x" -> "/" */
	}
}
