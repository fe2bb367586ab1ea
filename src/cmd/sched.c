// SPDX-License-Identifier: MIT
/* iostrat sched: run a profile under each I/O scheduler and queue setting
 * of one disk, every row carrying them, then compare; the disk's settings
 * restored at the end, on error, on SIGINT/SIGTERM, and after a SIGKILL
 * by the next iostrat (src/sched/sysq.h). */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/blockdev.h"
#include "commands.h"
#include "harness/env.h"
#include "sched/hook.h"
#include "sched/plan.h"
#include "sched/sysq.h"
#include "harness/stop.h"
#include "lib/util.h"

static void sched_usage(FILE *f)
{
	fputs("usage: iostrat sched [--device DEV] [--schedulers LIST] [--set ATTR=V1,V2]...\n"
	      "                     [--interleave] [--reps N] [--out DIR] [--data DIR]\n"
	      "                     [-D KEY=VALUE]... PROFILE\n\n"
	      "Run the bench of PROFILE once per setting of DEV's request queue\n"
	      "(each scheduler crossed with each --set value), verify each setting\n"
	      "took, add it to every row, then `iostrat compare` the runs.  DEV's\n"
	      "settings are restored at the end, on error and on Ctrl-C/SIGTERM; after\n"
	      "a SIGKILL the next `iostrat sched` or `iostrat bench` restores them.\n\n", f);
}

/* What sched's options fill. */
struct sched_args {
	const char *device, *schedulers, *out, *data, *profile;
	const char *sets[SCHED_AXES];
	size_t nsets;
	struct setting_list defs;
	bool interleave;
	unsigned reps;
};

/* --set ATTR=LIST, repeatable up to SCHED_AXES times */
static int add_set(const struct setting *s, const char *v, void *obj)
{
	struct sched_args *a = obj;

	(void)s;
	if (a->nsets >= SCHED_AXES) {
		errorf("--set: at most %d", SCHED_AXES);
		return -EINVAL;
	}
	a->sets[a->nsets++] = v;
	return 0;
}

static const struct setting sched_table[] = {
	{ .name = "device", SETTING_STRING(struct sched_args, device),
	  .metavar = "DEV",
	  .help = "disk to tune (default: the disk under --data)" },
	{ .name = "schedulers", SETTING_STRING(struct sched_args, schedulers),
	  .metavar = "LIST",
	  .help = "e.g. none,mq-deadline,kyber,bfq (default: current)" },
	{ .name = "set", .type = SET_CALL, .arg = true, .call = add_set,
	  .metavar = "ATTR=LIST",
	  .help = "read_ahead_kb, nr_requests or wbt_lat_usec values" },
	{ .name = "interleave", SETTING_BOOL(struct sched_args, interleave),
	  .help = "rep 1 of every setting, then rep 2, ... (drift hits\n"
		  "all settings alike); --reps rounds (default 3)" },
	{ .name = "reps", SETTING_UINT(struct sched_args, reps),
	  .min = 1, .max = 1000, .metavar = "N",
	  .help = "repetitions per configuration (default: the profile's)" },
	{ .name = "out", .shortname = 'o', SETTING_STRING(struct sched_args, out),
	  .metavar = "DIR",
	  .help = "results (default results/<time>-sched-<profile>),\n"
		  "one bench results directory per setting inside" },
	{ .name = "data", SETTING_STRING(struct sched_args, data),
	  .metavar = "DIR",
	  .help = "data set cache, on DEV (default $IOSTRAT_DATA, else ./data)" },
	{ .shortname = 'D', SETTING_LIST(struct sched_args, defs),
	  .metavar = "KEY=VALUE", .help = "passed to the bench (as iostrat bench -D)" },
	{ 0 },
};

const struct cmd_opts sched_cmdopts = {
	.cmd = "sched", .tables = { sched_table }, .usage = sched_usage,
};

/* PROFILE, the one positional left in argv[1..npos]: 0, or 2 after one line. */
static int pick_profile(struct sched_args *a, int npos, char **argv)
{
	if (npos > 1) {
		errorf("%s: one PROFILE only", argv[2]);
		return 2;
	}
	if (!npos) {
		errorf("sched: give a PROFILE (iostrat sched --help)");
		return 2;
	}
	a->profile = argv[1];
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

/* The profile checked before the disk's settings are touched (a typo
 * must not leave them changed), then saved; every setting measured (the
 * engine's passes, sched's hook); the settings restored, whatever came. */
static int measure(const struct sched_args *a, const struct sched_plan *p,
		   const char *disk, const char *cur, const char *out)
{
	struct sched_bench b = { .profile = a->profile, .data = a->data,
				 .defs = a->defs,
				 .interleave = a->interleave, .reps = a->reps };
	struct sysq sv = { .lock_fd = -1 };
	struct engine_hooks eh;
	struct sched_hook h;
	int ret;

	if (sched_hook_init(&h, &b, p, disk, out))
		return 1;
	if (sched_check_profile(&h)) {
		errorf("%s: the profile does not run (see above); nothing changed on %s",
		       a->profile, disk);
		sched_hook_free(&h);
		return 2;
	}
	if ((ret = mkdir_p(out, 0755)))
		error_errno(ret, out, "creating");
	else
		ret = sysq_save(&sv, disk);
	if (ret) {
		sched_hook_free(&h);
		return 1;
	}
	stop_catch(STOP_NEVER_HARD, NULL, false);
	eh = sched_hook_engine(&h);
	ret = write_meta(out, disk, &sv, p, a);
	if (!ret)
		ret = bench_passes(&eh);
	if (sysq_restore(&sv)) {
		errorf("%s: could not restore every queue setting (see above)", disk);
		ret = ret ? ret : 1;
	} else {
		fprintf(stderr, "iostrat sched: %s: restored (scheduler %s)\n", disk, cur);
	}
	stop_release();
	sched_hook_free(&h);
	return ret;
}

static int sched_main(struct sched_args *a)
{
	struct sched_plan p = { 0 };
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
	ret = measure(a, &p, disk, cur, out);
	if (!ret)
		ret = compare_all(&p, out);
	else if (ret > 128)
		errorf("sched: stopped early by signal %d (%s); finished runs kept in %s",
		       ret - 128, strsignal(ret - 128), out);
out:
	plan_free(&p);
	return ret;
}

int cmd_sched(int argc, char **argv)
{
	struct sched_args a = { 0 };
	int ret;

	sysq_recover(); /* settings a SIGKILLed iostrat left changed */
	ret = cmdopt_parse(&sched_cmdopts, (void *[]){ &a }, argc, argv);
	if (ret < 0)
		ret = cmdopt_exit(ret);
	else
		ret = pick_profile(&a, ret, argv) ? 2 : sched_main(&a);
	setting_list_free(&a.defs);
	return ret;
}
