// SPDX-License-Identifier: MIT
/* The sweeps' data: a seeded pseudo-random pattern, its files and its checksum. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "pattern.h"

#define CHUNK (1u << 20)

/* splitmix64: fast, seedable, good enough to defeat compression */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

unsigned char *pattern_build(uint64_t seed, size_t extra)
{
	size_t len = PATTERN_PERIOD + extra, i;
	unsigned char *p = malloc(len ? len : 1);
	uint64_t s = seed;

	if (!p)
		return NULL;
	for (i = 0; i + 8 <= PATTERN_PERIOD; i += 8) {
		uint64_t v = next(&s);

		memcpy(p + i, &v, 8);
	}
	for (; i < PATTERN_PERIOD; i++)
		p[i] = (unsigned char)next(&s);
	/* the tail repeats the period, so any window of `extra` is contiguous */
	for (i = PATTERN_PERIOD; i < len; i += PATTERN_PERIOD)
		memcpy(p + i, p, MIN((size_t)PATTERN_PERIOD, len - i));
	return p;
}

int pattern_feed(XXH3_state_t *st, uint64_t seed, uint64_t size)
{
	unsigned char *p = pattern_build(seed, 0);

	if (!p)
		return -ENOMEM;
	while (size) {
		size_t n = (size_t)MIN(size, (uint64_t)PATTERN_PERIOD);

		XXH3_64bits_update(st, p, n);
		size -= n;
	}
	free(p);
	return 0;
}

uint64_t pattern_checksum(uint64_t seed, uint64_t size)
{
	XXH3_state_t *st = XXH3_createState();
	uint64_t sum = 0;

	if (st) {
		XXH3_64bits_reset(st);
		if (!pattern_feed(st, seed, size))
			sum = XXH3_64bits_digest(st);
	}
	XXH3_freeState(st);
	return sum;
}

int pattern_write_file(const char *path, uint64_t seed, uint64_t size)
{
	unsigned char *p = pattern_build(seed, CHUNK);
	uint64_t off = 0;
	int fd, ret = 0;

	if (!p)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		free(p);
		return -errno;
	}
	while (!ret && off < size) {
		size_t n = (size_t)MIN(size - off, (uint64_t)CHUNK);

		ret = write_full(fd, p + off % PATTERN_PERIOD, n);
		off += n;
	}
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (ret)
		unlink(path);
	free(p);
	return ret;
}
