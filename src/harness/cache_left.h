/* SPDX-License-Identifier: MIT */
/* The page cache a repetition leaves behind: MiB of its inputs and outputs still cached. */
#ifndef IOSTRAT_CACHE_LEFT_H
#define IOSTRAT_CACHE_LEFT_H

#include <jansson.h>

#include "core/filelist.h"
#include "runner.h"

/* MiB of dir's files (fl's names) in the page cache (cachestat, else
 * mincore; a file that is not there counts 0): 0 or -errno, *bad the file. */
int cache_left_dir(const char *dir, const struct filelist *fl, double *mib,
		   const char **bad);

/* After a repetition, before anything reads the outputs: cache_left_mib
 * in row = the inputs' cached MiB plus the outputs' (when it wrote any);
 * null when a file could not be measured. */
void cache_left_note(const struct run_config *cfg, const struct filelist *fl,
		     json_t *row);

#endif
