/* SPDX-License-Identifier: MIT */
/* Paths: absolute forms, containment, and free space before writing. */
#ifndef IOSTRAT_LIB_PATH_H
#define IOSTRAT_LIB_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* path if it exists, else the nearest parent that does (".": none):
 * the directory a data set or scratch directory not made yet goes in. */
void path_existing_dir(const char *path, char *buf, size_t len);
/* realpath that works for a path whose last component does not exist. */
int abspath(const char *path, char *out, size_t len);
/* is `inner` equal to or below `outer` (both absolute, normalized)? */
bool path_within(const char *inner, const char *outer);

struct stat;
/*
 * Is any existing directory on the way from / to path (an absolute path,
 * path included) the directory id?  Compared by device and inode, not by
 * name: a bind mount or a second path to a directory names it differently,
 * and stat() of each prefix resolves every mount on the way.
 */
bool dir_is_or_under(const char *path, const struct stat *id);
/* path (made absolute) is dir or below it, by dir_is_or_under. */
bool path_inside_dir(const char *path, const char *dir);

/*
 * Before writing a byte: need (+ reserve, kept free for what comes after,
 * e.g. a run's outputs) must fit in the free space of path's filesystem.
 * 0, or -ENOSPC after one line saying how much is needed and free.
 */
int space_check(const char *path, uint64_t need, uint64_t reserve,
		const char *what);

#endif
