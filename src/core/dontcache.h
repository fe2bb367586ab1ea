/* SPDX-License-Identifier: MIT */
/* Uncached buffered I/O (RWF_DONTCACHE, Linux 6.14): the probe where a run reads and writes, and the reads and writes. */
#ifndef IOSTRAT_DONTCACHE_H
#define IOSTRAT_DONTCACHE_H

#include <stddef.h>
#include <sys/types.h>

#include "strategy.h"

#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080 /* linux/fs.h from 6.14 */
#endif

/* The version that brought RWF_DONTCACHE (MAJOR.MINOR), for the refusal line. */
#define DONTCACHE_SINCE "6.14"

/*
 * Whether RWF_DONTCACHE works where a run reads and writes, found by
 * trying it there, never from the version number: the file system must
 * support it as well as the kernel.  in_dir: a preadv2 with the flag on
 * one of its files; a directory not made yet (a data set to generate), a
 * pwritev2 and a preadv2 on a temporary file where it will be.  out_dir
 * (NULL: nothing is written): the same on a temporary file in it (or in
 * the parent it will be made in), O_TMPFILE where the file system has it,
 * else a named file removed at once.  0, or 1 and one line in why naming
 * what refused and why.  Both an unknown flag and a file system without
 * it fail with EOPNOTSUPP: on a kernel before DONTCACHE_SINCE the line
 * blames the kernel ("needs 6.14 or later"), on a later one the file
 * system ("the output directory D is on tmpfs, which does not ...").
 * Test seam: IOSTRAT_FAKE_NO_DONTCACHE=1 makes the probe answer as a
 * kernel without the flag (tests of the refusal on a kernel that has it).
 */
int dontcache_probe(const char *in_dir, const char *out_dir, char *why, size_t len);

/* The rw flags of job's reads and writes: RWF_DONTCACHE with --dontcache. */
int job_rwf(const struct job *job);

/* read(2) (rwf 0) or preadv2 at the file position with rwf: as read(2). */
ssize_t read_rwf(int fd, void *buf, size_t n, int rwf);
/* read_full / write_full (lib/fileio.h) through read_rwf / pwritev2. */
ssize_t read_full_rwf(int fd, void *buf, size_t n, int rwf);
int write_full_rwf(int fd, const void *buf, size_t n, int rwf);

#endif
