// SPDX-License-Identifier: MIT
/* iostrat sweep blocksize|bufsize|api [options]: see src/sweep/sweep.h */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "sweep/sweep.h"
#include "lib/util.h"

static void usage(FILE *f)
{
	fputs("usage: iostrat sweep blocksize|bufsize|api [options]\n\n"
	      "  blocksize  write, then read, one file in blocks of 1, 5, 50 ... bytes:\n"
	      "             write(2)/read(2) per block vs stdio's buffer\n"
	      "  bufsize    read files through a read(2) buffer of 32 B .. 1 MiB, cold\n"
	      "             cache each time: elapsed vs CPU, the knee, readahead\n"
	      "  api        raw syscalls, stdio and C++ iostreams (with their default\n"
	      "             buffer and with one of the call size) and mmap at 32 B ..\n"
	      "             32 KiB and whole-file, with a score table per set of variants\n\n"
	      "Every variant runs in its own child process, and its data must match\n"
	      "the reference xxh3 or the sweep stops.  `iostrat sweep KIND --help`\n"
	      "lists the options of one sweep.\n", f);
}

/* --key value, --key=value, or a flag */
static int parse_one(struct sweep_opts *o, int argc, char **argv, int *i)
{
	const char *arg = argv[*i] + 2, *eq = strchr(arg, '='), *val = NULL;
	char key[64];
	size_t klen = eq ? (size_t)(eq - arg) : strlen(arg);
	int ret;

	if (strncmp(argv[*i], "--", 2) || klen == 0 || klen >= sizeof(key)) {
		errorf("%s: unknown option (iostrat sweep %s --help)", argv[*i],
		       sweep_kind_name(o->kind));
		return -EINVAL;
	}
	memcpy(key, arg, klen);
	key[klen] = 0;
	if (eq)
		val = eq + 1;
	else if (!sweep_opt_is_flag(key) && *i + 1 < argc)
		val = argv[++*i];
	ret = sweep_opt_set(o, NULL, key, val);
	if (ret == -ENOENT)
		errorf("--%s: unknown option for sweep %s (iostrat sweep %s --help)",
		       key, sweep_kind_name(o->kind), sweep_kind_name(o->kind));
	return ret;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_opts o;
	enum sweep_kind kind;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (sweep_kind_parse(argv[1], &kind)) {
		errorf("sweep: %s: unknown sweep (blocksize, bufsize or api)", argv[1]);
		return 2;
	}
	sweep_opts_defaults(&o, kind);
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: iostrat sweep %s [options]\n\n", argv[1]);
			sweep_opts_help(stdout, kind);
			return 0;
		}
	}
	for (int i = 2; i < argc; i++)
		if (parse_one(&o, argc, argv, &i))
			return 2;
	if (sweep_opts_check(&o))
		return 2;
	return sweep_run_opts(&o, stdout);
}

/* Every option the parser above takes (settings.h): main.c refuses the rest. */
const struct cmd_opts sweep_cmdopts = { .cmd = "sweep", .more = sweep_opt_each };
