/* SPDX-License-Identifier: MIT */
/* The option table of every subcommand, and the gate that refuses options not in it. */
#ifndef IOSTRAT_CMDOPT_H
#define IOSTRAT_CMDOPT_H

#include <stdbool.h>

/*
 * The options a subcommand's parser takes, as a table beside the parser.
 * main.c refuses any option of a command that is not in its table (or in
 * the tables its parser reads: job options, strategy options, net and
 * sweep keys) before the command sees it, so an option the table lacks
 * cannot be used; `iostrat __options CMD` prints the table, and
 * tests/docs.sh checks that every entry is in CMD's man page and --help.
 * -h/--help are every command's and are not listed.
 */
struct cmd_opt {
	const char *name;	/* long name without "--", or NULL */
	char shortname;		/* -X, or 0 */
	bool arg;		/* takes a value (--name V, --name=V, -XV, -X V) */
};

typedef void (*cmd_opt_fn)(const struct cmd_opt *o, void *ctx);

/* A command's options: its own table ({NULL, 0}-terminated) and, when its
 * parser reads other tables, a function that feeds those to fn. */
struct cmd_opts {
	const struct cmd_opt *table;
	void (*more)(cmd_opt_fn fn, void *ctx);
	unsigned flags;
};

/* Options end at the first argument that is not one (trace CMD ARGS...);
 * otherwise they may come anywhere before "--". */
#define CMDOPT_STOP_AT_ARG 1u

/* 0 when every option in argv[1..] is in o, else one error line and 2. */
int cmdopt_check(const char *cmd, const struct cmd_opts *o, int argc,
		 char **argv);
/* Every option of o, to fn: the table first, then o->more. */
void cmdopt_each(const struct cmd_opts *o, cmd_opt_fn fn, void *ctx);

#endif
