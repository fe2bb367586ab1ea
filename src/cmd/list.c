// SPDX-License-Identifier: MIT
/* `iostrat list`: the strategies, with their options. */
#include <stdio.h>

#include "commands.h"
#include "core/strategy.h"
#include "lib/util.h"

static void list_usage(FILE *f)
{
	fputs("usage: iostrat list\n\nThe strategies, with their options and the run\n"
	      "settings each uses (--bufsize, --chunk, --qd: refused where not used).\n", f);
}

/* list takes no options: its table is empty. */
static const struct setting list_table[] = {
	{ 0 },
};

const struct cmd_opts list_cmdopts = {
	.cmd = "list", .tables = { list_table }, .usage = list_usage,
};

/* "  uses --bufsize, --qd": the run settings s uses (others refused). */
static void list_knobs(const struct strategy *s)
{
	static const struct { unsigned flag; const char *name; } knobs[] = {
		{ STRAT_BUFSIZE, "--bufsize" }, { STRAT_CHUNK, "--chunk" }, { STRAT_QD, "--qd" },
	};
	const char *sep = "  uses ";

	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		if (s->flags & knobs[i].flag) {
			printf("%s%s", sep, knobs[i].name);
			sep = ", ";
		}
	if (*sep == ',')
		putchar('\n');
}

int cmd_list(int argc, char **argv)
{
	const struct strategy *s;
	int npos = cmdopt_parse(&list_cmdopts, (void *[]){ NULL }, argc, argv);

	if (npos < 0)
		return cmdopt_exit(npos);
	if (npos) {
		errorf("list: %s: unexpected argument (iostrat list takes none)", argv[1]);
		return 2;
	}
	for (size_t i = 0; (s = strategy_at(i)); i++) {
		printf("%-8s %s%s\n", s->name, s->summary,
		       s->flags & STRAT_NO_OUTPUT ? " [no output]" : "");
		list_knobs(s);
		for (const struct setting *o = s->opts; o && o->name; o++)
			setting_help(o, stdout);
	}
	return 0;
}
