// SPDX-License-Identifier: MIT
/* The inputs' cache state before a repetition (cold, warm, asis) and its proof by residency. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cache.h"
#include "prewait.h"
#include "stop.h"
#include "lib/util.h"

#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif

struct cs_range { uint64_t off, len; };
struct cs_stat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted,
		nr_recently_evicted;
};

static char badpath[PATH_MAX];

const char *cache_mode_name(enum cache_mode m)
{
	return cache_mode_names[m];
}

static int drop(void *arg)
{
	(void)arg;
	sync();
	return write_sysfs("/proc/sys/vm/drop_caches", "3");
}

int cache_drop_all(void)
{
	return prewait_call(drop, NULL);
}

static int each_file(const char *dir, const struct filelist *fl,
		     int (*fn)(int fd, void *arg), void *arg, const char **bad)
{
	for (size_t i = 0; i < fl->n; i++) {
		int fd, ret;

		snprintf(badpath, sizeof(badpath), "%s/%s", dir, fl->names[i]);
		*bad = badpath;
		fd = open(badpath, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		ret = fn(fd, arg);
		close(fd);
		if (ret)
			return ret;
	}
	*bad = NULL;
	return 0;
}

static int evict_fd(int fd, void *arg)
{
	(void)arg;
	fdatasync(fd);
	return -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

static int read_fd(int fd, void *arg)
{
	char *buf = arg;

	for (;;) {
		ssize_t n;

		if (stop_caught())
			return -EINTR; /* a stop signal: the warming is not waited for */
		n = read(fd, buf, 1 << 20);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
	}
}

int cache_prepare(const char *dir, const struct filelist *fl,
		  enum cache_mode m, const char **how, const char **bad)
{
	char *buf;
	int ret;

	*bad = NULL;
	*how = "none";
	if (m == CACHE_ASIS)
		return 0;
	if (m == CACHE_COLD) {
		ret = cache_drop_all();
		if (ret == -EINTR || !ret) {
			*how = "drop_caches";
			return ret;
		}
		*how = "fadvise";
		return each_file(dir, fl, evict_fd, NULL, bad);
	}
	buf = malloc(1 << 20);
	if (!buf)
		return -ENOMEM;
	*how = "read";
	ret = each_file(dir, fl, read_fd, buf, bad);
	free(buf);
	return ret;
}

static int mincore_fd(int fd, uint64_t *resident, uint64_t *pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	struct stat sb;
	unsigned char *vec;
	size_t np;
	void *map;

	if (fstat(fd, &sb) < 0)
		return -errno;
	np = (size_t)((sb.st_size + psz - 1) / psz);
	*pages = np;
	*resident = 0;
	if (!np)
		return 0;
	map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	vec = malloc(np);
	if (!vec || mincore(map, (size_t)sb.st_size, vec) < 0) {
		int err = vec ? -errno : -ENOMEM;

		free(vec);
		munmap(map, (size_t)sb.st_size);
		return err;
	}
	for (size_t i = 0; i < np; i++)
		*resident += vec[i] & 1;
	free(vec);
	munmap(map, (size_t)sb.st_size);
	return 0;
}

int cache_residency_fd(int fd, uint64_t *resident, uint64_t *pages,
		       const char **method)
{
	static int have_cachestat = -1;
	long psz = sysconf(_SC_PAGESIZE);
	struct cs_range r = { 0, 0 };
	struct cs_stat cs;
	struct stat sb;

	if (have_cachestat != 0) {
		if (syscall(__NR_cachestat, fd, &r, &cs, 0) == 0) {
			have_cachestat = 1;
			if (fstat(fd, &sb) < 0)
				return -errno;
			*pages = (uint64_t)((sb.st_size + psz - 1) / psz);
			*resident = MIN(cs.nr_cache, *pages);
			*method = "cachestat";
			return 0;
		}
		if (errno != ENOSYS && errno != EPERM)
			return -errno;
		have_cachestat = 0;
	}
	*method = "mincore";
	return mincore_fd(fd, resident, pages);
}

struct res_acc {
	uint64_t resident, pages;
	const char *method;
};

static int res_fd(int fd, void *arg)
{
	struct res_acc *a = arg;
	uint64_t r = 0, p = 0;
	int ret = cache_residency_fd(fd, &r, &p, &a->method);

	if (ret)
		return ret;
	a->resident += r;
	a->pages += p;
	return 0;
}

int cache_residency(const char *dir, const struct filelist *fl, double *pct,
		    const char **method, const char **bad)
{
	struct res_acc a = { 0, 0, "cachestat" };
	int ret = each_file(dir, fl, res_fd, &a, bad);

	if (ret)
		return ret;
	*pct = a.pages ? 100.0 * (double)a.resident / (double)a.pages : 0.0;
	*method = a.method;
	return 0;
}
