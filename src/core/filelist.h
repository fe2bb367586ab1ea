/* SPDX-License-Identifier: MIT */
/* The input files of a job: the regular files of a directory, sorted by name. */
#ifndef IOSTRAT_FILELIST_H
#define IOSTRAT_FILELIST_H

#include <stddef.h>
#include <stdint.h>

/* The input files of a job: every regular file directly in a directory,
 * sorted by name, hidden (dot) files skipped (the generator's manifest is
 * one).  Anything else that is not a regular file is an error. */
struct filelist {
	char **names;
	uint64_t *sizes;
	size_t n;
	uint64_t total;
	size_t hidden;        /* dotfiles skipped that are not iostrat's own */
	char first_hidden[64];/* the first of them, to name it */
};

/* 0 or -errno; on error *bad names the offending entry (static buffer):
 * -EISDIR, -EINVAL (not a regular file), -ENODATA (a procfs/sysfs file,
 * size 0 whatever it holds). */
int filelist_scan(const char *dir, struct filelist *fl, const char **bad);
void filelist_free(struct filelist *fl);
/* filelist_scan for a command's input: on error, one line naming the entry
 * and why it is no data (printed), fl freed, -errno. */
int filelist_read(const char *dir, struct filelist *fl);

#endif
