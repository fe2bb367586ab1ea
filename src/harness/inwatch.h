/* SPDX-License-Identifier: MIT */
/* The input watch: an input changed by another process during a repetition is named. */
#ifndef IOSTRAT_INWATCH_H
#define IOSTRAT_INWATCH_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/filelist.h"

/* The size and mtime of every input, taken before a repetition and
 * compared after it: an input another process wrote (or touched) while a
 * run read it is named, whatever the output says.  The size is the one the
 * file list holds (the reference was made from it), the mtime the one at
 * the repetition's start. */
struct inwatch {
	size_t n;
	uint64_t *size;
	struct timespec *mtime;
};

/* 0 or -errno (a file that cannot be stat'ed: -errno, *bad names it). */
int inwatch_take(struct inwatch *w, const char *dir, const struct filelist *fl,
		 const char **bad);
enum inwatch_how { INWATCH_REMOVED, INWATCH_RESIZED, INWATCH_MODIFIED };

/* The first input whose size or mtime is not the one taken (or that is
 * gone): its index, how it changed, and a few words on it in why; -1 when
 * none.  The mtime is compared with the one taken, exactly: never with a
 * clock (file times come from the kernel's coarse clock, a tick behind). */
long inwatch_changed(const struct inwatch *w, const char *dir,
		     const struct filelist *fl, enum inwatch_how *how,
		     char *why, size_t len);
void inwatch_free(struct inwatch *w);

#endif
