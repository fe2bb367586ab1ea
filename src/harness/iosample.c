// SPDX-License-Identifier: MIT
/*
 * The device's throughput over a timed repetition: a thread of the
 * harness parent reads /proc/diskstats every IOSAMPLE_MS while the child
 * runs, so the measured process pays nothing but a core's share of one
 * read of that file per interval (docs/results.md "io_series").  The
 * disk is the whole disk under the data (the row's "device"); other I/O
 * to it in the window counts too.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iosample.h"
#include "lib/blockdev.h"

/* The next tick: IOSAMPLE_MS after *t (absolute, so no drift). */
static void next_tick(struct timespec *t)
{
	t->tv_nsec += IOSAMPLE_MS * 1000000L;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

/* MB/s of the sectors moved since before, over dt seconds. */
static double mbs(uint64_t now, uint64_t before, double dt)
{
	return now >= before && dt > 0 ? (double)(now - before) * 512 / 1e6 / dt : 0;
}

static double secs(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

static void *loop(void *arg)
{
	struct iosample *io = arg;
	struct timespec t, was, at;
	uint64_t now[4];

	clock_gettime(CLOCK_MONOTONIC, &t);
	was = t;
	while (!atomic_load(&io->stop)) {
		next_tick(&t);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
			;
		if (atomic_load(&io->stop) || !blockdev_diskstats_in(io->f, io->disk, now))
			break;
		clock_gettime(CLOCK_MONOTONIC, &at); /* a late wake-up is a longer interval */
		series_add(&io->s, mbs(now[0], io->last[0], secs(&at) - secs(&was)),
			   mbs(now[1], io->last[1], secs(&at) - secs(&was)));
		memcpy(io->last, now, sizeof(now));
		was = at;
	}
	return NULL;
}

static void iosample_close(struct iosample *io)
{
	if (io->f)
		fclose(io->f);
	io->f = NULL;
}

void iosample_start(struct iosample *io, const char *disk)
{
	sigset_t all, old;

	memset(io, 0, sizeof(*io));
	atomic_init(&io->stop, false);
	series_init(&io->s, IOSAMPLE_MS);
	if (!disk || !*disk)
		return;
	snprintf(io->disk, sizeof(io->disk), "%s", disk);
	/* open once: an open while the child runs is a charge to a memory
	 * cgroup the child may have filled (cgroup_rep_settle) */
	io->f = fopen("/proc/diskstats", "re");
	if (io->f)
		setvbuf(io->f, NULL, _IOFBF, 1 << 16);
	if (!io->f || !blockdev_diskstats_in(io->f, io->disk, io->last)) {
		iosample_close(io);
		return;
	}
	/* the signals stay the main thread's (stop signals, SIGCHLD) */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	io->on = !pthread_create(&io->th, NULL, loop, io);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!io->on)
		iosample_close(io);
}

void iosample_stop(struct iosample *io, json_t *row)
{
	char *text;

	if (!io->on)
		return;
	atomic_store(&io->stop, true);
	pthread_join(io->th, NULL);
	io->on = false;
	iosample_close(io);
	text = series_format(&io->s);
	json_object_set_new(row, "io_series", text ? json_string(text) : json_null());
	free(text);
}
