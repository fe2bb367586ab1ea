/* SPDX-License-Identifier: MIT */
/* Cache states of the inputs (cold, warm, asis), made and measured before each repetition. */
#ifndef IOSTRAT_CACHE_H
#define IOSTRAT_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "config/run_config.h"
#include "core/filelist.h"

/* enum cache_mode and its names: config/run_config.h. */
const char *cache_mode_name(enum cache_mode m);

/*
 * Bring dir's files into the requested state.  cold: sync, then
 * drop_caches=3 when we may, else posix_fadvise(DONTNEED) per file (which
 * cannot evict pages another process has mapped or dirty).  warm: read
 * every file once.  *how says which method was used ("drop_caches",
 * "fadvise", "read", "none").  A stop signal (stop.h) cuts the sync, the
 * drop and the warming short: -EINTR.
 */
int cache_prepare(const char *dir, const struct filelist *fl,
		  enum cache_mode m, const char **how, const char **bad);

/* Pages of the files resident in the page cache, in percent of their
 * pages.  cachestat(2) where the kernel has it, else mmap+mincore.
 * *method is "cachestat" or "mincore". */
int cache_residency(const char *dir, const struct filelist *fl, double *pct,
		    const char **method, const char **bad);
/* Residency of one open file: resident and total pages. */
int cache_residency_fd(int fd, uint64_t *resident, uint64_t *pages,
		       const char **method);

/* Drop caches system-wide (root only): sync + drop_caches=3, in a helper
 * a stop signal does not wait for (prewait.h): 0, -errno or -EINTR. */
int cache_drop_all(void);

#endif
