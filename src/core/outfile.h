/* SPDX-License-Identifier: MIT */
/* The three calls every strategy writes its outputs through (open, commit, abort). */
#ifndef IOSTRAT_OUTFILE_H
#define IOSTRAT_OUTFILE_H

#include <limits.h>

#include "strategy.h"

/*
 * Output files are written under a temporary name in the output directory
 * and renamed into place only when complete (after fsync with
 * --fsync file), so a failed or interrupted run never leaves a
 * complete-looking output.  Every strategy goes through these three calls.
 */
struct outfile {
	int fd;
	char tmp[PATH_MAX];
	char path[PATH_MAX];
};

/* dir/.NAME.iostrat-tmp, or for a name too long for that, its first 200
 * bytes and a hash of it: always within NAME_MAX.  -ENAMETOOLONG past
 * len. */
int out_tmp_path(const char *dir, const char *name, char *buf, size_t len);
/* extra_flags: e.g. O_DIRECT, O_RDWR instead of O_WRONLY for mmap output. */
int out_open(const struct job *job, size_t i, int extra_flags,
	     struct outfile *of);
/* fsync per job->fsync, close, rename into place.  Closes fd in all cases. */
int out_commit(const struct job *job, struct outfile *of);
/* close and unlink the temporary file (after an error). */
void out_abort(struct outfile *of);
/*
 * The end of one output file, whatever happened before: ret 0 commits it
 * (a failure recorded by stats_fail as "fsync/rename"), an error aborts it
 * if it was opened.  With sink=null nothing was opened: ret as is.
 * Returns the file's final result.
 */
int out_finish(const struct job *job, struct outfile *of, int ret,
	       struct run_stats *st);

#endif
