// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "../commands.h"
#include "../report/report.h"
#include "../util.h"

static void report_usage(FILE *f)
{
	fputs("usage: iostrat report DIR [-f|--format text|csv|json|markdown]\n\n"
	      "Summary tables of a results directory: per data set the stream/buffer\n"
	      "grid (threads x work, fastest cell of each column marked *), every other\n"
	      "strategy against the best of stream/buffer, and one line per\n"
	      "configuration (median, spread, MB/s, CPU, peak RSS).\n", f);
}

/* Shared by report and compare: --format, -f; the rest are dirs. */
int report_args(int argc, char **argv, enum rfmt *fmt, char **dirs,
		size_t *ndirs, void (*usage)(FILE *));
int report_args(int argc, char **argv, enum rfmt *fmt, char **dirs,
		size_t *ndirs, void (*usage)(FILE *))
{
	*fmt = RF_TEXT;
	*ndirs = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 1;
		}
		if (!strncmp(a, "--format=", 9))
			v = a + 9;
		else if (!strcmp(a, "--format") || !strcmp(a, "-f"))
			v = i + 1 < argc ? argv[++i] : "";
		else if (a[0] == '-' && a[1]) {
			errorf("%s: unknown option (%s --help)", a, argv[0]);
			return 2;
		} else {
			dirs[(*ndirs)++] = argv[i];
			continue;
		}
		if (rfmt_parse(v, fmt)) {
			errorf("--format: bad value '%s' (text, csv, json or markdown)", v);
			return 2;
		}
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	char *dirs[argc > 0 ? argc : 1];
	struct rrun r;
	struct rdoc d;
	enum rfmt fmt;
	size_t n;
	int ret = report_args(argc, argv, &fmt, dirs, &n, report_usage);

	if (ret)
		return ret == 1 ? 0 : ret;
	if (n != 1) {
		errorf("report: need one results directory (got %zu)", n);
		return 2;
	}
	if (rrun_load(dirs[0], &r))
		return 1;
	if (!json_array_size(r.rows)) { /* nothing measured: not a success */
		errorf("%s: no result rows: nothing to report", dirs[0]);
		rrun_free(&r);
		return 1;
	}
	rdoc_init(&d);
	report_build(&r, &d);
	rdoc_print(&d, fmt, stdout);
	rdoc_free(&d);
	rrun_free(&r);
	return 0;
}

/* Every option the parser above takes (cmdopt.h): main.c refuses the rest. */
static const struct cmd_opt report_table[] = {
	{ "format", 'f', true },
	{ NULL, 0, false },
};

const struct cmd_opts report_cmdopts = { .table = report_table };
