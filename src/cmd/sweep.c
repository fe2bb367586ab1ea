// SPDX-License-Identifier: MIT
/* iostrat sweep blocksize|bufsize|api [options]: see src/sweep/sweep.h */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "engine/kind_sweep.h"
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
	      "lists the options of one sweep; every sweep's options:\n\n", f);
}

/* Every option of every sweep (the tables in src/sweep/opts.c):
 * `iostrat __options sweep` and `iostrat sweep --help`. */
const struct cmd_opts sweep_cmdopts = {
	.cmd = "sweep", .usage = usage,
	.tables = { sweep_settings, sweep_rw_settings, sweep_blocksize_settings,
		    sweep_bufsize_settings },
};

/* No sweep named: --help, or one line and 2. */
static int no_kind(int argc, char **argv)
{
	struct sweep_opts o;
	void *const objs[] = { &o, &o, &o, &o };
	int ret;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (argv[1][0] != '-') {
		errorf("sweep: %s: unknown sweep (blocksize, bufsize or api)", argv[1]);
		return 2;
	}
	sweep_opts_defaults(&o, SWEEP_BLOCKSIZE);
	ret = cmdopt_parse(&sweep_cmdopts, objs, argc, argv);
	if (ret < 0)
		return cmdopt_exit(ret);
	errorf("sweep: which sweep? (iostrat sweep blocksize|bufsize|api)");
	return 2;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_opts o;
	void *const objs[] = { &o, &o, &o };
	enum sweep_kind kind;
	int n;

	if (argc < 2 || sweep_kind_parse(argv[1], &kind))
		return no_kind(argc, argv);
	sweep_opts_defaults(&o, kind);
	o.through = sweep_through_engine;
	n = cmdopt_parse(sweep_kind_cmdopts(kind), objs, argc - 1, argv + 1);
	if (n < 0)
		return cmdopt_exit(n);
	if (n > 0) {
		errorf("sweep %s: %s: unexpected argument (iostrat sweep %s --help)",
		       argv[1], argv[2], argv[1]);
		return 2;
	}
	if (sweep_opts_check(&o))
		return 2;
	return sweep_run_opts(&o, stdout);
}
