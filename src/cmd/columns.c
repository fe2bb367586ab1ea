// SPDX-License-Identifier: MIT
/* `iostrat __columns` and the hand-down of every room's column table to results at start. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "engine/bench.h"
#include "fio/fio.h"
#include "net/net.h"
#include "report/table.h"
#include "results/row.h"
#include "sched/hook.h"
#include "sweep/sweep.h"
#include "trace/probe.h"
#include "lib/util.h"

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
	       column_type_name(c->type), v ? " (" : "", v ? v : "", v ? ")" : "",
	       c->unit ? c->unit : "", c->room, c->flags & COLF_CORE ?
	       "every row" : "its writer's rows", hlen, c->help ? c->help : "");
}

static void print_one(const struct column *c, void *ctx)
{
	struct lister *l = ctx;
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
	printf("%s\t%s\t%s\t%s\t%s\t%s\t%.*s\n", c->name, column_type_name(c->type),
	       v ? v : "-", c->unit ? c->unit : "-", c->room,
	       c->flags & COLF_CORE ? "core" : "extra", hlen, c->help ? c->help : "-");
}

/* Every room's own table, handed down to results: the probes', the
 * tracer's, the kinds', the engine's and sched's, and the engine's kinds (a strategy's results
 * reads itself: core is below it). */
int columns_hand_down(void)
{
	const struct column *const tables[] = {
		fio_columns, net_columns, sweep_columns, trace_columns,
		engine_columns, sched_columns,
	};
	int ret = 0;

	row_kinds_set(bench_kind_names());
	for (size_t k = 0; !ret && probe_registry[k]; k++)
		ret = row_columns_add(probe_registry[k]->columns);
	for (size_t i = 0; !ret && i < ARRAY_SIZE(tables); i++)
		ret = row_columns_add(tables[i]);
	if (!ret)
		ret = row_settings_add(fio_settings, "fio");
	if (!ret)
		ret = row_settings_add(net_settings, "net");
	return ret ? ret : row_settings_add(sweep_point_settings, "sweep");
}

int cmd_columns(int argc, char **argv)
{
	const char *a = argc == 2 ? argv[1] : "";
	struct lister l = { !strcmp(a, "--markdown"), json_object() };
	bool report = !strcmp(a, "--report");

	if (argc > 2 || (argc == 2 && !l.markdown && !report)) {
		errorf("__columns: %s: unexpected argument (give --markdown, --report or nothing)",
		       argv[1]);
		json_decref(l.seen);
		return 2;
	}
	if (l.markdown)
		puts("| column | type | unit | written by | in | what |\n"
		     "|---|---|---|---|---|---|");
	if (report)
		report_columns_each(print_one, &l);
	else
		row_columns_each(print_one, &l);
	json_decref(l.seen);
	return 0;
}
