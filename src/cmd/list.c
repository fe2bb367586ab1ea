// SPDX-License-Identifier: MIT
/* `iostrat list`: the strategies, with their capabilities and options. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "commands.h"
#include "core/strategy.h"
#include "core/xform.h"
#include "lib/util.h"

static void list_usage(FILE *f)
{
	fputs("usage: iostrat list [--caps | --transforms]\n\nThe strategies, with "
	      "their capabilities and options; the built-in transforms.\n", f);
}

struct list_args {
	bool caps;
	bool transforms;
};

static const struct setting list_table[] = {
	{ .name = "caps", SETTING_BOOL(struct list_args, caps),
	  .help = "one line a strategy: its name, a tab, its capabilities" },
	{ .name = "transforms", SETTING_BOOL(struct list_args, transforms),
	  .help = "one line a built-in transform: its name, a tab, its record\n"
		  "kind (line, or fixed:BYTES), a tab, what it does" },
	{ 0 },
};

const struct cmd_opts list_cmdopts = {
	.cmd = "list", .tables = { list_table }, .usage = list_usage,
};

/* A capability word for each flag a strategy declares. */
static const struct { unsigned flag; const char *word; } cap_words[] = {
	{ STRAT_DIRECT, "direct" }, { STRAT_ALWAYS_DIRECT, "always-direct" },
	{ STRAT_DONTCACHE, "dontcache" }, { STRAT_NO_OUTPUT, "no-output" },
	{ STRAT_REPORT_BASE, "report-base" }, { STRAT_CONTROL, "control" },
	{ STRAT_BUFSIZE, "bufsize" }, { STRAT_CHUNK, "chunk" }, { STRAT_QD, "qd" },
	{ STRAT_RECORDS, "records" },
};

/* Its capabilities, space-separated: its flags' words (bufsize, chunk,
 * qd: the run settings it uses, the others refused), then its own
 * options' names (sqpoll, fadvise, ...). */
static void print_caps(const struct strategy *s, FILE *f)
{
	const char *sep = "";

	for (size_t i = 0; i < ARRAY_SIZE(cap_words); i++)
		if (s->flags & cap_words[i].flag) {
			fprintf(f, "%s%s", sep, cap_words[i].word);
			sep = " ";
		}
	for (const struct setting *o = s->opts; o && o->name; o++) {
		fprintf(f, "%s%s", sep, o->name);
		sep = " ";
	}
}

/* The built-in transforms, one line each (plug-ins: docs/transform.md). */
static void list_transforms(void)
{
	for (const struct xform_builtin *b = xform_builtins; b->name; b++) {
		if (b->t->kind == IOSTRAT_RECORD_FIXED)
			printf("%s\tfixed:%zu\t%s\n", b->name, b->t->record_size, b->help);
		else
			printf("%s\tline\t%s\n", b->name, b->help);
	}
}

int cmd_list(int argc, char **argv)
{
	struct list_args a = { 0 };
	const struct strategy *s;
	int npos = cmdopt_parse(&list_cmdopts, (void *[]){ &a }, argc, argv);

	if (npos < 0)
		return cmdopt_exit(npos);
	if (npos) {
		errorf("list: %s: unexpected argument (iostrat list takes only --caps "
		       "or --transforms)", argv[1]);
		return 2;
	}
	if (a.transforms) {
		list_transforms();
		return 0;
	}
	for (size_t i = 0; (s = strategy_at(i)); i++) {
		if (a.caps) {
			printf("%s\t", s->name);
			print_caps(s, stdout);
			putchar('\n');
			continue;
		}
		printf("%-8s %s\n         capabilities: ", s->name, s->summary);
		print_caps(s, stdout);
		putchar('\n');
		for (const struct setting *o = s->opts; o && o->name; o++)
			setting_help(o, stdout);
	}
	return 0;
}
