/* SPDX-License-Identifier: MIT */
/* Stop signals (SIGINT, SIGTERM, SIGHUP): how every long-running subcommand learns to stop. */
#ifndef IOSTRAT_STOP_H
#define IOSTRAT_STOP_H

#include <signal.h>
#include <stdbool.h>

/*
 * SIGINT, SIGTERM and SIGHUP: the one way every long-running subcommand
 * (gen, run, bench, sweep, sched, queue run-next, fio, net, trace) learns
 * that it should stop.  The signal is remembered (stop_caught()) and the
 * subcommand stops at its next safe point, cleans up and exits 128 + the
 * signal.  A hook may act at once, inside the handler (async-signal-safe
 * code only): kill the repetition's child, wake a measurement loop.
 *
 * Catches nest: a bench that runs fio keeps its own hook while fio's is
 * pushed on top; every hook on the stack runs, innermost first.
 *
 * What a second signal does is the mode's choice:
 *   STOP_SECOND_ENDS  the process ends at once (the signal's default
 *                     action): what is left behind is only temporaries
 *                     that the next start sweeps;
 *   STOP_NEVER_HARD   the process always reaches its cleanup, however
 *                     many signals come: system state (a disk's I/O
 *                     scheduler, a queue entry's outcome) must be
 *                     restored or recorded.
 * One STOP_NEVER_HARD anywhere on the stack wins.  A hook that returns
 * true (it passed the signal to a child still running) also keeps the
 * process alive.
 *
 * The signals are caught even when inherited as ignored: a shell starts
 * background jobs with SIGINT ignored, and kill -INT must still stop
 * them cleanly.
 */
enum stop_mode { STOP_SECOND_ENDS, STOP_NEVER_HARD };

/* hook(sig, count): count is 1 for the first signal, 2 for the next... */
typedef bool (*stop_hook)(int sig, unsigned count);

/* Push a catch: mode, hook (or NULL), and restart: interrupted system
 * calls restart (SA_RESTART) while this catch is the innermost one. */
void stop_catch(enum stop_mode mode, stop_hook hook, bool restart);
/* Pop the innermost catch; the last one restores what was there before. */
void stop_release(void);
/* The last signal caught since the outermost stop_catch(), or 0. */
int stop_caught(void);
/* How many since then. */
unsigned stop_count(void);
/* Around fork(): block the signals before, unblock after; the child calls
 * stop_in_child() first thing (default actions, nothing blocked), so it
 * neither runs our hooks nor misses a signal before its execve. */
void stop_block(bool block);
void stop_in_child(void);

#endif
