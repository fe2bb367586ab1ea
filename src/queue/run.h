/* SPDX-License-Identifier: MIT */
/* Running the next entry of the reboot queue (settle, watchdog, attempts, reboot). */
#ifndef IOSTRAT_QUEUE_RUN_H
#define IOSTRAT_QUEUE_RUN_H

#include "store.h"

struct qrun_opts {
	double settle;           /* seconds to wait after boot */
	double timeout;          /* watchdog per command, 0 = none */
	unsigned max_attempts;   /* started attempts before giving up */
	const char *reboot_cmd;  /* run with /bin/sh -c */
};

/*
 * One "boot" of the queue: settle, settle any entry a crash left marked
 * running, run the first entry with its output appended to results.log,
 * record the outcome, and reboot when entries remain.  Never reboots when
 * the queue is empty or paused, or when recording anything failed.
 * Returns the process exit status.
 */
int qrun_next(struct qstore *q, const struct qrun_opts *o);

#endif
