/* SPDX-License-Identifier: MIT */
/* Running one queued command: its process group, watchdog, log and signals. */
#ifndef IOSTRAT_QUEUE_EXEC_H
#define IOSTRAT_QUEUE_EXEC_H

#include <stdarg.h>
#include <stdbool.h>

#include <jansson.h>

struct qexec_result {
	double elapsed;
	int exit_code;     /* -1 when killed by a signal */
	int term_signal;
	bool timed_out;    /* the watchdog killed it */
	int interrupted;   /* SIGINT/SIGTERM reached us meanwhile */
};

/* SIGINT/SIGTERM set a flag (no SA_RESTART) instead of killing us. */
void qexec_catch_signals(void);
int qexec_signalled(void);
void qexec_sleep(double seconds);

/* Open the results log for appending; fd or -errno. */
int qexec_log_open(const char *path);
int qexec_log(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Run argv (a JSON array of strings) in cwd, in a process group of its
 * own, stdout+stderr appended to logfd, stdin /dev/null; env_add is a
 * NULL-terminated list of "NAME=value".  timeout > 0 kills the group
 * after that many seconds. */
int qexec_run(json_t *argv, const char *cwd, int logfd, char *const *env_add,
	      double timeout, struct qexec_result *r);

#endif
