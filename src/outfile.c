// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "outfile.h"

int out_open(const struct job *job, size_t i, int extra_flags,
	     struct outfile *of)
{
	int acc = (extra_flags & O_RDWR) ? O_RDWR : O_WRONLY;

	of->fd = -1;
	if ((size_t)snprintf(of->path, sizeof(of->path), "%s/%s", job->out_dir,
			     job->files[i]) >= sizeof(of->path) ||
	    (size_t)snprintf(of->tmp, sizeof(of->tmp), "%s/.%s.iostrat-tmp",
			     job->out_dir, job->files[i]) >= sizeof(of->tmp))
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
	if (job->sink_null)
		return ret;
	if (ret) {
		if (of->fd >= 0)
			out_abort(of);
		return ret;
	}
	ret = out_commit(job, of);
	return ret ? stats_fail(st, ret, of->path, "fsync/rename") : 0;
}
