/* SPDX-License-Identifier: MIT */
#ifndef IOSTRAT_INWATCH_H
#define IOSTRAT_INWATCH_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "filelist.h"

/* The size and mtime of every input, taken before a repetition and
 * compared after it: an input another process wrote (or touched) while a
 * run read it is named, whatever the output says. */
struct inwatch {
	size_t n;
	uint64_t *size;
	struct timespec *mtime;
};

/* 0 or -errno (a file that cannot be stat'ed: -errno, *bad names it). */
int inwatch_take(struct inwatch *w, const char *dir, const struct filelist *fl,
		 const char **bad);
/* The first input whose size or mtime is not the one taken (or that is
 * gone): its index, and what changed in why; -1 when none. */
long inwatch_changed(const struct inwatch *w, const char *dir,
		     const struct filelist *fl, char *why, size_t len);
void inwatch_free(struct inwatch *w);

#endif
