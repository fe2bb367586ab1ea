// SPDX-License-Identifier: MIT
/* The iostrat binary: the table of subcommands, --help and dispatch to src/cmd/. */
#include <stdio.h>
#include <string.h>

#include "harness/closeout.h"
#include "cmd/commands.h"
#include "harness/env.h"
#include "lib/util.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const struct cmd_opts *opts;	/* settings.h */
};

static const struct command commands[] = {
	{ "gen", cmd_gen, "generate a data set (the four presets of the study, or custom)", &gen_cmdopts },
	{ "run", cmd_run, "run one strategy on a directory: R verified, measured repetitions", &run_cmdopts },
	{ "verify", cmd_verify, "check an output directory against the reference transform", &verify_cmdopts },
	{ "list", cmd_list, "list the strategies", &list_cmdopts },
	{ "bench", cmd_bench, "run an experiment matrix (profiles/*.ini) into a results directory", &bench_cmdopts },
	{ "report", cmd_report, "summary tables of a results directory", &report_cmdopts },
	{ "compare", cmd_compare, "set results directories side by side, with significance", &compare_cmdopts },
	{ "trace", cmd_trace, "eBPF block-layer and page-cache views around any command", &trace_cmdopts },
	{ "fio", cmd_fio, "run an fio baseline job on a generated data set", &fio_cmdopts },
	{ "limits", cmd_limits, "the machine's measured limits: read, new-file write, copies, transform", &limits_cmdopts },
	{ "plot", cmd_plot, "render the gnuplot figures of a results directory", &plot_cmdopts },
	{ "sweep", cmd_sweep, "block-size, buffer-size and API sweeps", &sweep_cmdopts },
	{ "net", cmd_net, "buffered network streams over TCP or Unix sockets", &net_cmdopts },
	{ "sched", cmd_sched, "compare I/O schedulers and queue settings", &sched_cmdopts },
	{ "queue", cmd_queue, "the reboot-between-runs queue", &queue_cmdopts },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: iostrat COMMAND [ARGS...]   (iostrat COMMAND --help)\n\n"
		   "iostrat %s: which way of moving file data is fastest, and why\n\n"
		   "commands:\n", IOSTRAT_VERSION);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
}

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

static void print_opt(const struct setting *o, void *ctx)
{
	char name[64];

	(void)ctx;
	if (o->shortname)
		printf("-%c%s", o->shortname, o->name ? " " : "");
	if (o->name)
		printf("--%s", setting_spelling(o->name, name, sizeof(name)));
	printf("%s\n", setting_takes_arg(o) ? " =" : "");
}

/*
 * Hidden, for the tests and the shell completion (not in the usage):
 *   iostrat __commands      the subcommands, one a line
 *   iostrat __options CMD   CMD's options, one a line: "-s --strategy =",
 *                           "--json" ("=": takes a value)
 *   iostrat __values CMD OPT  the values OPT ("--cache", "-f") takes, one a
 *                           line, when its table lists them
 *   iostrat __columns [--markdown]  every row column, one a line: name, type,
 *                           values, unit, room that writes it, core|extra,
 *                           help (tab-separated; "-" for none), or the
 *                           table docs/results.md holds
 */
struct values_of {
	const char *opt;	/* "--cache" */
};

static void print_values(const struct setting *o, void *ctx)
{
	const struct values_of *v = ctx;

	const char *a = v->opt;
	char name[64];
	bool named = a[0] == '-' && (a[1] == '-' ? o->name &&
		     !strcmp(a + 2, setting_spelling(o->name, name, sizeof(name)))
				   : o->shortname && a[1] == o->shortname && !a[2]);

	if (o->type != SET_ENUM || !named)
		return;
	for (const char *const *a = o->values; *a; a++)
		puts(*a);
}

static int hidden(int argc, char **argv)
{
	const struct command *c;
	struct values_of v;

	if (!strcmp(argv[1], "__commands")) {
		for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
			puts(commands[i].name);
		return 0;
	}
	if (!strcmp(argv[1], "__values") && argc == 4 && (c = find(argv[2]))) {
		v.opt = argv[3];
		cmdopt_each(c->opts, print_values, &v);
		return 0;
	}
	if (argc != 3 || !(c = find(argv[2]))) {
		errorf("%s: give one command (iostrat --help lists them)", argv[1]);
		return 2;
	}
	cmdopt_each(c->opts, print_opt, NULL);
	return 0;
}

/* iostrat help CMD: CMD's own --help. */
static int help(int argc, char **argv)
{
	const struct command *c;
	char *args[] = { argv[2], "--help", NULL };

	if (argc == 2) {
		usage(stdout);
		return 0;
	}
	if (argc > 3) {
		errorf("help: one command at a time (iostrat help CMD)");
		return 2;
	}
	c = find(argv[2]);
	if (!c) {
		errorf("%s: unknown command (iostrat --help lists them)", argv[2]);
		return 2;
	}
	return c->fn(2, args);
}

static int dispatch(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		errorf("no command given (iostrat --help lists them)");
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "help"))
		return help(argc, argv);
	if (!strcmp(argv[1], "__columns"))
		return cmd_columns(argc - 1, argv + 1);
	if (!strcmp(argv[1], "__commands") || !strcmp(argv[1], "__options") ||
	    !strcmp(argv[1], "__values"))
		return hidden(argc, argv);
	if (!strcmp(argv[1], "--version")) {
		printf("iostrat %s\n", IOSTRAT_VERSION);
		return 0;
	}
	c = find(argv[1]);
	if (c) /* it parses its options by its tables (cmdopt_parse) */
		return c->fn(argc - 1, argv + 1);
	errorf("%s: unknown command (iostrat --help lists them)", argv[1]);
	return 2;
}

/* Every command's output is checked as written and closed: a full disk or
 * a closed stdout is an error, not a silent success. */
int main(int argc, char **argv)
{
	stdout_hold();
	if (columns_hand_down())
		return stdout_close(1);
	return stdout_close(dispatch(argc, argv));
}
