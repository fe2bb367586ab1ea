// SPDX-License-Identifier: MIT
/* Passing the stop signals on to a child: a hook of the stop module. */
#include <signal.h>

#include "sigfwd.h"
#include "stop.h"

static volatile sig_atomic_t target, target_group;
static int depth;

static void pass_on(int sig)
{
	pid_t pid = target;

	if (pid > 0)
		kill(target_group ? -pid : pid, sig);
}

/* The first signal goes on as it came; a child that shrugs it off gets
 * SIGKILL on the next.  With a child running we stay: it is reaped and
 * reported.  With none, the stop module's mode decides. */
static bool forward(int sig, unsigned count)
{
	if (target <= 0)
		return false;
	pass_on(count > 1 ? SIGKILL : sig);
	return true;
}

void sigfwd_catch(void)
{
	if (depth++)
		return;
	target = 0;
	stop_catch(STOP_SECOND_ENDS, forward, true);
}

void sigfwd_release(void)
{
	if (depth <= 0 || --depth)
		return;
	target = 0;
	stop_release();
}

void sigfwd_child(pid_t pid, bool group)
{
	target_group = group;
	target = pid;
	if (pid > 0 && stop_caught())
		pass_on(stop_caught());
}

void sigfwd_block(bool block)
{
	stop_block(block);
}

void sigfwd_in_child(void)
{
	stop_in_child();
}

int sigfwd_caught(void)
{
	return stop_caught();
}
