// SPDX-License-Identifier: MIT
/* Running one queue entry: its own process group, output appended to the
 * results log, a watchdog, and SIGINT/SIGTERM passed on to the group. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/stop.h"
#include "lib/util.h"
#include "exec.h"

/* run-next records every attempt's outcome before it exits: however
 * many signals come, it reaches that (the command is killed below). */
void qexec_catch_signals(void)
{
	stop_catch(STOP_NEVER_HARD, NULL, false);
}

int qexec_signalled(void)
{
	return stop_caught();
}

void qexec_sleep(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (double)(time_t)s) * 1e9) };

	nanosleep(&ts, NULL); /* a signal cuts it short, as it should */
}

int qexec_log_open(const char *path)
{
	/* O_APPEND and never O_TRUNC: what earlier runs wrote stays. */
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);

	return fd < 0 ? -errno : fd;
}

int qexec_log(int fd, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	return write_full(fd, buf, (size_t)n);
}

static void child(json_t *argv_json, const char *cwd, int logfd,
		  char *const *env_add)
{
	size_t n = json_array_size(argv_json);
	char **argv = calloc(n + 1, sizeof(char *));
	int nullfd;

	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (!argv)
		_exit(127);
	for (size_t i = 0; i < n; i++)
		argv[i] = (char *)json_string_value(json_array_get(argv_json, i));
	nullfd = open("/dev/null", O_RDONLY);
	if (nullfd >= 0)
		dup2(nullfd, 0);
	dup2(logfd, 1);
	dup2(logfd, 2);
	for (; env_add && *env_add; env_add++)
		putenv(*env_add);
	/* Not run elsewhere: a command with relative paths would read and
	 * write in a directory nobody chose.  126, as a shell's "cannot run". */
	if (cwd && *cwd && chdir(cwd) < 0) {
		dprintf(2, "iostrat queue: %s: cannot enter the directory the entry "
			"was added from (%s): not run\n", cwd, strerror(errno));
		_exit(126);
	}
	if (!argv[0])
		_exit(127);
	execvp(argv[0], argv);
	dprintf(2, "iostrat queue: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Kill the whole group: TERM, then KILL after a grace period. */
static void kill_group(pid_t pid, int *st)
{
	kill(-pid, SIGTERM);
	for (int i = 0; i < 100; i++) {
		if (waitpid(pid, st, WNOHANG) == pid) {
			kill(-pid, SIGKILL); /* stragglers of the group */
			return;
		}
		qexec_sleep(0.05);
	}
	kill(-pid, SIGKILL);
	while (waitpid(pid, st, 0) < 0 && errno == EINTR)
		;
}

int qexec_run(json_t *argv, const char *cwd, int logfd, char *const *env_add,
	      double timeout, struct qexec_result *r)
{
	double t0 = now_mono();
	pid_t pid;
	int st = 0;

	memset(r, 0, sizeof(*r));
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		child(argv, cwd, logfd, env_add);
	setpgid(pid, pid); /* both sides, so no race on kill(-pid) */
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (stop_caught()) {
			r->interrupted = stop_caught();
			kill_group(pid, &st);
			break;
		}
		if (timeout > 0 && now_mono() - t0 > timeout) {
			r->timed_out = true;
			kill_group(pid, &st);
			break;
		}
		qexec_sleep(0.05);
	}
	r->elapsed = now_mono() - t0;
	r->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	r->term_signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	return 0;
}
