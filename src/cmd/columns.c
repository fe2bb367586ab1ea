// SPDX-License-Identifier: MIT
/* `iostrat __columns`: every result-row column from the column table, the strategies' and the probes' declarations. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "core/strategy.h"
#include "config/jobopts.h"
#include "results/row.h"
#include "trace/probe.h"
#include "lib/util.h"

static const char *const type_name[] = {
	[COL_TEXT] = "text", [COL_FLAG] = "flag", [COL_SIGNED] = "signed",
	[COL_TIME] = "time", [COL_SIZE] = "size", [COL_COUNT] = "count",
	[COL_RATE] = "rate",
};

struct lister {
	bool markdown;
	json_t *seen; /* names printed: a column two declare is listed once */
};

/* "a|b" as "a, b": a markdown cell holds no bare '|'. */
static const char *md_values(const char *v, char *buf, size_t len)
{
	size_t n = 0;

	for (; v && *v && n + 3 < len; v++)
		n += (size_t)snprintf(buf + n, len - n, "%s", *v == '|' ? ", " :
				      (char[]){ *v, 0 });
	return v ? buf : NULL;
}

static void print_markdown(const struct column *c, const char *v, int hlen)
{
	char buf[256];

	v = md_values(v, buf, sizeof(buf));
	printf("| `%s` | %s%s%s%s | %s | %s | %s | %.*s |\n", c->name,
	       type_name[c->type], v ? " (" : "", v ? v : "", v ? ")" : "",
	       c->unit ? c->unit : "", c->room, c->flags & COLF_CORE ?
	       "every row" : "its writer's rows", hlen, c->help ? c->help : "");
}

static void print_one(struct lister *l, const struct column *c)
{
	char buf[256];
	const char *v = c->type == COL_FLAG ? "true|false" :
			column_values(c, buf, sizeof(buf));
	int hlen = c->help ? (int)strcspn(c->help, "\n") : 1;

	if (json_object_get(l->seen, c->name))
		return;
	json_object_set_new(l->seen, c->name, json_true());
	if (l->markdown) {
		print_markdown(c, v, hlen);
		return;
	}
	printf("%s\t%s\t%s\t%s\t%s\t%s\t%.*s\n", c->name, type_name[c->type],
	       v ? v : "-", c->unit ? c->unit : "-", c->room,
	       c->flags & COLF_CORE ? "core" : "extra", hlen, c->help ? c->help : "-");
}

/* The settings of table that are columns, as lines of room. */
static void print_settings(struct lister *l, const struct setting *table,
			   const char *room, unsigned flags)
{
	struct column c;

	for (const struct setting *s = table; s && s->name; s++)
		if (column_of_setting(s, &c)) {
			c.room = room;
			c.flags = flags;
			print_one(l, &c);
		}
}

static void print_table(struct lister *l, const struct column *t)
{
	for (; t && t->name; t++) {
		if (column_is_settings(t))
			print_settings(l, run_settings, "config", COLF_CORE);
		else
			print_one(l, t);
	}
}

/* Each probe's columns, as it declares them. */
static void print_probes(struct lister *l)
{
	for (size_t k = 0; probe_registry[k]; k++)
		print_table(l, probe_registry[k]->columns);
}

int cmd_columns(int argc, char **argv)
{
	struct lister l = { argc == 2 && !strcmp(argv[1], "--markdown"), json_object() };
	const struct strategy *s;

	if (argc > 2 || (argc == 2 && !l.markdown)) {
		errorf("__columns: %s: unexpected argument (give --markdown or nothing)",
		       argv[1]);
		json_decref(l.seen);
		return 2;
	}
	if (l.markdown)
		puts("| column | type | unit | written by | in | what |\n"
		     "|---|---|---|---|---|---|");
	print_table(&l, row_columns);
	for (size_t i = 0; (s = strategy_at(i)); i++) {
		print_table(&l, s->columns);
		print_settings(&l, s->opts, "core", 0);
	}
	print_probes(&l);
	json_decref(l.seen);
	return 0;
}
