// SPDX-License-Identifier: MIT
/* The page cache a repetition leaves behind: cachestat (or mincore) over its inputs and outputs. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "cache.h"
#include "cache_left.h"

int cache_left_dir(const char *dir, const struct filelist *fl, double *mib,
		   const char **bad)
{
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t cached = 0;
	char path[PATH_MAX];

	for (size_t i = 0; i < fl->n; i++) {
		uint64_t res = 0, pages = 0;
		const char *method;
		int fd, ret;

		snprintf(path, sizeof(path), "%s/%s", dir, fl->names[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOATIME);
		if (fd < 0 && errno == EPERM) /* O_NOATIME: not our file */
			fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT)
			continue;
		ret = fd < 0 ? -errno : cache_residency_fd(fd, &res, &pages, &method);
		if (fd >= 0)
			close(fd);
		if (ret) {
			*bad = fl->names[i];
			return ret;
		}
		cached += res;
	}
	*mib = (double)cached * (double)psz / (1024.0 * 1024.0);
	return 0;
}

void cache_left_note(const struct run_config *cfg, const struct filelist *fl,
		     json_t *row)
{
	double in = 0, out = 0;
	const char *bad;
	int ret = cache_left_dir(cfg->job.in_dir, fl, &in, &bad);

	if (!ret && cfg->job.sink != SINK_NULL && !(cfg->strat->flags & STRAT_NO_OUTPUT))
		ret = cache_left_dir(cfg->job.out_dir, fl, &out, &bad);
	json_object_set_new(row, "cache_left_mib", ret ? json_null() :
			    json_real((double)(int64_t)((in + out) * 10 + 0.5) / 10));
}
