// SPDX-License-Identifier: MIT
/* iostrat queue: the reboot-between-runs queue (see src/queue/store.h). */
#include <errno.h>
#include <limits.h>
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
	      "                      append a command (run in the current directory;\n"
	      "                      --kernel boots that kernel first, through GRUB;\n"
	      "                      --timeout: this entry's watchdog, over run-next's)\n"
	      "  list                the queued entries, in run order\n"
	      "  remove ID           take an entry out\n"
	      "  status              paused or not, what runs, the last outcomes\n"
	      "  pause | resume      stop / restart the loop (a `paused` file)\n"
	      "  run-next            what the service runs at every boot:\n"
	      "      --settle S        wait S seconds first (default 300)\n"
	      "      --timeout S       watchdog: kill the command after S seconds\n"
	      "                        (default 0 = none; counts as a failed attempt)\n"
	      "      --max-attempts N  attempts before an entry is given up (default 2)\n"
	      "      --reboot-cmd CMD  how to reboot (default 'systemctl reboot --no-block')\n\n"
	      "  --state-dir DIR     queue state, results.log, history.jsonl\n"
	      "                      (default " DEFAULT_STATE_DIR ")\n", f);
}

struct qargs {
	const char *state_dir, *name, *kernel, *sub;
	const char *pos[4];
	int npos;
	char **cmd;
	int ncmd;
	bool timeout_set; /* --timeout given: add stores it in the entry */
	struct qrun_opts run;
};

static int opt_seconds(const char *opt, const char *s, double *out)
{
	if (parse_double(s, out) || *out < 0 || *out > 1e7) {
		errorf("%s: bad value '%s' (seconds, 0..10000000)", opt, s ? s : "");
		return -EINVAL;
	}
	return 0;
}

/* --opt VALUE or --opt=VALUE: the value, or NULL (error printed). */
static const char *value_of(const char *opt, int argc, char **argv, int *i)
{
	size_t n = strlen(opt);

	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (*i + 1 >= argc) {
		errorf("%s: missing value", opt);
		return NULL;
	}
	return argv[++*i];
}

static bool is_opt(const char *arg, const char *opt)
{
	size_t n = strlen(opt);

	return !strncmp(arg, opt, n) && (arg[n] == 0 || arg[n] == '=');
}

static int parse_opt(struct qargs *a, int argc, char **argv, int *i)
{
	static const char *const opts[] = {
		"--state-dir", "--name", "--kernel", "--settle", "--timeout",
		"--max-attempts", "--reboot-cmd",
	};
	const char *v = NULL;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(opts); k++)
		if (is_opt(argv[*i], opts[k]))
			break;
	if (k == ARRAY_SIZE(opts)) {
		errorf("%s: unknown option (iostrat queue --help)", argv[*i]);
		return -EINVAL;
	}
	if (!(v = value_of(opts[k], argc, argv, i)))
		return -EINVAL;
	switch (k) {
	case 0: a->state_dir = v; return 0;
	case 1: a->name = v; return 0;
	case 2: a->kernel = v; return 0;
	case 3: return opt_seconds("--settle", v, &a->run.settle);
	case 4: a->timeout_set = true;
		return opt_seconds("--timeout", v, &a->run.timeout);
	case 5: return opt_uint("--max-attempts", v, 1, 100, &a->run.max_attempts);
	default:
		if (!*v) { /* an empty command would "reboot" by doing nothing */
			errorf("--reboot-cmd: empty (give the command that reboots)");
			return -EINVAL;
		}
		a->run.reboot_cmd = v;
		return 0;
	}
}

static int parse_args(struct qargs *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			a->cmd = argv + i + 1;
			a->ncmd = argc - i - 1;
			return 0;
		}
		if (!strncmp(argv[i], "--", 2)) {
			if (parse_opt(a, argc, argv, &i))
				return -EINVAL;
		} else if (!a->sub) {
			a->sub = argv[i];
		} else if (a->npos < (int)ARRAY_SIZE(a->pos)) {
			a->pos[a->npos++] = argv[i];
		} else {
			errorf("%s: unexpected argument", argv[i]);
			return -EINVAL;
		}
	}
	return 0;
}

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

static int q_list(struct qstore *q)
{
	unsigned *ids;
	size_t n;
	int ret = qstore_ids(q, &ids, &n);

	if (ret)
		return error_errno(ret, q->dir, "read queue"), 1;
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

static int q_status(struct qstore *q)
{
	unsigned *ids;
	size_t n;
	int ret = qstore_ids(q, &ids, &n);

	if (ret)
		return error_errno(ret, q->dir, "read queue"), 1;
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

static int q_pause(struct qstore *q, bool paused)
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

int cmd_queue(int argc, char **argv)
{
	struct qargs a = {
		.state_dir = DEFAULT_STATE_DIR,
		.run = { .settle = 300, .timeout = 0, .max_attempts = 2,
			 /* --no-block: queue the reboot and return; it stops
			  * this unit, and a blocking systemctl is killed with
			  * it (seen in the lab's real boots, lab/reboot.sh) */
			 .reboot_cmd = "systemctl reboot --no-block" },
	};
	struct qstore q;

	/* --help anywhere before "--" (queue add --help too) */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			queue_usage(stdout);
			return 0;
		}
	if (parse_args(&a, argc, argv))
		return 2;
	if (!a.sub) {
		queue_usage(stderr);
		return 2;
	}
	if (a.ncmd && strcmp(a.sub, "add")) {
		errorf("queue %s: unexpected command after --", a.sub);
		return 2;
	}
	qstore_init(&q, a.state_dir);
	if (!strcmp(a.sub, "add"))
		return q_add(&q, &a);
	if (a.npos && strcmp(a.sub, "remove")) {
		errorf("queue %s: unexpected argument '%s'", a.sub, a.pos[0]);
		return 2;
	}
	if (!strcmp(a.sub, "list"))
		return q_list(&q);
	if (!strcmp(a.sub, "remove"))
		return q_remove(&q, &a);
	if (!strcmp(a.sub, "status"))
		return q_status(&q);
	if (!strcmp(a.sub, "pause") || !strcmp(a.sub, "resume"))
		return q_pause(&q, !strcmp(a.sub, "pause"));
	if (!strcmp(a.sub, "run-next"))
		return qrun_next(&q, &a.run);
	errorf("queue %s: unknown subcommand (iostrat queue --help)", a.sub);
	return 2;
}

/* Every option the parser above takes (settings.h): main.c refuses the rest. */
static const struct setting queue_table[] = {
	{ .name = "state-dir", .type = SET_STRING }, { .name = "name", .type = SET_STRING }, { .name = "kernel", .type = SET_STRING },
	{ .name = "settle", .type = SET_STRING }, { .name = "timeout", .type = SET_STRING }, { .name = "max-attempts", .type = SET_STRING },
	{ .name = "reboot-cmd", .type = SET_STRING },
	{ 0 },
};

const struct cmd_opts queue_cmdopts = { .cmd = "queue", .tables = { queue_table } };
