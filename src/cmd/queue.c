// SPDX-License-Identifier: MIT
/* iostrat queue: the reboot-between-runs queue (see src/queue/store.h). */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "queue/grub.h"
#include "queue/run.h"
#include "queue/store.h"
#include "lib/util.h"

#define DEFAULT_STATE_DIR "/var/lib/iostrat"

static void queue_usage(FILE *f)
{
	fputs("usage: iostrat queue [--state-dir DIR] SUBCOMMAND [options]\n\n"
	      "A queue of commands run one per boot by iostrat-queue.service\n"
	      "(`make install-queue`), with a reboot between them.\n\n"
	      "  add [--name N] [--kernel VERSION] [--timeout S] -- COMMAND...\n"
	      "                      append a command (run in the current directory)\n"
	      "  list                the queued entries, in run order\n"
	      "  remove ID           take an entry out\n"
	      "  status              paused or not, what runs, the last outcomes\n"
	      "  pause | resume      stop / restart the loop (a `paused` file)\n"
	      "  run-next [--settle S] [--timeout S] [--max-attempts N] [--reboot-cmd CMD]\n"
	      "                      what the service runs at every boot\n\n"
	      "options:\n", f);
}

struct qargs {
	const char *state_dir, *name, *kernel;
	const char *const *pos;	/* the arguments after the subcommand */
	int npos;
	char **cmd;		/* add: the command after -- */
	int ncmd;
	double timeout;		/* --timeout, or -1: not given */
	bool timeout_set;	/* --timeout given: add stores it in the entry */
	struct qrun_opts run;
};

/* --reboot-cmd: an empty command would "reboot" by doing nothing */
static int set_reboot_cmd(const struct setting *s, const char *v, void *obj)
{
	struct qrun_opts *o = obj;

	(void)s;
	if (!*v) {
		errorf("--reboot-cmd: empty (give the command that reboots)");
		return -EINVAL;
	}
	o->reboot_cmd = v;
	return 0;
}

/* add's options, and --timeout, which run-next takes too (into struct qargs) */
static const struct setting add_table[] = {
	{ .name = "name", SETTING_STRING(struct qargs, name),
	  .metavar = "N", .help = "add: a name for the entry" },
	{ .name = "kernel", SETTING_STRING(struct qargs, kernel),
	  .metavar = "VERSION", .help = "add: boot that kernel first, through GRUB" },
	{ .name = "timeout", SETTING_DOUBLE(struct qargs, timeout),
	  .max = 10000000, .metavar = "S",
	  .help = "run-next: watchdog: kill the command after S seconds\n"
		  "(default 0 = none; counts as a failed attempt);\n"
		  "add: this entry's watchdog, over run-next's" },
	{ 0 },
};

/* run-next's options (into struct qrun_opts) */
static const struct setting run_next_table[] = {
	{ .name = "settle", SETTING_DOUBLE(struct qrun_opts, settle),
	  .max = 10000000, .metavar = "S",
	  .help = "run-next: wait S seconds first (default 300)" },
	{ .name = "max-attempts", SETTING_UINT(struct qrun_opts, max_attempts),
	  .min = 1, .max = 100,
	  .metavar = "N",
	  .help = "run-next: attempts before an entry is given up (default 2)" },
	{ .name = "reboot-cmd", .type = SET_CALL, .arg = true, .call = set_reboot_cmd,
	  .metavar = "CMD",
	  .help = "run-next: how to reboot (default 'systemctl reboot --no-block')" },
	{ 0 },
};

/* every subcommand's (into struct qargs) */
static const struct setting queue_table[] = {
	{ .name = "state-dir", SETTING_STRING(struct qargs, state_dir),
	  .metavar = "DIR",
	  .help = "queue state, results.log, history.jsonl\n"
		  "(default " DEFAULT_STATE_DIR ")" },
	{ 0 },
};

const struct cmd_opts queue_cmdopts = {
	.cmd = "queue", .tables = { add_table, run_next_table, queue_table },
	.usage = queue_usage,
};

/* A name is printed by list and in results.log's "=== " lines: a newline or
 * another control character would break the one and forge the other. */
static int check_name(const char *name)
{
	if (!*name)
		return errorf("queue add: --name: empty"), -EINVAL;
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return errorf("queue add: name: control character 0x%02x (a "
				      "name is one line of printable text)", *c), -EINVAL;
	return 0;
}

static int q_add(struct qstore *q, struct qargs *a)
{
	char cwd[PATH_MAX], ts[64];
	json_t *e, *argv;
	int ret;

	if (a->ncmd < 1 || a->npos) {
		errorf("queue add: give the command after --: iostrat queue add [--name N] [--kernel VERSION] [--timeout S] -- COMMAND...");
		return 2;
	}
	if (check_name(a->name ? a->name : a->cmd[0]))
		return 2;
	if (a->kernel && grub_check(a->kernel))
		return 1;
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), "/");
	qstore_timestamp(ts, sizeof(ts));
	argv = json_array();
	for (int i = 0; i < a->ncmd; i++)
		json_array_append_new(argv, json_text(a->cmd[i]));
	e = json_pack("{s:i, s:s, s:o, s:s, s:o, s:s, s:i, s:i, s:s, s:s}",
		      "id", 0, "name", a->name ? a->name : a->cmd[0], "argv", argv,
		      "cwd", cwd, "kernel", a->kernel ? json_text(a->kernel) : json_null(),
		      "state", "queued", "attempts", 0, "kernel_boots", 0,
		      "added", ts, "last_error", "");
	if (!e)
		return errorf("queue add: bad command text (not UTF-8?)"), 1;
	if (a->timeout_set) /* else run-next's --timeout applies */
		json_object_set_new(e, "timeout", json_real(a->run.timeout));
	ret = qstore_create(q);
	if (!ret)
		ret = qstore_lock(q);
	if (!ret) {
		ret = qstore_append(q, e);
		qstore_unlock(q);
	}
	if (ret) {
		json_decref(e);
		return error_errno(ret, q->dir, "queue add"), 1;
	}
	printf("%u\n", qentry_uint(e, "id"));
	json_decref(e);
	return 0;
}

/* An entry, or -errno and for a corrupt one a warning naming its file
 * and what is wrong with it. */
static int load_or_say(struct qstore *q, unsigned id, json_t **e)
{
	char why[200];
	int ret = qstore_load_why(q, id, e, why, sizeof(why));

	if (ret == -EBADMSG)
		warnf("%s/queue/%06u.json: queue entry %u is corrupt (%s); remove it "
		      "with iostrat queue remove %u", q->dir, id, id, why, id);
	else if (ret)
		warnf("%s/queue/%06u.json: %s", q->dir, id, strerror(-ret));
	return ret;
}

/* The queue's entry ids (*ids malloc'd): 0, or -errno after one line. */
static int q_ids(struct qstore *q, unsigned **ids, size_t *n)
{
	int ret = qstore_ids(q, ids, n);

	if (ret)
		error_errno(ret, q->dir, "read queue");
	return ret;
}

static int q_list(struct qstore *q, struct qargs *a)
{
	unsigned *ids;
	size_t n;

	(void)a;
	if (q_ids(q, &ids, &n))
		return 1;
	printf("%-6s %-8s %-8s %-20s %-16s %s\n", "ID", "STATE", "ATTEMPTS",
	       "KERNEL", "NAME", "COMMAND");
	for (size_t i = 0; i < n; i++) {
		char cmd[1024];
		json_t *e;

		if (load_or_say(q, ids[i], &e)) {
			printf("%-6u %-8s\n", ids[i], "corrupt");
			continue;
		}
		qentry_cmdline(e, cmd, sizeof(cmd));
		printf("%-6u %-8s %-8u %-20s %-16s %s\n", ids[i],
		       qentry_str(e, "state"), qentry_uint(e, "attempts"),
		       *qentry_str(e, "kernel") ? qentry_str(e, "kernel") : "-",
		       qentry_str(e, "name"), cmd);
		json_decref(e);
	}
	free(ids);
	return 0;
}

static int q_remove(struct qstore *q, struct qargs *a)
{
	unsigned id;
	json_t *e = NULL;
	int ret;

	if (a->npos != 1 || parse_uint(a->pos[0], 1, 999999999, &id)) {
		errorf("queue remove: give one entry ID (iostrat queue list)");
		return 2;
	}
	ret = qstore_lock(q);
	if (ret == -ENOENT) { /* no state directory: no entries */
		errorf("queue remove %u: no such entry (iostrat queue list)", id);
		return 1;
	}
	if (ret)
		return error_errno(ret, q->dir, "lock"), 1;
	ret = qstore_load(q, id, &e);
	if (ret == -EBADMSG)
		ret = 0, e = NULL; /* a corrupt entry can always go */
	if (ret == -ENOENT) {
		errorf("queue remove %u: no such entry (iostrat queue list)", id);
	} else if (!ret && e && !strcmp(qentry_str(e, "state"), "running") &&
		   qstore_run_busy(q)) {
		errorf("queue remove %u: it is running now (iostrat queue pause stops the loop after it)", id);
		ret = -EBUSY;
	} else {
		if (!ret)
			ret = qstore_delete(q, id);
		if (ret)
			error_errno(ret, q->dir, "queue remove");
	}
	json_decref(e);
	qstore_unlock(q);
	return ret ? 1 : 0;
}

static void print_history_tail(struct qstore *q, size_t max)
{
	char p[PATH_MAX], *text, *lines[64];
	size_t n = 0;

	qstore_path(q, "history.jsonl", p, sizeof(p));
	if (read_file_small(p, &text, NULL))
		return;
	for (char *s = strtok(text, "\n"); s; s = strtok(NULL, "\n"))
		lines[n++ % ARRAY_SIZE(lines)] = s;
	printf("last outcomes (%s):\n", p);
	for (size_t i = n > max ? n - max : 0; i < n; i++) {
		json_t *r = json_loads(lines[i % ARRAY_SIZE(lines)], 0, NULL);

		if (!r)
			continue;
		printf("  %s  #%-4u %-16s attempt %u  %-8s %s\n",
		       qentry_str(r, "time"), qentry_uint(r, "id"),
		       qentry_str(r, "name"), qentry_uint(r, "attempt"),
		       qentry_str(r, "status"), qentry_str(r, "detail"));
		json_decref(r);
	}
	free(text);
}

static int q_status(struct qstore *q, struct qargs *a)
{
	unsigned *ids;
	size_t n;

	(void)a;
	if (q_ids(q, &ids, &n))
		return 1;
	printf("state dir: %s\n", q->dir);
	printf("loop:      %s\n", qstore_paused(q) ?
	       "PAUSED (run-next does nothing; iostrat queue resume)" : "active");
	printf("run-next:  %s\n", qstore_run_busy(q) ? "running now" : "idle");
	printf("entries:   %zu queued\n", n);
	for (size_t i = 0; i < n && i < 1; i++) {
		json_t *e;

		if (load_or_say(q, ids[i], &e)) {
			printf("next:      #%u corrupt: run-next stops there\n", ids[i]);
			continue;
		}
		printf("next:      #%u %s (%s, attempts %u)\n", ids[i],
		       qentry_str(e, "name"), qentry_str(e, "state"),
		       qentry_uint(e, "attempts"));
		json_decref(e);
	}
	free(ids);
	print_history_tail(q, 10);
	return 0;
}

static int q_set_paused(struct qstore *q, bool paused)
{
	int ret = qstore_create(q);

	if (!ret)
		ret = qstore_set_paused(q, paused);
	if (ret)
		return error_errno(ret, q->dir, paused ? "pause" : "resume"), 1;
	printf("%s\n", paused ? "paused: run-next will do nothing until `iostrat queue resume`"
			      : "resumed: the next boot runs the next entry");
	return 0;
}

static int q_pause(struct qstore *q, struct qargs *a)
{
	(void)a;
	return q_set_paused(q, true);
}

static int q_resume(struct qstore *q, struct qargs *a)
{
	(void)a;
	return q_set_paused(q, false);
}

static int q_run_next(struct qstore *q, struct qargs *a)
{
	return qrun_next(q, &a->run);
}

/* The subcommands; what each takes besides the options. */
#define Q_ID	1u	/* arguments after the subcommand (remove ID) */
#define Q_CMD	2u	/* a command after -- (add) */
static const struct qsub {
	const char *name;
	int (*fn)(struct qstore *q, struct qargs *a);
	unsigned takes;
} qsubs[] = {
	{ "add", q_add, Q_ID | Q_CMD },	/* q_add refuses arguments itself */
	{ "list", q_list, 0 },
	{ "remove", q_remove, Q_ID },
	{ "status", q_status, 0 },
	{ "pause", q_pause, 0 },
	{ "resume", q_resume, 0 },
	{ "run-next", q_run_next, 0 },
};

/* The subcommand called name, or NULL after one line. */
static const struct qsub *qsub_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(qsubs); i++)
		if (!strcmp(qsubs[i].name, name))
			return &qsubs[i];
	errorf("queue %s: unknown subcommand (iostrat queue --help)", name);
	return NULL;
}

/* What follows the subcommand fits it: 0, or 2 after one line. */
static int qsub_check(const struct qsub *s, const struct qargs *a)
{
	if (a->ncmd && !(s->takes & Q_CMD)) {
		errorf("queue %s: unexpected command after --", s->name);
		return 2;
	}
	if (a->npos && !(s->takes & Q_ID)) {
		errorf("queue %s: unexpected argument '%s'", s->name, a->pos[0]);
		return 2;
	}
	return 0;
}

/* Where the options end: the first "--" (add's command follows it), or argc. */
static int options_end(int argc, char **argv)
{
	int i = 1;

	while (i < argc && strcmp(argv[i], "--"))
		i++;
	return i;
}

int cmd_queue(int argc, char **argv)
{
	struct qargs a = {
		.state_dir = DEFAULT_STATE_DIR, .timeout = -1,
		.run = { .settle = 300, .timeout = 0, .max_attempts = 2,
			 /* --no-block: queue the reboot and return; it stops
			  * this unit, and a blocking systemctl is killed with
			  * it (seen in the lab's real boots, lab/reboot.sh) */
			 .reboot_cmd = "systemctl reboot --no-block" },
	};
	int end = options_end(argc, argv), npos;
	const struct qsub *sub;
	struct qstore q;

	npos = cmdopt_parse(&queue_cmdopts, (void *[]){ &a, &a.run, &a }, end, argv);
	if (npos < 0)
		return cmdopt_exit(npos);
	if (!npos) {
		cmdopt_help(&queue_cmdopts, stderr);
		return 2;
	}
	if (!(sub = qsub_find(argv[1])))
		return 2;
	a.pos = (const char *const *)argv + 2;
	a.npos = npos - 1;
	a.cmd = argv + end + (end < argc);
	a.ncmd = argc - end - (end < argc);
	if (qsub_check(sub, &a))
		return 2;
	a.timeout_set = a.timeout >= 0;
	a.run.timeout = a.timeout_set ? a.timeout : 0;
	qstore_init(&q, a.state_dir);
	return sub->fn(&q, &a);
}
