// SPDX-License-Identifier: MIT
/* iostrat sched: run a profile under each I/O scheduler and queue setting
 * of one disk, every row carrying them, then compare; the disk's settings
 * restored at the end, on error, on SIGINT/SIGTERM, and after a SIGKILL
 * by the next iostrat (src/sched/sysq.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/blockdev.h"
#include "commands.h"
#include "harness/env.h"
#include "sched/plan.h"
#include "sched/rounds.h"
#include "sched/sysq.h"
#include "harness/stop.h"
#include "lib/util.h"

static void sched_usage(FILE *f)
{
	fputs("usage: iostrat sched [--device DEV] [--schedulers LIST] [--set ATTR=V1,V2]...\n"
	      "                     [--interleave] [--reps N] [--out DIR] [--data DIR]\n"
	      "                     [-D KEY=VALUE]... PROFILE\n\n"
	      "Run `iostrat bench PROFILE` once per setting of DEV's request queue\n"
	      "(each scheduler crossed with each --set value), verify each setting\n"
	      "took, add it to every row, then `iostrat compare` the runs.  DEV's\n"
	      "settings are restored at the end, on error and on Ctrl-C/SIGTERM; after\n"
	      "a SIGKILL the next `iostrat sched` or `iostrat bench` restores them.\n\n"
	      "  --device DEV       disk to tune (default: the disk under --data)\n"
	      "  --schedulers LIST  e.g. none,mq-deadline,kyber,bfq (default: current)\n"
	      "  --set ATTR=LIST    read_ahead_kb, nr_requests or wbt_lat_usec values\n"
	      "  --interleave       rep 1 of every setting, then rep 2, ... (drift hits\n"
	      "                     all settings alike); --reps rounds (default 3)\n"
	      "  --reps N           repetitions per configuration (default: the profile's)\n"
	      "  -o, --out DIR      results (default results/<time>-sched-<profile>),\n"
	      "                     one bench results directory per setting inside\n"
	      "  --data DIR         data set cache, on DEV (default $IOSTRAT_DATA, else ./data)\n"
	      "  -D KEY=VALUE       passed to iostrat bench\n", f);
}

struct sched_args {
	const char *device, *schedulers, *out, *data, *profile;
	const char *sets[SCHED_AXES];
	size_t nsets;
	char **defs;
	size_t ndefs;
	bool interleave;
	unsigned reps;
};


static int parse_args(struct sched_args *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		const char **slot = NULL;

		if (!strcmp(s, "--interleave")) {
			a->interleave = true;
			continue;
		}
		if (!strcmp(s, "--device")) slot = &a->device;
		else if (!strcmp(s, "--schedulers")) slot = &a->schedulers;
		else if (!strcmp(s, "--out") || !strcmp(s, "-o")) slot = &a->out;
		else if (!strcmp(s, "--data")) slot = &a->data;
		else if (!strcmp(s, "--set") || !strcmp(s, "-D") || !strcmp(s, "--reps")) {
			if (i + 1 >= argc) {
				errorf("%s: missing value", s);
				return -EINVAL;
			}
			if (!strcmp(s, "--reps")) {
				if (opt_uint("--reps", argv[++i], 1, 1000, &a->reps))
					return -EINVAL;
			} else if (!strcmp(s, "-D")) {
				a->defs[a->ndefs++] = argv[++i];
			} else if (a->nsets >= SCHED_AXES) {
				errorf("--set: at most %d", SCHED_AXES);
				return -EINVAL;
			} else {
				a->sets[a->nsets++] = argv[++i];
			}
			continue;
		} else if (s[0] == '-' && s[1]) {
			errorf("%s: unknown option (iostrat sched --help)", s);
			return -EINVAL;
		} else if (!a->profile) {
			a->profile = s;
			continue;
		} else {
			errorf("%s: one PROFILE only", s);
			return -EINVAL;
		}
		if (i + 1 >= argc) {
			errorf("%s: missing value", s);
			return -EINVAL;
		}
		*slot = argv[++i];
	}
	if (!a->profile) {
		errorf("sched: give a PROFILE (iostrat sched --help)");
		return -EINVAL;
	}
	return 0;
}

/* "/dev/sdb1" or "sdb1" -> "sdb" (a partition's disk), said aloud. */
static int normalize_device(const char *dev, char *disk, size_t len)
{
	char p[PATH_MAX], real[PATH_MAX], *slash;

	if (!strncmp(dev, "/dev/", 5))
		dev += 5;
	snprintf(disk, len, "%s", dev);
	snprintf(p, sizeof(p), "/sys/class/block/%s/partition", dev);
	if (strchr(dev, '/') || access(p, F_OK))
		return 0;
	snprintf(p, sizeof(p), "/sys/class/block/%s", dev);
	if (!realpath(p, real) || !(slash = strrchr(real, '/')))
		return 0;
	*slash = 0;
	slash = strrchr(real, '/');
	if (slash) {
		snprintf(disk, len, "%s", slash + 1);
		fprintf(stderr, "iostrat sched: %s is a partition: tuning its disk %s\n",
			dev, disk);
	}
	return 0;
}

/* The disk to tune, and a check that the data lives on it. */
static int pick_disk(const struct sched_args *a, char *disk, size_t len)
{
	struct blockdev_info bi;
	int ret = mkdir_p(a->data, 0755);

	if (ret)
		return error_errno(ret, a->data, "data directory");
	ret = blockdev_of_path(a->data, &bi);
	if (ret)
		return error_errno(ret, a->data, "data directory");
	if (a->device) {
		normalize_device(a->device, disk, len);
		if ((ret = sysq_check_disk(disk)))
			return ret;
		if (strcmp(bi.disk, disk)) {
			errorf("--data %s is on %s, not %s: the scheduler of %s would not touch the benchmark's I/O (put --data on it)",
			       a->data, bi.disk[0] ? bi.disk : "no disk", disk, disk);
			return -EINVAL;
		}
		return 0;
	}
	if (!bi.disk[0]) {
		errorf("--data %s: not on a block device (%s): give --data on the disk to tune",
		       a->data, bi.fs[0] ? bi.fs : "unknown fs");
		return -ENODEV;
	}
	snprintf(disk, len, "%s", bi.disk);
	fprintf(stderr, "iostrat sched: device %s (the disk under %s: %s%s%s)\n",
		disk, a->data, bi.device, bi.resolved_via[0] ? ", via " : "",
		bi.resolved_via);
	return sysq_check_disk(disk);
}

static int check_plan(const char *disk, const struct sched_plan *p)
{
	char avail[256], path[PATH_MAX];

	for (size_t i = 0; i < p->nsched; i++)
		if (!sysq_has_scheduler(disk, p->schedulers[i], avail, sizeof(avail))) {
			errorf("--schedulers: %s: unknown scheduler for %s (available: %s)",
			       p->schedulers[i], disk, avail);
			return -EINVAL;
		}
	for (size_t i = 0; i < p->naxes; i++) {
		snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", disk, p->axes[i].attr);
		if (access(path, F_OK)) {
			errorf("--set %s: %s has no %s", p->axes[i].attr, disk, path);
			return -ENOTSUP;
		}
	}
	return 0;
}

static bool dir_has_entries(const char *dir)
{
	char cmd[PATH_MAX];
	struct stat st;

	snprintf(cmd, sizeof(cmd), "%s/sched.json", dir);
	if (!stat(cmd, &st))
		return true;
	snprintf(cmd, sizeof(cmd), "%s/results.jsonl", dir);
	return !stat(cmd, &st);
}

/* Apply one setting, verified, its scheduler under the tunables of its
 * first switch (rounds.h); the columns every row of it gets. */
static int apply(struct sched_rounds *rs, const char *disk,
		 const struct sched_setting *s, json_t **cols)
{
	static const char *const num[] = { "read_ahead_kb", "nr_requests", "wbt_lat_usec" };
	char v[128], tun[2048];
	int ret = rounds_switch(rs, disk, s->scheduler);

	for (size_t i = 0; !ret && i < s->nattr; i++)
		ret = sysq_set(disk, s->attr[i], s->value[i]);
	if (ret)
		return ret;
	*cols = json_object();
	sysq_active(disk, v, sizeof(v));
	json_object_set_new(*cols, "scheduler", json_text(v));
	json_object_set_new(*cols, "device", json_text(disk));
	sysq_tunables(disk, tun, sizeof(tun));
	json_object_set_new(*cols, "iosched_tunables", json_text(tun));
	for (size_t i = 0; i < ARRAY_SIZE(num); i++) {
		char p[PATH_MAX];
		long long n;
		char *end;

		snprintf(p, sizeof(p), "/sys/block/%s/queue/%s", disk, num[i]);
		if (read_sysfs(p, v, sizeof(v))) {
			json_object_set_new(*cols, num[i], json_null());
			continue;
		}
		n = strtoll(v, &end, 10);
		json_object_set_new(*cols, num[i], *end ? json_text(v) : json_integer(n));
	}
	fprintf(stderr, "iostrat sched: %s: %s (verified; %s)\n", disk, s->label,
		tun[0] ? tun : "no tunables");
	return 0;
}

/* Run `iostrat bench` for one setting (round > 1: --resume, one more rep;
 * round 0: --dry-run, the check before anything changes, its matrix not
 * shown).  Returns its exit status, or 128+signal. */
static int run_bench(const struct sched_args *a, const char *dir, unsigned round)
{
	char *argv[64 + 2 * a->ndefs];
	char reps[32], maxr[32];
	int n = 0, st;
	pid_t pid;

	argv[n++] = "iostrat";
	argv[n++] = "bench";
	if (round > 1) {
		argv[n++] = "--resume";
		argv[n++] = (char *)dir;
	} else if (round == 0) {
		argv[n++] = (char *)a->profile;
		argv[n++] = "--dry-run";
	} else {
		argv[n++] = (char *)a->profile;
		argv[n++] = "--out";
		argv[n++] = (char *)dir;
	}
	argv[n++] = "--data";
	argv[n++] = (char *)a->data;
	for (size_t i = 0; i < a->ndefs; i++) {
		argv[n++] = "-D";
		argv[n++] = a->defs[i];
	}
	if (a->interleave || a->reps) {
		unsigned r = a->interleave ? MAX(round, 1u) : a->reps;

		snprintf(reps, sizeof(reps), "reps=%u", r);
		snprintf(maxr, sizeof(maxr), "max_reps=%u", r);
		argv[n++] = "-D";
		argv[n++] = reps;
		argv[n++] = "-D";
		argv[n++] = maxr;
	}
	argv[n] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return error_errno(-errno, "fork", "bench"), 1;
	if (pid == 0) {
		stop_in_child();
		if (round == 0) { /* errors on stderr; the matrix is not wanted */
			int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

			if (fd >= 0)
				dup2(fd, STDOUT_FILENO);
		}
		execv("/proc/self/exe", argv);
		fprintf(stderr, "iostrat: exec iostrat bench: %s\n", strerror(errno));
		_exit(127);
	}
	for (bool passed = false;;) {
		if (waitpid(pid, &st, 0) == pid)
			break;
		if (errno != EINTR)
			return 1;
		/* Ctrl-C reached the whole group already; SIGTERM to us only */
		if (stop_caught() == SIGTERM && !passed) {
			kill(pid, SIGTERM);
			passed = true;
		}
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void default_out(const struct sched_args *a, char *out, size_t len)
{
	char ts[32], name[128];
	const char *base = strrchr(a->profile, '/') ? strrchr(a->profile, '/') + 1 : a->profile;
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%Y%m%d-%H%M%S", &tm);
	snprintf(name, sizeof(name), "%s", base);
	name[strcspn(name, ".")] = 0;
	snprintf(out, len, "results/%s-sched-%s", ts, name);
}

static int write_meta(const char *out, const char *disk, const struct sysq *sv,
		      const struct sched_plan *p, const struct sched_args *a)
{
	json_t *o = json_object(), *orig = json_object(), *sets = json_array();
	char path[PATH_MAX], *text;
	int ret;

	for (size_t i = 0; i < sv->n; i++)
		json_object_set_new(orig, sv->v[i].attr, json_text(sv->v[i].value));
	for (size_t i = 0; i < p->nset; i++)
		json_array_append_new(sets, json_text(p->set[i].label));
	json_object_set_new(o, "device", json_text(disk));
	json_object_set_new(o, "kernel", json_text(env_kernel()));
	json_object_set_new(o, "profile", json_text(a->profile));
	json_object_set_new(o, "interleave", json_boolean(a->interleave));
	json_object_set_new(o, "settings", sets);
	json_object_set_new(o, "original", orig);
	text = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(o);
	snprintf(path, sizeof(path), "%s/sched.json", out);
	ret = text ? write_file_atomic(path, text, strlen(text)) : -ENOMEM;
	free(text);
	return ret ? error_errno(ret, path, "writing") : 0;
}

static bool has_rows(const char *dir)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/results.jsonl", dir);
	return !stat(p, &st) && st.st_size > 0;
}

/* Round r of a setting must run under the settings of its round 1: the
 * columns of both compared, the first that differs named. */
static int same_as_round1(const char *label, unsigned r, json_t *first,
			  json_t *cols)
{
	const char *k;
	json_t *v;

	json_object_foreach(cols, k, v) {
		json_t *was = json_object_get(first, k);
		char *a, *b;

		if (was && json_equal(was, v))
			continue;
		a = json_dumps(v, JSON_ENCODE_ANY);
		b = was ? json_dumps(was, JSON_ENCODE_ANY) : NULL;
		errorf("%s: round %u would run with %s=%s, round 1 ran with %s: stopping",
		       label, r, k, a ? a : "?", b ? b : "nothing");
		free(a);
		free(b);
		return -EIO;
	}
	return 0;
}

/* One round of one setting; 0, or the exit status to return. */
static int run_one(const struct sched_args *a, struct sched_rounds *rs,
		   const char *disk, const struct sched_setting *set,
		   const char *out, unsigned r, json_t **first)
{
	char dir[PATH_MAX];
	json_t *cols = NULL;
	unsigned rounds = a->interleave ? (a->reps ? a->reps : 3) : 1;
	int st;

	if (apply(rs, disk, set, &cols) ||
	    (*first && same_as_round1(set->label, r, *first, cols))) {
		json_decref(cols);
		return 1;
	}
	if (!*first)
		*first = json_incref(cols);
	if (stop_caught()) {
		json_decref(cols);
		return 128 + stop_caught();
	}
	snprintf(dir, sizeof(dir), "%s/%s", out, set->label);
	if (a->interleave)
		fprintf(stderr, "iostrat sched: round %u/%u: %s\n", r, rounds, set->label);
	st = run_bench(a, dir, r);
	/* whatever rows it kept (failed reps, Ctrl-C) get the columns */
	if (has_rows(dir) && sched_augment(dir, set, cols) && !st)
		st = 1;
	json_decref(cols);
	if (stop_caught())
		return 128 + stop_caught();
	if (st && st < 128)
		errorf("%s: iostrat bench failed (exit %d): stopping", set->label, st);
	return st;
}

/* Every setting, once (or --reps rounds interleaved).  0, or the exit
 * status to return. */
static int run_all(const struct sched_args *a, const char *disk,
		   const struct sched_plan *p, const char *out)
{
	unsigned rounds = a->interleave ? (a->reps ? a->reps : 3) : 1;
	struct sched_rounds *rs = calloc(1, sizeof(*rs));
	json_t **first = calloc(p->nset, sizeof(*first));
	int st = rs && first ? 0 : 1;

	for (unsigned r = 1; !st && r <= rounds; r++)
		for (size_t i = 0; !st && i < p->nset; i++)
			st = stop_caught() ? 128 + stop_caught()
					   : run_one(a, rs, disk, &p->set[i], out, r, &first[i]);
	for (size_t i = 0; first && i < p->nset; i++)
		json_decref(first[i]);
	free(first);
	free(rs);
	return st;
}

static int compare_all(const struct sched_plan *p, const char *out)
{
	char **argv = calloc(p->nset + 2, sizeof(char *));
	char (*dirs)[PATH_MAX] = calloc(p->nset, PATH_MAX);
	int ret = 0;

	if (!argv || !dirs) {
		free(argv);
		free(dirs);
		return 1;
	}
	argv[0] = "compare";
	for (size_t i = 0; i < p->nset; i++) {
		snprintf(dirs[i], PATH_MAX, "%s/%s", out, p->set[i].label);
		argv[i + 1] = dirs[i];
	}
	if (p->nset < 2) {
		printf("one setting only: iostrat report %s\n", dirs[0]);
	} else {
		fflush(NULL);
		ret = cmd_compare((int)p->nset + 1, argv);
	}
	free(argv);
	free(dirs);
	return ret;
}

static int sched_main(struct sched_args *a)
{
	struct sched_plan p = { 0 };
	struct sysq sv = { .lock_fd = -1 };
	char disk[64], cur[64], out[PATH_MAX];
	int ret = 2;

	const char *env_data = getenv("IOSTRAT_DATA");

	if (!a->data)
		a->data = env_data && *env_data ? env_data : "data";
	if (a->out)
		snprintf(out, sizeof(out), "%s", a->out);
	else
		default_out(a, out, sizeof(out));
	if (access(a->profile, R_OK)) {
		error_errno(-errno, a->profile, "profile");
		return 2;
	}
	if ((a->schedulers && plan_schedulers(&p, a->schedulers)))
		return 2;
	for (size_t i = 0; i < a->nsets; i++)
		if (plan_axis(&p, a->sets[i]))
			return 2;
	if (pick_disk(a, disk, sizeof(disk)) || sysq_active(disk, cur, sizeof(cur)) || plan_expand(&p, cur) ||
	    check_plan(disk, &p))
		goto out;
	if (dir_has_entries(out)) {
		errorf("%s: has results already (give a new --out)", out);
		goto out;
	}
	/* the profile, its strategies and data sets checked before the
	 * disk's settings are touched: a typo must not leave them changed */
	if (run_bench(a, out, 0)) {
		errorf("%s: the profile does not run (see above); nothing changed on %s",
		       a->profile, disk);
		goto out;
	}
	ret = 1;
	if (mkdir_p(out, 0755) || sysq_save(&sv, disk))
		goto out;
	/* the disk's settings are restored below, whatever comes */
	stop_catch(STOP_NEVER_HARD, NULL, false);
	ret = write_meta(out, disk, &sv, &p, a);
	if (!ret)
		ret = run_all(a, disk, &p, out);
	if (sysq_restore(&sv)) {
		errorf("%s: could not restore every queue setting (see above)", disk);
		ret = ret ? ret : 1;
	} else {
		fprintf(stderr, "iostrat sched: %s: restored (scheduler %s)\n", disk, cur);
	}
	stop_release();
	if (!ret)
		ret = compare_all(&p, out);
	else if (ret > 128)
		fprintf(stderr, "iostrat sched: interrupted; finished runs kept in %s\n", out);
out:
	plan_free(&p);
	return ret;
}

int cmd_sched(int argc, char **argv)
{
	struct sched_args a = { 0 };
	int ret;

	sysq_recover(); /* settings a SIGKILLed iostrat left changed */
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		sched_usage(stdout);
		return 0;
	}
	a.defs = calloc((size_t)argc + 1, sizeof(char *));
	if (!a.defs)
		return 1;
	ret = parse_args(&a, argc, argv) ? 2 : sched_main(&a);
	free(a.defs);
	return ret;
}

/* Every option the parser above takes (cmdopt.h): main.c refuses the rest. */
static const struct cmd_opt sched_table[] = {
	{ "device", 0, true }, { "schedulers", 0, true }, { "set", 0, true },
	{ "interleave", 0, false }, { "reps", 0, true }, { "out", 'o', true },
	{ "data", 0, true }, { NULL, 'D', true },
	{ NULL, 0, false },
};

const struct cmd_opts sched_cmdopts = { .table = sched_table };
