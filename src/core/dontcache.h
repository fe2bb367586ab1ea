/* SPDX-License-Identifier: MIT */
/* Uncached buffered I/O (RWF_DONTCACHE, Linux 6.14): the probe and the reads and writes. */
#ifndef IOSTRAT_DONTCACHE_H
#define IOSTRAT_DONTCACHE_H

#include <stddef.h>
#include <sys/types.h>

#include "strategy.h"

#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080 /* linux/fs.h from 6.14 */
#endif

/* The version that brought RWF_DONTCACHE, for the refusal line. */
#define DONTCACHE_SINCE "6.14"

/*
 * Whether this kernel takes RWF_DONTCACHE, found by trying it (a pwritev2
 * and a preadv2 with the flag on a small temporary file in the first of
 * $TMPDIR, /var/tmp, /tmp not in memory), never from the version number:
 * 0, or 1 and one line in why naming the running kernel and the version
 * it needs.  Probed once.
 * Test seam: IOSTRAT_FAKE_NO_DONTCACHE=1 makes the probe report "not
 * supported" (tests of the refusal on a kernel that has it).
 */
int dontcache_probe(char *why, size_t len);

/* The rw flags of job's reads and writes: RWF_DONTCACHE with --dontcache. */
int job_rwf(const struct job *job);

/* read(2) (rwf 0) or preadv2 at the file position with rwf: as read(2). */
ssize_t read_rwf(int fd, void *buf, size_t n, int rwf);
/* read_full / write_full (lib/fileio.h) through read_rwf / pwritev2. */
ssize_t read_full_rwf(int fd, void *buf, size_t n, int rwf);
int write_full_rwf(int fd, const void *buf, size_t n, int rwf);

#endif
