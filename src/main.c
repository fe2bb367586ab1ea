// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "env.h"
#include "util.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "gen", cmd_gen, "generate a data set (the four presets of the study, or custom)" },
	{ "run", cmd_run, "run one strategy on a directory: R verified, measured repetitions" },
	{ "verify", cmd_verify, "check an output directory against the reference transform" },
	{ "list", cmd_list, "list the strategies" },
	{ "bench", cmd_bench, "run an experiment matrix (profiles/*.ini) into a results directory" },
	{ "report", cmd_report, "summary tables of a results directory" },
	{ "compare", cmd_compare, "set results directories side by side, with significance" },
	{ "trace", cmd_trace, "eBPF block-layer and page-cache views around any command" },
	{ "fio", cmd_fio, "run an fio baseline job on a generated data set" },
	{ "plot", cmd_plot, "render the gnuplot figures of a results directory" },
	{ "sweep", cmd_sweep, "block-size, buffer-size and API sweeps" },
	{ "net", cmd_net, "buffered network streams over TCP" },
	{ "sched", cmd_sched, "compare I/O schedulers and queue settings" },
	{ "queue", cmd_queue, "the reboot-between-runs queue" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: iostrat COMMAND [ARGS...]   (iostrat COMMAND --help)\n\n"
		   "iostrat %s: which way of moving file data is fastest, and why\n\n"
		   "commands:\n", IOSTRAT_VERSION);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (commands[i].fn)
			fprintf(f, "  %-8s %s\n", commands[i].name,
				commands[i].summary);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		errorf("no command given (iostrat --help lists them)");
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("iostrat %s\n", IOSTRAT_VERSION);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (!commands[i].fn) {
			errorf("%s: not built into this iostrat", argv[1]);
			return 2;
		}
		return commands[i].fn(argc - 1, argv + 1);
	}
	errorf("%s: unknown command (iostrat --help lists them)", argv[1]);
	return 2;
}
