/* SPDX-License-Identifier: MIT */
/* Stop signals passed on to a child program while a subcommand runs it. */
#ifndef IOSTRAT_SIGFWD_H
#define IOSTRAT_SIGFWD_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * SIGINT, SIGTERM and SIGHUP while a subcommand runs an outside program
 * (fio, the command of `iostrat trace`):
 * a catch of the stop module (stop.h) whose hook passes the signal on to
 * the child -- its whole process group when it has its own -- so nothing
 * keeps running behind our back; a second signal passes SIGKILL on (with
 * no child running, it ends us at once).  The caller sees sigfwd_caught(),
 * cleans up, keeps the complete rows and exits 128 + the signal.
 *
 * Catches made before sigfwd_catch() (the bench engine's) keep their
 * hooks, which run after ours.
 */

/* Install the handlers (nested calls are counted). */
void sigfwd_catch(void);
/* Restore what was there before the matching sigfwd_catch(). */
void sigfwd_release(void);
/* The child to pass signals on to (0: none); group: to its process group
 * (the child called setpgid(0, 0)).  A signal caught before this call is
 * passed on at once. */
void sigfwd_child(pid_t pid, bool group);
/* Around fork(): the parent blocks the signals before and unblocks them
 * after (one that came meanwhile is then caught, and passed on by
 * sigfwd_child); the child calls sigfwd_in_child() first thing, so it
 * neither runs our handler nor misses a signal before its execve. */
void sigfwd_block(bool block);
void sigfwd_in_child(void);
/* The signal caught since sigfwd_catch(), or 0. */
int sigfwd_caught(void);

#endif
