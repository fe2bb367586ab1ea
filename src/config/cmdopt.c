// SPDX-License-Identifier: MIT
/* The option gate of every subcommand: see cmdopt.h. */
#include <string.h>

#include "cmdopt.h"
#include "lib/util.h"

void cmdopt_each(const struct cmd_opts *o, cmd_opt_fn fn, void *ctx)
{
	for (const struct cmd_opt *t = o->table; t && (t->name || t->shortname); t++)
		fn(t, ctx);
	if (o->more)
		o->more(fn, ctx);
}

struct lookup {
	const char *name;	/* long: the name, len bytes */
	size_t len;
	char shortname;		/* or the short letter */
	bool hit, arg;		/* (a copy: fn's option may not outlive fn) */
};

static void match(const struct cmd_opt *o, void *ctx)
{
	struct lookup *l = ctx;

	if (l->hit)
		return;
	if (l->name ? o->name && strlen(o->name) == l->len &&
		      !strncmp(o->name, l->name, l->len)
		    : o->shortname == l->shortname)
		l->hit = true, l->arg = o->arg;
}

int cmdopt_check(const char *cmd, const struct cmd_opts *o, int argc,
		 char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		struct lookup l = { 0 };

		if (!strcmp(a, "--"))
			break;
		if (a[0] != '-' || !a[1]) {
			if (o->flags & CMDOPT_STOP_AT_ARG)
				break;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			continue;
		if (a[1] == '-') {
			l.name = a + 2;
			l.len = strcspn(l.name, "=");
		} else {
			l.shortname = a[1];
		}
		cmdopt_each(o, match, &l);
		if (!l.hit) {
			if (l.name)
				errorf("--%.*s: unknown option (iostrat %s --help)",
				       (int)l.len, l.name, cmd);
			else
				errorf("%s: unknown option (iostrat %s --help)",
				       a, cmd);
			return 2;
		}
		/* its value is the next argument, whatever it looks like */
		if (l.arg && (l.name ? !l.name[l.len] : !a[2]))
			i++;
	}
	return 0;
}
