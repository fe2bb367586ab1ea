// SPDX-License-Identifier: MIT
/* Scanning a directory into the sorted list of input files of a job. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "filelist.h"
#include "lib/log.h"

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int push(struct filelist *fl, size_t *cap, const char *name)
{
	if (fl->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		char **nn = realloc(fl->names, nc * sizeof(*nn));

		if (!nn)
			return -ENOMEM;
		fl->names = nn;
		*cap = nc;
	}
	fl->names[fl->n] = strdup(name);
	if (!fl->names[fl->n])
		return -ENOMEM;
	fl->n++;
	return 0;
}

/* procfs and sysfs files say size 0 whatever they hold: no strategy
 * that plans by st_size (uring, direct, mmap) could read them right. */
static bool pseudo_fs(const char *path)
{
	struct statfs sf;

	return !statfs(path, &sf) && (sf.f_type == PROC_SUPER_MAGIC ||
				      sf.f_type == SYSFS_MAGIC);
}

/* A dotfile skipped: counted unless iostrat's own (.iostrat-manifest.json,
 * .iostrat-output, .NAME.iostrat-tmp), so skipping is said, not silent. */
static void note_hidden(struct filelist *fl, const char *name)
{
	size_t n = strlen(name), t = strlen(".iostrat-tmp");

	if (!strcmp(name, ".") || !strcmp(name, "..") ||
	    !strncmp(name, ".iostrat-", 9) ||
	    (n > t && !strcmp(name + n - t, ".iostrat-tmp")))
		return;
	if (!fl->hidden++)
		snprintf(fl->first_hidden, sizeof(fl->first_hidden), "%s", name);
}

int filelist_scan(const char *dir, struct filelist *fl, const char **bad)
{
	static char badpath[PATH_MAX];
	struct dirent *de;
	size_t cap = 0;
	DIR *d;
	int ret = 0;

	memset(fl, 0, sizeof(*fl));
	*bad = dir;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((errno = 0, de = readdir(d))) {
		if (de->d_name[0] == '.') {
			note_hidden(fl, de->d_name);
			continue;
		}
		ret = push(fl, &cap, de->d_name);
		if (ret)
			break;
	}
	if (!ret && errno)
		ret = -errno;
	closedir(d);
	if (ret)
		return ret;
	if (fl->n) /* qsort(NULL, 0) is undefined: an empty directory */
		qsort(fl->names, fl->n, sizeof(*fl->names), cmp_names);
	fl->sizes = calloc(fl->n ? fl->n : 1, sizeof(*fl->sizes));
	if (!fl->sizes)
		return -ENOMEM;
	for (size_t i = 0; i < fl->n; i++) {
		struct stat sb;

		snprintf(badpath, sizeof(badpath), "%s/%s", dir, fl->names[i]);
		*bad = badpath;
		if (stat(badpath, &sb) < 0)
			return -errno;
		if (S_ISDIR(sb.st_mode))
			return -EISDIR;
		if (!S_ISREG(sb.st_mode))
			return -EINVAL; /* FIFO, socket, device: not data */
		if (!sb.st_size && pseudo_fs(badpath))
			return -ENODATA; /* /proc/version: size 0, yet content */
		fl->sizes[i] = (uint64_t)sb.st_size;
		fl->total += (uint64_t)sb.st_size;
	}
	*bad = NULL;
	return 0;
}

void filelist_free(struct filelist *fl)
{
	for (size_t i = 0; i < fl->n; i++)
		free(fl->names[i]);
	free(fl->names);
	free(fl->sizes);
	memset(fl, 0, sizeof(*fl));
}

int filelist_read(const char *dir, struct filelist *fl)
{
	const char *bad = dir;
	int ret = filelist_scan(dir, fl, &bad);

	if (ret) {
		errorf("%s: %s", bad, ret == -EINVAL ? "not a regular file" :
		       ret == -ENODATA ? "a procfs/sysfs file: its size (0) is not "
		       "its content, so it is no data to measure" : strerror(-ret));
		filelist_free(fl);
	}
	return ret;
}
