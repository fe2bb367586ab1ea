// SPDX-License-Identifier: MIT
/* `iostrat bench PROFILE`: its arguments, then the bench engine runs the profile. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>
#include <dirent.h>
#include <sys/stat.h>

#include "engine/bench.h"
#include "commands.h"
#include "config/datadir.h"
#include "sched/sysq.h"
#include "lib/util.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* The shipped profiles' names, sorted, one line of help: the ones there
 * are, read from the directory (not a list that goes stale). */
static void shipped_profiles(FILE *f)
{
	char dir[4096], *names[64];
	size_t n = 0, len;
	struct dirent *e;
	DIR *d;

	if (datadir_dir("profiles", is_dir, dir, sizeof(dir)) || !(d = opendir(dir))) {
		fputs("(none found)", f);
		return;
	}
	while ((e = readdir(d)) && n < ARRAY_SIZE(names))
		if ((len = strlen(e->d_name)) > 4 &&
		    !strcmp(e->d_name + len - 4, ".ini") && e->d_name[0] != '.')
			names[n++] = strndup(e->d_name, len - 4);
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s%s", i ? ", " : "", names[i] ? names[i] : "?");
		free(names[i]);
	}
}

static void bench_usage(FILE *f)
{
	fprintf(f, "usage: iostrat bench PROFILE [--out DIR] [--dry-run] [-D key=value]...\n"
	      "       iostrat bench --resume DIR [-D key=value]...\n\n"
	      "Run an experiment matrix (profiles/*.ini; PROFILE a path, or the name\n"
	      "of a shipped one) into a results directory\n"
	      "(results/<time>-<profile>/ by default): results.jsonl, results.csv,\n"
	      "summary.csv, env.json, profile.ini.  Repetitions are interleaved\n"
	      "across configurations; Ctrl-C keeps every finished repetition.\n"
	      "A profile expands to at most %d configurations; IOSTRAT_MAX_CONFIGS=N\n"
	      "sets the limit (iostrat-profile(5)).\nShipped profiles: ", PROFILE_MAX_CONFIGS);
	shipped_profiles(f);
	fputs("\n\n", f);
}

static const struct setting bench_table[] = {
	{ .name = "out", .shortname = 'o', SETTING_STRING(struct bench_opts, out),
	  .metavar = "DIR",
	  .help = "results directory" },
	{ .name = "dry-run", .shortname = 'n', SETTING_BOOL(struct bench_opts, dry_run),
	  .help = "print the expanded matrix with an estimate" },
	{ .name = "resume", SETTING_STRING(struct bench_opts, resume),
	  .metavar = "DIR",
	  .help = "finish an interrupted bench (skips what is done)" },
	{ .shortname = 'D', SETTING_LIST(struct bench_opts, defs), .metavar = "KEY=VALUE",
	  .help = "set KEY in every section (overrides the profile)" },
	{ .name = "data", SETTING_STRING(struct bench_opts, data),
	  .metavar = "DIR",
	  .help = "data set cache (default $IOSTRAT_DATA, else ./data;\n"
		  "with --resume, the one the bench used, from DIR/data.json)" },
	{ .name = "data-anywhere", SETTING_BOOL(struct bench_opts, data_anywhere),
	  .help = "--resume onto data on another filesystem than the\n"
		  "first rows' (refused otherwise)" },
	{ 0 },
};

const struct cmd_opts bench_cmdopts = {
	.cmd = "bench", .tables = { bench_table }, .usage = bench_usage,
};

/* PROFILE or --resume DIR, and what goes with them: 0, or 2 after one line. */
static int bench_check(struct bench_opts *o, int npos, char **argv,
		       char *shipped, size_t len)
{
	if (npos > 1) {
		errorf("%s: one PROFILE only", argv[2]);
		return 2;
	}
	o->profile = npos ? argv[1] : NULL;
	if (!o->profile == !o->resume) {
		errorf("bench: give a PROFILE or --resume DIR (iostrat bench --help)");
		return 2;
	}
	/* a shipped profile by name (smoke, skeet-big): no such file here */
	if (o->profile && !strchr(o->profile, '/') && access(o->profile, F_OK) &&
	    !datadir_file("profiles", o->profile, ".ini", shipped, len))
		o->profile = shipped;
	if (o->resume && o->out) {
		errorf("bench: --resume DIR writes into DIR; drop --out");
		return 2;
	}
	return 0;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_opts o = { 0 };
	char shipped[PATH_MAX];
	int ret;

	sysq_recover(); /* queue settings a SIGKILLed iostrat sched left */
	ret = cmdopt_parse(&bench_cmdopts, (void *[]){ &o }, argc, argv);
	if (ret < 0)
		ret = cmdopt_exit(ret);
	else if (!(ret = bench_check(&o, ret, argv, shipped, sizeof(shipped))))
		ret = bench_queue_retry(&o) ? 1 : bench_main(&o);
	setting_list_free(&o.defs);
	return ret;
}
