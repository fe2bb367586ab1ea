// SPDX-License-Identifier: MIT
/* `iostrat compare DIR...`: results directories side by side, with significance. */
#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "lib/column.h"
#include "report/report.h"
#include "lib/util.h"

#define MAX_RUNS RUNS_MAX

static void compare_usage(FILE *f)
{
	fputs("usage: iostrat compare DIR_A DIR_B [DIR...] [-f|--format text|csv|json|markdown|html]\n\n"
	      "Set results directories side by side: configurations matched by\n"
	      "config_id, each run's median against A's with its ratio and a\n"
	      "significance mark (* = p < 0.05: Mann-Whitney U with >= 4 repetitions\n"
	      "on both sides, else Welch's t), then what differed between the runs\n"
	      "(kernel, scheduler, disk settings in env.json; profile lines).\n"
	      "csv and json add a table with one row per configuration and run\n"
	      "(median, min, max, q1, q3, ratio, p, sig): `iostrat plot` draws it\n"
	      "as figure 6 (iostrat plot --compare DIR_A DIR_B ...).\n"
	      "Runs from different hosts (env.json's host) are named by their host,\n"
	      "one line says what the machines differ in, and the last table, the\n"
	      "fleet summary, gives per verdict cell each run's fastest strategy and\n"
	      "whether the runs agree (docs/fleet.md).\n\n", f);
}

/* compare's options' object. */
struct compare_args {
	int fmt;	/* an index of rfmt_values */
};

static const struct setting compare_table[] = {
	{ .name = "format", .shortname = 'f', SETTING_ENUM(struct compare_args, fmt),
	  .values = rfmt_values, .metavar = "FMT",
	  .help = "text, csv, json, markdown or html (default text);\n"
		  "html is the tables as one self-contained page" },
	{ 0 },
};

const struct cmd_opts compare_cmdopts = {
	.cmd = "compare", .tables = { compare_table }, .usage = compare_usage,
};

/* Configurations of A found in at least one other run: with none, there
 * is nothing to compare, and no table is printed.  The other runs' ids go
 * into one hashed set, so this is linear in the rows. */
static size_t in_common(const struct rrun *runs, size_t n)
{
	json_t *others = json_object(), *row;
	size_t common = 0, i;

	for (size_t k = 1; others && k < n; k++)
		json_array_foreach(runs[k].sum, i, row) {
			const char *id = json_string_value(json_object_get(row, RC_CONFIG_ID));

			if (id)
				json_object_set_new(others, id, json_true());
		}
	json_array_foreach(runs[0].sum, i, row) {
		const char *id = json_string_value(json_object_get(row, RC_CONFIG_ID));

		common += id && json_object_get(others, id);
	}
	json_decref(others);
	return common;
}

int cmd_compare(int argc, char **argv)
{
	struct rrun runs[MAX_RUNS];
	struct rdoc d;
	struct compare_args a = { .fmt = RF_TEXT };
	enum rfmt fmt;
	char **dirs = argv + 1;
	size_t n, loaded = 0;
	int ret = cmdopt_parse(&compare_cmdopts, (void *[]){ &a }, argc, argv);

	if (ret < 0)
		return cmdopt_exit(ret);
	n = (size_t)ret;
	fmt = rfmt_of(a.fmt);
	ret = 0;
	if (n < 2 || n > MAX_RUNS) {
		errorf("compare: need 2 to %d results directories (got %zu)", MAX_RUNS, n);
		return 2;
	}
	for (; loaded < n; loaded++)
		if (rrun_load(dirs[loaded], &runs[loaded]))
			break;
	/* the refusal comes first and alone: no table before it */
	if (loaded == n && !in_common(runs, n)) {
		errorf("%s: no configuration in common with the other runs: "
		       "nothing compared", dirs[0]);
		ret = 1;
	} else if (loaded == n) {
		rdoc_init(&d);
		compare_build(runs, n, &d, fmt == RF_CSV || fmt == RF_JSON);
		rdoc_print(&d, fmt, stdout);
		rdoc_free(&d);
	}
	for (size_t i = 0; i < loaded; i++)
		rrun_free(&runs[i]);
	return loaded == n ? ret : 1;
}
