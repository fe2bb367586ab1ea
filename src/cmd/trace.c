// SPDX-License-Identifier: MIT
/*
 * iostrat trace [-d DEV] [--all] -- CMD [ARGS...]
 *
 * Runs CMD under the block-layer and page-cache probes and prints their
 * histograms: biopattern + biolatency + cachestat in one, on tracepoints.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "harness/sigfwd.h"
#include "trace/trace.h"
#include "lib/util.h"

static void trace_usage(FILE *f)
{
	fputs("usage: iostrat trace [-d DEV] [--all] [-o FILE] -- CMD [ARGS...]\n\n"
	      "Run CMD under the eBPF probes (root) and print what the kernel did:\n"
	      "block requests (seek distance, sizes, latency, queue depth,\n"
	      "sequential share) and page-cache hits, misses and readahead.\n"
	      "The options end at CMD.\n\n", f);
}

struct trace_args {
	struct tracer_filter f;
	const char *dev, *out;
	bool json, all;
	char **cmd;
};

static const struct setting trace_table[] = {
	{ .name = "device", .shortname = 'd', SETTING_STRING(struct trace_args, dev),
	  .metavar = "DEV",
	  .help = "only this disk: loop0, /dev/vda, or a path (its disk,\n"
		  "and page-cache events of its filesystem only)" },
	{ .name = "all", SETTING_BOOL(struct trace_args, all),
	  .help = "page cache of every process, not only CMD and its children" },
	{ .name = "json", SETTING_BOOL(struct trace_args, json),
	  .help = "the figures as one JSON object (the names of result rows)" },
	{ .shortname = 'o', SETTING_STRING(struct trace_args, out),
	  .metavar = "FILE",
	  .help = "write the report to FILE (default: standard error, so\n"
		  "CMD's own output stays clean)" },
	{ 0 },
};

const struct cmd_opts trace_cmdopts = {
	.cmd = "trace", .tables = { trace_table }, .usage = trace_usage,
	.flags = CMDOPT_STOP_AT_ARG,
};

/* 0; -ECANCELED after --help; -EINVAL after one line. */
static int parse(int argc, char **argv, struct trace_args *a)
{
	char why[160];
	int npos = cmdopt_parse(&trace_cmdopts, (void *[]){ a }, argc, argv);

	if (npos < 0)
		return npos;
	if (!npos) {
		errorf("trace: no command to run (iostrat trace -- CMD ...)");
		return -EINVAL;
	}
	argv[1 + npos] = NULL; /* CMD and its arguments, for execvp */
	a->cmd = argv + 1;
	a->f.pids = !a->all;
	if (probe_mode_check(why, sizeof(why))) {
		errorf("%s", why);
		return -EINVAL;
	}
	return 0;
}

static int resolve_dev(struct trace_args *a)
{
	char disk[64];
	uint32_t fs;
	int ret;

	if (!a->dev)
		return 0;
	if (strchr(a->dev, '/') && strncmp(a->dev, "/dev/", 5)) {
		if (access(a->dev, F_OK)) { /* name the path, not "no such device" */
			errorf("%s: %s", a->dev, strerror(errno));
			return -errno;
		}
		if (!trace_dev_of_path(a->dev, &a->f.disk_dev, &fs, disk, sizeof(disk))) {
			a->f.fs_dev = fs;
			return 0;
		}
	}
	ret = trace_dev_of_disk(a->dev, &a->f.disk_dev, disk, sizeof(disk));
	if (ret)
		errorf("%s: not a disk (%s)", a->dev, strerror(-ret));
	return ret;
}

/*
 * Fork CMD held on a pipe until the probes watch its pid.  CMD gets a
 * process group of its own, so a signal to us (sigfwd) reaches it and
 * whatever it forked -- unless we own the terminal: then CMD stays in our
 * group, where the terminal's ^C reaches every process already, and may
 * read the terminal.
 */
static pid_t spawn_held(char **cmd, int *go, bool *group)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	*group = !isatty(STDIN_FILENO) || tcgetpgrp(STDIN_FILENO) != getpgrp();
	fflush(NULL);
	sigfwd_block(true);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		sigfwd_block(false);
		close(p[0]);
		close(p[1]);
		return err;
	}
	if (pid == 0) {
		char c;

		sigfwd_in_child();
		if (*group)
			setpgid(0, 0);
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(127);
		execvp(cmd[0], cmd);
		fprintf(stderr, "%s: %s: %s\n", progname, cmd[0], strerror(errno));
		/* as a shell: 127 not found, 126 found but not executable */
		_exit(errno == ENOENT || errno == ENOTDIR ? 127 : 126);
	}
	close(p[0]);
	if (*group)
		setpgid(pid, pid); /* whichever of us runs first */
	sigfwd_block(false);
	*go = p[1];
	return pid;
}

static void print_json(FILE *f, struct tracer *t, int status, double secs)
{
	json_t *o = json_object();

	json_object_set_new(o, "exit_status", json_integer(WIFEXITED(status) ?
			    WEXITSTATUS(status) : 128 + WTERMSIG(status)));
	json_object_set_new(o, RC_ELAPSED, json_real(secs));
	trace_fill_row(o, t);
	json_dumpf(o, f, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(o);
}

/* f: the report's file, opened before CMD ran (stderr without -o). */
static int report(struct tracer *t, int status, double secs, char **cmd,
		  FILE *f, const char *out, bool json)
{
	int ret = tracer_read(t);

	if (ret)
		return error_errno(ret, "trace", "reading the probes");
	if (json) {
		print_json(f, t, status, secs);
	} else {
		fprintf(f, "iostrat trace: %s ", cmd[0]);
		if (WIFSIGNALED(status))
			fprintf(f, "killed by signal %d", WTERMSIG(status));
		else
			fprintf(f, "exited %d", WEXITSTATUS(status));
		fprintf(f, " after %.2f s\n\n", secs);
		trace_print(f, t);
	}
	if (f != stderr && fflush(f))
		return error_errno(-errno, out, "writing the report");
	return 0;
}

/* Load the probes, run CMD under them, report into rep: CMD's exit status,
 * or 1 when tracing failed. */
static int trace_run(struct trace_args *ap, FILE *rep)
{
	struct trace_args a = *ap;
	struct tracer t;
	char why[256];
	int go = -1, status = 0, ret;
	bool group = false;
	double t0;
	pid_t pid;

	ret = tracer_load(&t, &a.f, why, sizeof(why));
	if (ret) {
		errorf("trace: eBPF probes unavailable, %s", why);
		return 1;
	}
	tracer_print_notes(&t, "trace: ");
	sigfwd_catch(); /* from here, a signal goes on to CMD; we still report */
	pid = spawn_held(a.cmd, &go, &group);
	if (pid < 0) {
		sigfwd_release();
		tracer_unload(&t);
		error_errno(pid, a.cmd[0], "starting");
		return 1;
	}
	ret = tracer_reset(&t);
	if (!ret)
		ret = tracer_watch_pid(&t, pid);
	if (ret) {
		kill(pid, SIGKILL);
		close(go);
		waitpid(pid, NULL, 0);
		sigfwd_release();
		tracer_unload(&t);
		error_errno(ret, "trace", "setting up the probes");
		return 1;
	}
	sigfwd_child(pid, group);
	t0 = now_mono();
	if (write(go, "g", 1) != 1)
		kill(pid, SIGKILL);
	close(go);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigfwd_child(0, false);
	if (group && sigfwd_caught()) /* what CMD forked and left behind */
		kill(-pid, SIGKILL);
	sigfwd_release();
	ret = report(&t, status, now_mono() - t0, a.cmd, rep, a.out, a.json);
	tracer_unload(&t);
	if (ret)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int cmd_trace(int argc, char **argv)
{
	struct trace_args a = { 0 };
	FILE *rep = NULL;
	int ret;

	ret = parse(argc, argv, &a);
	if (ret)
		return cmdopt_exit(ret);
	if (resolve_dev(&a))
		return 2;
	/* Before CMD runs: a long command's report is not lost to a bad -o. */
	if (a.out && !(rep = fopen(a.out, "w"))) {
		error_errno(-errno, a.out, "opening the report");
		return 2;
	}
	ret = trace_run(&a, rep ? rep : stderr);
	if (rep && fclose(rep)) {
		error_errno(-errno, a.out, "writing the report");
		ret = 1;
	}
	return ret;
}
