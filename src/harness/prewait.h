/* SPDX-License-Identifier: MIT */
/* The waits before a repetition's fork (sync, cache drop) that a stop signal cuts short. */
#ifndef IOSTRAT_PREWAIT_H
#define IOSTRAT_PREWAIT_H

/*
 * sync(2) and a write to drop_caches cannot be interrupted and take
 * seconds on a machine with dirty pages: a stop signal must not wait for
 * them.  prewait_call runs fn(arg) in a helper process and waits for it
 * until a stop signal is caught (stop_caught()): fn's result (0 or
 * -errno, carried in the exit status), or -EINTR when a stop came first
 * (the helper finishes its system call alone and is not waited for).
 */
int prewait_call(int (*fn)(void *arg), void *arg);

/* sync(2) through prewait_call: 0, or -EINTR after a stop signal. */
int prewait_sync(void);

#endif
