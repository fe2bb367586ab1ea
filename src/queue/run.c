// SPDX-License-Identifier: MIT
/* `iostrat queue run-next`: one boot's worth of the reboot queue. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/env.h"
#include "lib/column.h"
#include "lib/util.h"
#include "exec.h"
#include "grub.h"
#include "run.h"

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	/* stderr goes to the journal under systemd */
	fputs("iostrat queue: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const char *boot_id(void)
{
	static char id[64];

	if (!id[0] && read_sysfs("/proc/sys/kernel/random/boot_id", id, sizeof(id)))
		snprintf(id, sizeof(id), "unknown");
	return id;
}

/* The kernel running now.  IOSTRAT_QUEUE_KERNEL stands in for it in the
 * tests, which cannot boot another kernel. */
static const char *running_kernel(void)
{
	const char *k = getenv("IOSTRAT_QUEUE_KERNEL");

	return k && *k ? k : env_kernel();
}

/* One history line: the entry's identity, the attempt, what happened. */
static int record(struct qstore *q, json_t *e, const char *outcome,
		  const char *status, const char *detail, double elapsed)
{
	char ts[64];
	json_t *r = json_object();
	int ret;

	qstore_timestamp(ts, sizeof(ts));
	json_object_set_new(r, "time", json_text(ts));
	json_object_set(r, "id", json_object_get(e, "id"));
	json_object_set_new(r, "name", json_text(qentry_str(e, "name")));
	json_object_set(r, "argv", json_object_get(e, "argv"));
	json_object_set_new(r, "attempt", json_integer(qentry_uint(e, "attempts")));
	json_object_set_new(r, "outcome", json_text(outcome));
	json_object_set_new(r, "status", json_text(status));
	json_object_set_new(r, "detail", json_text(detail));
	json_object_set_new(r, RC_ELAPSED, elapsed >= 0 ? json_real(elapsed) : json_null());
	json_object_set_new(r, "kernel", json_text(running_kernel()));
	json_object_set_new(r, "boot_id", json_text(boot_id()));
	ret = qstore_history(q, r);
	json_decref(r);
	if (ret)
		error_errno(ret, q->dir, "history.jsonl: append");
	return ret;
}

/* Final: record and take the entry out of the queue. */
static int finish(struct qstore *q, json_t *e, const char *outcome,
		  const char *status, const char *detail, double elapsed)
{
	int ret = record(q, e, outcome, status, detail, elapsed);

	if (!ret)
		ret = qstore_delete(q, qentry_uint(e, "id"));
	if (ret && ret != -ENOENT)
		return error_errno(ret, q->dir, "remove finished entry");
	say("entry %u (%s): %s: %s", qentry_uint(e, "id"), qentry_str(e, "name"),
	    status, detail);
	return 0;
}

/* Not final: back to queued with the reason, for the next boot. */
static int requeue(struct qstore *q, json_t *e, const char *outcome,
		   const char *detail, double elapsed)
{
	int ret = record(q, e, outcome, "retry", detail, elapsed);

	json_object_set_new(e, "state", json_text("queued"));
	json_object_set_new(e, "last_error", json_text(detail));
	if (!ret)
		ret = qstore_save(q, e);
	if (ret)
		return error_errno(ret, q->dir, "requeue entry");
	say("entry %u (%s): attempt %u %s: will retry", qentry_uint(e, "id"),
	    qentry_str(e, "name"), qentry_uint(e, "attempts"), detail);
	return 0;
}

enum pick { PICK_RUN, PICK_NEXT, PICK_REBOOT, PICK_ERROR };

/* An entry marked running while we hold the run lock was cut off: its
 * attempt failed.  Give up on it after max_attempts. */
static enum pick settle_stale(struct qstore *q, json_t *e,
			      const struct qrun_opts *o)
{
	unsigned att = qentry_uint(e, "attempts");
	char why[160];

	if (strcmp(qentry_str(e, "state"), "running"))
		return PICK_RUN;
	snprintf(why, sizeof(why),
		 "attempt %u was cut off (found running at boot: power loss, crash, watchdog or SIGKILL)",
		 att);
	if (record(q, e, "interrupted", att >= o->max_attempts ? "failed" : "retry",
		   why, -1))
		return PICK_ERROR;
	if (att < o->max_attempts) {
		/* queued again, durably: a kernel switch may reboot before
		 * the retry starts, and that boot must not find it running
		 * and count the same cut twice */
		json_object_set_new(e, "state", json_text("queued"));
		json_object_set_new(e, "last_error", json_text(why));
		if (qstore_save(q, e)) {
			errorf("%s: cannot requeue the cut-off entry", q->dir);
			return PICK_ERROR;
		}
		return PICK_RUN;
	}
	snprintf(why, sizeof(why), "gave up after %u interrupted attempt%s (--max-attempts %u)",
		 att, att == 1 ? "" : "s", o->max_attempts);
	return finish(q, e, "gave-up", "failed", why, -1) ? PICK_ERROR : PICK_NEXT;
}

/* Make the next boot start the entry's kernel, and record that it was
 * asked for during this attempt.  grub-reboot is a one-shot: the boot
 * after the one it chose returns to GRUB's default, so it is needed
 * before every reboot into an entry that names a kernel, even the kernel
 * running now (a retry after the watchdog, the next entry on the same
 * kernel).  Prints its own error. */
static int switch_kernel(struct qstore *q, json_t *e)
{
	int ret = grub_boot_next(qentry_str(e, "kernel"));

	if (ret)
		return ret;
	json_object_set_new(e, "kernel_boots",
			    json_integer(qentry_uint(e, "kernel_boots") + 1));
	json_object_set_new(e, "switch_attempts",
			    json_integer(qentry_uint(e, "attempts")));
	if ((ret = qstore_save(q, e)))
		error_errno(ret, q->dir, "record the kernel switch");
	return ret;
}

/* Was the kernel chosen for this entry since its last attempt started?
 * Then this boot is the one GRUB was told to start it in. */
static bool switched_this_attempt(json_t *e)
{
	json_t *sa = json_object_get(e, "switch_attempts");

	if (!qentry_uint(e, "kernel_boots"))
		return false;
	/* an entry queued by an older iostrat: one switch, ever */
	return !sa || (unsigned)json_integer_value(sa) == qentry_uint(e, "attempts");
}

/* An entry for another kernel: choose it in GRUB and reboot.  If this
 * boot is the one that was to start it and it is still the wrong kernel,
 * fail the entry (no endless loop).  A boot on the default kernel after
 * an attempt was cut off (power loss lands on GRUB's default) chooses
 * the kernel again: at most one switch per attempt. */
static enum pick check_kernel(struct qstore *q, json_t *e)
{
	const char *want = qentry_str(e, "kernel");
	bool switched = switched_this_attempt(e);
	char why[256];

	if (!*want || !strcmp(want, running_kernel()))
		return PICK_RUN;
	if (!switched && !switch_kernel(q, e)) {
		say("entry %u wants kernel %s (running %s): rebooting into it",
		    qentry_uint(e, "id"), want, running_kernel());
		return PICK_REBOOT;
	}
	snprintf(why, sizeof(why), "wanted kernel %s but booted %s%s", want,
		 running_kernel(), switched ? " after switching to it" :
		 " and could not switch");
	return finish(q, e, "wrong-kernel", "failed", why, -1) ? PICK_ERROR : PICK_NEXT;
}

/* Under the state lock: pick the entry to run now (marked running,
 * attempts counted, durably), or decide there is none. */
static enum pick pick_entry(struct qstore *q, const struct qrun_opts *o,
			    json_t **out)
{
	for (;;) {
		unsigned *ids;
		size_t n;
		json_t *e = NULL;
		enum pick p;
		char why[200];
		int ret = qstore_ids(q, &ids, &n);

		if (ret) {
			error_errno(ret, q->dir, "read queue");
			return PICK_ERROR;
		}
		if (!n) {
			free(ids);
			return PICK_NEXT; /* empty: nothing to run */
		}
		ret = qstore_load_why(q, ids[0], &e, why, sizeof(why));
		if (ret) {
			/* the loop stops here (no reboot): say which entry */
			errorf("%s/queue/%06u.json: queue entry %u is unreadable (%s): "
			       "the loop stops; remove it with iostrat queue remove %u",
			       q->dir, ids[0], ids[0], ret == -EBADMSG ?
			       why : strerror(-ret), ids[0]);
			free(ids);
			return PICK_ERROR;
		}
		free(ids);
		p = settle_stale(q, e, o);
		if (p == PICK_RUN)
			p = check_kernel(q, e);
		if (p == PICK_NEXT) {
			json_decref(e);
			continue;
		}
		if (p != PICK_RUN) {
			json_decref(e);
			return p;
		}
		json_object_set_new(e, "state", json_text("running"));
		json_object_set_new(e, "attempts",
				    json_integer(qentry_uint(e, "attempts") + 1));
		if ((ret = qstore_save(q, e))) {
			error_errno(ret, q->dir, "mark entry running");
			json_decref(e);
			return PICK_ERROR;
		}
		*out = e;
		return PICK_RUN;
	}
}

static void describe(const struct qexec_result *r, char *buf, size_t len)
{
	if (r->interrupted)
		snprintf(buf, len, "stopped by signal %d to run-next", r->interrupted);
	else if (r->timed_out)
		snprintf(buf, len, "killed by the watchdog after %.0f s", r->elapsed);
	else if (r->term_signal)
		snprintf(buf, len, "killed by signal %d", r->term_signal);
	else
		snprintf(buf, len, "exit %d", r->exit_code);
}

/* The entry's own watchdog (queue add --timeout), else run-next's. */
static double entry_timeout(json_t *e, const struct qrun_opts *o)
{
	json_t *t = json_object_get(e, "timeout");

	return json_is_number(t) ? json_number_value(t) : o->timeout;
}

static int run_entry(struct qstore *q, json_t *e, const struct qrun_opts *o,
		     struct qexec_result *r)
{
	char logp[PATH_MAX], cmd[2048], ts[64], envid[64], envatt[64];
	char *env[] = { envid, envatt, NULL };
	int fd, ret;

	qstore_path(q, "results.log", logp, sizeof(logp));
	fd = qexec_log_open(logp);
	if (fd < 0)
		return error_errno(fd, logp, "open results log");
	qentry_cmdline(e, cmd, sizeof(cmd));
	qstore_timestamp(ts, sizeof(ts));
	snprintf(envid, sizeof(envid), "IOSTRAT_QUEUE_ID=%u", qentry_uint(e, "id"));
	snprintf(envatt, sizeof(envatt), "IOSTRAT_QUEUE_ATTEMPT=%u",
		 qentry_uint(e, "attempts"));
	ret = qexec_log(fd, "\n=== iostrat queue: entry %u (%s) attempt %u/%u, %s, kernel %s, boot %s\n=== $ %s\n",
			qentry_uint(e, "id"), qentry_str(e, "name"),
			qentry_uint(e, "attempts"), o->max_attempts, ts,
			running_kernel(), boot_id(), cmd);
	if (!ret) {
		fsync(fd);
		say("running entry %u (%s): %s", qentry_uint(e, "id"),
		    qentry_str(e, "name"), cmd);
		ret = qexec_run(json_object_get(e, "argv"), qentry_str(e, "cwd"),
				fd, env, entry_timeout(e, o), r);
	}
	if (!ret) {
		describe(r, cmd, sizeof(cmd));
		ret = qexec_log(fd, "=== iostrat queue: entry %u: %s after %.1f s\n",
				qentry_uint(e, "id"), cmd, r->elapsed);
	}
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	close(fd);
	if (ret)
		error_errno(ret, logp, "results log");
	return ret;
}

/* Record what the attempt came to. */
static int conclude(struct qstore *q, json_t *e, const struct qrun_opts *o,
		    const struct qexec_result *r)
{
	char what[128];
	bool last = qentry_uint(e, "attempts") >= o->max_attempts;

	describe(r, what, sizeof(what));
	if (r->interrupted)
		return requeue(q, e, "interrupted", what, r->elapsed);
	if (r->timed_out && !last)
		return requeue(q, e, "timeout", what, r->elapsed);
	if (r->timed_out)
		return finish(q, e, "timeout", "failed", what, r->elapsed);
	if (r->exit_code == 0)
		return finish(q, e, "done", "done", what, r->elapsed);
	return finish(q, e, "failed", "failed", what, r->elapsed);
}

/* Before rebooting: the next entry's kernel, so that boot runs it --
 * chosen even when it is the one running now, as GRUB's default may be
 * another.  A failure is left to the next boot's check_kernel (which
 * tries once more, then fails the entry). */
static void prepare_next_kernel(struct qstore *q)
{
	unsigned *ids;
	size_t n;
	json_t *e;

	if (qstore_ids(q, &ids, &n) || !n) {
		free(ids);
		return;
	}
	if (!qstore_load(q, ids[0], &e)) {
		if (*qentry_str(e, "kernel"))
			switch_kernel(q, e);
		json_decref(e);
	}
	free(ids);
}

static int reboot_now(const struct qrun_opts *o)
{
	int st;

	sync();
	say("rebooting: %s", o->reboot_cmd);
	st = system(o->reboot_cmd);
	/* A reboot stops this unit: systemd signals its whole cgroup, the
	 * reboot command (still running) and run-next too.  That is the
	 * reboot under way, not a failure (every real reboot in the lab was
	 * logged "failed (status 128)" before). */
	if (st != -1 && WIFSIGNALED(st) && qexec_signalled()) {
		say("reboot under way (the system is stopping this unit)");
		return 0;
	}
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		errorf("--reboot-cmd '%s': failed (status %d)", o->reboot_cmd,
		       st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128);
		return 1;
	}
	return 0;
}

static bool queue_empty(struct qstore *q)
{
	unsigned *ids;
	size_t n = 0;

	qstore_ids(q, &ids, &n);
	free(ids);
	return n == 0;
}

/* Wait for the boot to settle; pausing or a signal ends the wait. */
static int settle(struct qstore *q, const struct qrun_opts *o)
{
	double end = now_mono() + o->settle;

	if (o->settle > 0)
		say("waiting %.0f s for the system to settle (iostrat queue pause stops the loop)",
		    o->settle);
	while (now_mono() < end) {
		if (qexec_signalled())
			return 128 + qexec_signalled();
		if (qstore_paused(q))
			break;
		qexec_sleep(MIN(0.5, end - now_mono()));
	}
	if (qstore_paused(q)) {
		say("paused (iostrat queue resume, or remove %s/paused): nothing run, no reboot",
		    q->dir);
		return 0;
	}
	return -1; /* go on */
}

static int one_boot(struct qstore *q, const struct qrun_opts *o)
{
	struct qexec_result r = { 0 };
	json_t *e = NULL;
	enum pick p;
	int ret;

	ret = settle(q, o);
	if (ret >= 0)
		return ret;
	if ((ret = qstore_lock(q)))
		return error_errno(ret, q->dir, "lock"), 1;
	p = pick_entry(q, o, &e);
	qstore_unlock(q);
	if (p == PICK_ERROR)
		return 1;
	if (p == PICK_REBOOT)
		return reboot_now(o);
	if (p == PICK_NEXT) {
		say("queue empty: nothing to run, no reboot");
		return 0;
	}
	ret = run_entry(q, e, o, &r);
	if (!ret) {
		qstore_lock(q);
		ret = conclude(q, e, o, &r);
		if (!ret && !r.interrupted && !qstore_paused(q))
			prepare_next_kernel(q);
		qstore_unlock(q);
	}
	json_decref(e);
	if (ret)
		return 1; /* something was not recorded: never reboot then */
	if (r.interrupted)
		return 128 + r.interrupted;
	if (qstore_paused(q)) {
		say("paused: no reboot");
		return 0;
	}
	if (queue_empty(q)) {
		say("queue now empty: done, no reboot");
		return 0;
	}
	return reboot_now(o);
}

int qrun_next(struct qstore *q, const struct qrun_opts *o)
{
	int ret;

	if (queue_empty(q)) {
		say("queue empty: nothing to run, no reboot");
		return 0;
	}
	if (qstore_paused(q)) {
		say("paused (iostrat queue resume): nothing run, no reboot");
		return 0;
	}
	ret = qstore_run_lock(q);
	if (ret == -EBUSY) {
		errorf("%s: another `iostrat queue run-next` is running", q->dir);
		return 1;
	}
	if (ret)
		return error_errno(ret, q->dir, "run.lock"), 1;
	qexec_catch_signals();
	ret = one_boot(q, o);
	qstore_run_unlock(q);
	return ret;
}
