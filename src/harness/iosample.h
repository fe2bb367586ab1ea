/* SPDX-License-Identifier: MIT */
/* The device's throughput over a timed repetition: /proc/diskstats sampled from the harness parent (see iosample.c). */
#ifndef IOSTRAT_IOSAMPLE_H
#define IOSTRAT_IOSAMPLE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "lib/series.h"

/* Every IOSAMPLE_MS the sampler reads the disk's sectors read and
 * written; the series (lib/series.h) holds whole intervals only, so a
 * repetition shorter than one has none: 20 ms gives the default
 * profile's 0.1 s repetitions five. */
#define IOSAMPLE_MS 20

struct iosample {
	pthread_t th;
	bool on;
	atomic_bool stop;
	char disk[64];
	FILE *f;               /* /proc/diskstats, open while sampling */
	uint64_t last[4];
	struct series s;
};

/* Sampling starts, in a thread of the parent, when disk is in
 * /proc/diskstats; otherwise io->on stays false and nothing runs. */
void iosample_start(struct iosample *io, const char *disk);
/* It stops; row's io_series is the series' text (null when off). */
void iosample_stop(struct iosample *io, json_t *row);

#endif
