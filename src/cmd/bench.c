// SPDX-License-Identifier: MIT
/* `iostrat bench PROFILE`: its arguments, then the bench engine runs the profile. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>

#include "harness/engine/bench.h"
#include "commands.h"
#include "config/datadir.h"
#include "sched/sysq.h"
#include "lib/util.h"

static void bench_usage(FILE *f)
{
	fprintf(f, "usage: iostrat bench PROFILE [--out DIR] [--dry-run] [-D key=value]...\n"
	      "       iostrat bench --resume DIR [-D key=value]...\n\n"
	      "Run an experiment matrix (profiles/*.ini; PROFILE a path, or the name\n"
	      "of a shipped one: quick, skeet-big ...) into a results directory\n"
	      "(results/<time>-<profile>/ by default): results.jsonl, results.csv,\n"
	      "summary.csv, env.json, profile.ini.  Repetitions are interleaved\n"
	      "across configurations; Ctrl-C keeps every finished repetition.\n\n"
	      "  -o, --out DIR    results directory\n"
	      "  -n, --dry-run    print the expanded matrix with an estimate\n"
	      "  --resume DIR     finish an interrupted bench (skips what is done)\n"
	      "  -D KEY=VALUE     set KEY in every section (overrides the profile)\n"
	      "  --data DIR       data set cache (default $IOSTRAT_DATA, else ./data;\n"
	      "                   with --resume, the one the bench used, from DIR/data.json)\n"
	      "  --data-anywhere  --resume onto data on another filesystem than the\n"
	      "                   first rows' (refused otherwise)\n\n"
	      "A profile expands to at most %d configurations; IOSTRAT_MAX_CONFIGS=N\n"
	      "sets the limit (iostrat-profile(5)).\n", PROFILE_MAX_CONFIGS);
}

static int need_arg(int argc, char **argv, int i)
{
	if (i + 1 < argc)
		return 0;
	errorf("%s: missing value", argv[i]);
	return -EINVAL;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_opts o = { 0 };
	char shipped[PATH_MAX];
	char **defs = calloc((size_t)argc, sizeof(char *));
	int ret;

	if (!defs)
		return 1;
	sysq_recover(); /* queue settings a SIGKILLed iostrat sched left */
	o.defs = defs;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			bench_usage(stdout);
			free(defs);
			return 0;
		}
		if (!strcmp(a, "--dry-run") || !strcmp(a, "-n")) {
			o.dry_run = true;
		} else if (!strcmp(a, "--data-anywhere")) {
			o.data_anywhere = true;
		} else if (!strcmp(a, "--out") || !strcmp(a, "-o") ||
			   !strcmp(a, "--resume") || !strcmp(a, "--data") ||
			   !strcmp(a, "-D")) {
			if (need_arg(argc, argv, i))
				goto usage;
			if (!strcmp(a, "--resume"))
				o.resume = argv[++i];
			else if (!strcmp(a, "--data"))
				o.data = argv[++i];
			else if (!strcmp(a, "-D"))
				defs[o.ndefs++] = argv[++i];
			else
				o.out = argv[++i];
		} else if (!strncmp(a, "-D", 2)) {
			defs[o.ndefs++] = argv[i] + 2;
		} else if (a[0] == '-' && a[1]) {
			errorf("%s: unknown option (iostrat bench --help)", a);
			goto usage;
		} else if (!o.profile) {
			o.profile = a;
		} else {
			errorf("%s: one PROFILE only", a);
			goto usage;
		}
	}
	if (!o.profile == !o.resume) {
		errorf("bench: give a PROFILE or --resume DIR (iostrat bench --help)");
		goto usage;
	}
	/* a shipped profile by name (quick, skeet-big): no such file here */
	if (o.profile && !strchr(o.profile, '/') && access(o.profile, F_OK) &&
	    !datadir_file("profiles", o.profile, ".ini", shipped, sizeof(shipped)))
		o.profile = shipped;
	if (o.resume && o.out) {
		errorf("bench: --resume DIR writes into DIR; drop --out");
		goto usage;
	}
	if (bench_queue_retry(&o)) {
		free(defs);
		return 1;
	}
	ret = bench_main(&o);
	free(defs);
	return ret;
usage:
	free(defs);
	return 2;
}

/* Every option the parser above takes (cmdopt.h): main.c refuses the rest. */
static const struct cmd_opt bench_table[] = {
	{ "out", 'o', true }, { "dry-run", 'n', false }, { "resume", 0, true },
	{ NULL, 'D', true }, { "data", 0, true }, { "data-anywhere", 0, false },
	{ NULL, 0, false },
};

const struct cmd_opts bench_cmdopts = { .table = bench_table };
