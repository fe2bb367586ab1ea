/* SPDX-License-Identifier: MIT */
/* bench --resume with -D: the configurations stay the ones the directory's profile records. */
#ifndef IOSTRAT_RESUME_DEFS_H
#define IOSTRAT_RESUME_DEFS_H

#include "profile.h"

/*
 * A resume runs what is missing of the configurations DIR/profile.ini
 * records; a -D may change how (reps, max_reps, time_budget: the engine's
 * keys; trace) but not which: one that adds a configuration (memory_max=0,64M)
 * or changes one (threads=2) is refused in one line naming it.  with is
 * path loaded with the -D's.  0, or -EINVAL after the line.
 */
int resume_defs_check(const char *dir, const char *path, const struct profile *with,
		      char *const *defs, size_t ndefs);

#endif
