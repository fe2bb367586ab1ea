/* SPDX-License-Identifier: MIT */
/*
 * The data a sweep writes and reads: a pseudo-random block of
 * PATTERN_PERIOD bytes (a prime, so block boundaries wander across it)
 * repeated, one seed per file.  Cheap to build, cheap to checksum, and not
 * trivially compressible or page-aligned.
 */
#ifndef IOSTRAT_SWEEP_PATTERN_H
#define IOSTRAT_SWEEP_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include <xxhash.h>

#define PATTERN_PERIOD 65521u

/* period + extra bytes: data[0 .. period + extra), malloc'd; NULL on ENOMEM. */
unsigned char *pattern_build(uint64_t seed, size_t extra);
/* Feed the first size bytes of the data of seed to an xxh3 stream. */
int pattern_feed(XXH3_state_t *st, uint64_t seed, uint64_t size);
/* xxh3-64 of the first size bytes of the data of seed (0 on ENOMEM). */
uint64_t pattern_checksum(uint64_t seed, uint64_t size);
/* Create path with size bytes of the data of seed, fsync'd.  -errno. */
int pattern_write_file(const char *path, uint64_t seed, uint64_t size);

#endif
