// SPDX-License-Identifier: MIT
/* The waits before a repetition's fork that a stop signal cuts short: see prewait.h. */
#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "prewait.h"
#include "stop.h"

/* The helper's exit status: 0, or the errno of fn's -errno (1..255). */
static void __attribute__((noreturn)) helper(int (*fn)(void *), void *arg)
{
	int ret;

	stop_in_child();
	ret = fn(arg);
	_exit(ret >= 0 ? 0 : -ret > 255 ? 255 : -ret);
}

/* The helper's end: 0, -errno of its status, -EINTR when a signal killed it. */
static int status_of(int st)
{
	if (WIFEXITED(st))
		return -WEXITSTATUS(st);
	return -EINTR;
}

int prewait_call(int (*fn)(void *arg), void *arg)
{
	static const struct timespec tick = { 0, 2 * 1000 * 1000 };
	pid_t pid, got;
	int st;

	if (stop_caught())
		return -EINTR;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return fn(arg); /* no helper: the wait as it was */
	if (pid == 0)
		helper(fn, arg);
	/* polled, not a blocking wait: a signal just before it is not lost */
	while ((got = waitpid(pid, &st, WNOHANG)) == 0 || (got < 0 && errno == EINTR)) {
		if (stop_caught())
			return -EINTR;
		nanosleep(&tick, NULL);
	}
	return got == pid ? status_of(st) : -ECHILD;
}

static int do_sync(void *arg)
{
	(void)arg;
	sync();
	return 0;
}

int prewait_sync(void)
{
	return prewait_call(do_sync, NULL);
}
