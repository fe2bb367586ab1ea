/* SPDX-License-Identifier: MIT */
/* The queue settings each scheduler's rounds of `iostrat sched` run under. */
#ifndef IOSTRAT_SCHED_ROUNDS_H
#define IOSTRAT_SCHED_ROUNDS_H

#include <stddef.h>

#include "plan.h"
#include "sysq.h"

/*
 * The queue settings each scheduler's rounds run under.  Switching to a
 * scheduler resets its tunables (and nr_requests, wbt_lat_usec) to the
 * kernel's defaults, but writing the active one changes nothing: so
 * without care an interleaved run's first round of the disk's current
 * scheduler keeps the disk's own tunables and every later round gets the
 * defaults.  The first switch to a scheduler captures what it has; every
 * later switch to it writes exactly that back, each write read back.
 */
struct sched_rounds {
	struct sysq base[SCHED_VALUES];
	size_t n;
};

/* Switch DISK to SCHEDULER under its captured settings (capturing them
 * on the first switch).  Prints its errors. */
int rounds_switch(struct sched_rounds *r, const char *disk,
		  const char *scheduler);

#endif
