// SPDX-License-Identifier: MIT
/* Output files written under a temporary name and renamed into place when complete. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "outfile.h"

int out_tmp_path(const char *dir, const char *name, char *buf, size_t len)
{
	static const char sfx[] = ".iostrat-tmp";
	size_t n = strlen(name);
	int w;

	/* "." + name + sfx must fit in NAME_MAX: a long name keeps its head
	 * and gains a hash of the whole, so two long names never collide */
	if (1 + n + sizeof(sfx) - 1 <= NAME_MAX) {
		w = snprintf(buf, len, "%s/.%s%s", dir, name, sfx);
	} else {
		/* the hash first: with XXH3_64bits inlined as an argument,
		 * clang-tidy's analyzer once (not reproducibly) took a
		 * va_list in it for one snprintf leaks */
		unsigned long long h = XXH3_64bits(name, n);

		// NOLINTNEXTLINE(clang-analyzer-valist.Unterminated): see above
		w = snprintf(buf, len, "%s/.%.200s~%016llx%s", dir, name, h, sfx);
	}
	return (size_t)w >= len ? -ENAMETOOLONG : 0;
}

int out_open(const struct job *job, size_t i, int extra_flags,
	     struct outfile *of)
{
	int acc = (extra_flags & O_RDWR) ? O_RDWR : O_WRONLY;

	of->fd = -1;
	if ((size_t)snprintf(of->path, sizeof(of->path), "%s/%s", job->out_dir,
			     job->files[i]) >= sizeof(of->path) ||
	    out_tmp_path(job->out_dir, job->files[i], of->tmp, sizeof(of->tmp)))
		return -ENAMETOOLONG;
	/* a fresh file, never one found there: a temporary name that is a
	 * hard link or symlink to an input must not be truncated through */
	if (unlink(of->tmp) < 0 && errno != ENOENT)
		return -errno;
	of->fd = open(of->tmp, acc | O_CREAT | O_EXCL | O_CLOEXEC |
				       (extra_flags & ~O_RDWR), 0644);
	if (of->fd < 0)
		return -errno;
	return 0;
}

int out_commit(const struct job *job, struct outfile *of)
{
	int ret = 0;

	if (job->fsync == FSYNC_FILE && fsync(of->fd) < 0)
		ret = -errno;
	if (close(of->fd) < 0 && !ret)
		ret = -errno;
	of->fd = -1;
	if (!ret && rename(of->tmp, of->path) < 0)
		ret = -errno;
	if (ret)
		unlink(of->tmp);
	return ret;
}

void out_abort(struct outfile *of)
{
	if (of->fd >= 0)
		close(of->fd);
	of->fd = -1;
	unlink(of->tmp);
}

int out_finish(const struct job *job, struct outfile *of, int ret,
	       struct run_stats *st)
{
	if (job->sink == SINK_NULL)
		return ret;
	if (ret) {
		if (of->fd >= 0)
			out_abort(of);
		return ret;
	}
	ret = out_commit(job, of);
	return ret ? stats_fail(st, ret, of->path, "fsync/rename") : 0;
}
