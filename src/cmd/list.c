// SPDX-License-Identifier: MIT
/* `iostrat list`: the strategies, with their options. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "core/strategy.h"
#include "lib/util.h"

int cmd_list(int argc, char **argv)
{
	const struct strategy *s;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: iostrat list\n\nThe strategies, with their options.");
		return 0;
	}
	if (argc > 1) {
		errorf("list: %s: unexpected argument (iostrat list takes none)", argv[1]);
		return 2;
	}
	for (size_t i = 0; (s = strategy_at(i)); i++) {
		printf("%-8s %s%s\n", s->name, s->summary,
		       s->flags & STRAT_NO_OUTPUT ? " [no output]" : "");
		for (const struct strategy_opt *o = s->opts; o && o->name; o++)
			printf("         --%s%s  %s\n", o->name,
			       o->takes_value ? "=V" : "", o->help);
	}
	return 0;
}

/* list takes no options (cmdopt.h). */
const struct cmd_opts list_cmdopts = { .table = NULL };
