// SPDX-License-Identifier: MIT
/* `iostrat report DIR`: its arguments and output format, then the report's tables. */
#include <stdio.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <libgen.h>

#include "commands.h"
#include "core/strategy.h"
#include "plot/plot.h"
#include "report/report.h"
#include "results/race.h"
#include "lib/util.h"

static void report_usage(FILE *f)
{
	char base[128];

	strategy_names_with(STRAT_REPORT_BASE, "/", base, sizeof(base));
	fprintf(f, "usage: iostrat report DIR [-f|--format text|csv|json|markdown|html] [-o|--out FILE]\n\n"
	      "The verdict first (per data set x work level x threads: every pair of\n"
	      "strategies' ratio of times, paired by round, with a 95%% interval valid\n"
	      "at every look: a winner, equal within min_effect (default " RACE_MIN_EFFECT_DEF "%%),\n"
	      "or undecided with what would decide it; and why; rules in\n"
	      "docs/verdict.md), then summary tables: per data set the %s\n"
	      "grid (threads x work, fastest cell of each column marked *), every other\n"
	      "strategy against the best of %s, and one line per\n"
	      "configuration (median, spread, MB/s, CPU, peak RSS).\n\n", base, base);
}

/* What report's options fill. */
struct report_args {
	int format;		/* an index of rfmt_values */
	const char *out;
};

static const struct setting report_table[] = {
	{ .name = "format", .shortname = 'f', SETTING_ENUM(struct report_args, format),
	  .values = rfmt_values,
	  .metavar = "FMT",
	  .help = "text, csv, json, markdown or html (default text); html is\n"
		  "one self-contained page: the verdict, every figure of\n"
		  "DIR/plots inline (drawn first when there are none),\n"
		  "the tables, the profile and the machine context" },
	{ .name = "out", .shortname = 'o', SETTING_STRING(struct report_args, out),
	  .metavar = "FILE",
	  .help = "write FILE (atomically) instead of standard output" },
	{ 0 },
};

const struct cmd_opts report_cmdopts = {
	.cmd = "report", .tables = { report_table }, .usage = report_usage,
};

/* DIR's figures for the page: drawn first when DIR/plots has none
 * (plot_draw, its list on stderr: standard output stays the page). */
static void figure_paths(const char *dir, char ***paths, size_t *n)
{
	if (!plot_figure_paths(dir, paths, n) && *n)
		return;
	free(*paths);
	plot_draw(dir, NULL, NULL, stderr);
	if (plot_figure_paths(dir, paths, n)) {
		free(*paths);
		*paths = NULL;
		*n = 0;
	}
}

static void free_paths(char **paths, size_t n)
{
	while (n)
		free(paths[--n]);
	free(paths);
}

/* OUT's directory can take the file: checked before the rows are read,
 * drawn or formatted, so a report to a bad place is one line and leaves
 * nothing behind */
static int out_dir_writable(const char *out)
{
	char *copy = strdup(out);
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	if (access(dirname(copy), W_OK | X_OK))
		ret = -errno;
	free(copy);
	return ret;
}

static int emit(const struct rrun *r, const struct rdoc *d, enum rfmt fmt,
		const char *out)
{
	char **figs = NULL;
	size_t nfigs = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = out ? open_memstream(&buf, &len) : stdout;
	int ret = 0;

	if (!f)
		return error_errno(-errno, out, "report");
	if (fmt == RF_HTML) {
		figure_paths(r->dir, &figs, &nfigs);
		report_html(r, d, figs, nfigs, f);
		free_paths(figs, nfigs);
	} else
		rdoc_print(d, fmt, f);
	if (!out)
		return 0; /* written and closed as every command's: main's check */
	if (fclose(f))
		ret = error_errno(-errno, out, "report");
	else if ((ret = write_file_atomic(out, buf, len)))
		error_errno(ret, out, "report: write");
	free(buf);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .format = RF_TEXT };
	struct rrun r;
	struct rdoc d;
	int ret = cmdopt_parse(&report_cmdopts, (void *[]){ &a }, argc, argv);

	if (ret < 0)
		return cmdopt_exit(ret);
	if (ret != 1) {
		errorf("report: need one results directory (got %d)", ret);
		return 2;
	}
	if (a.out && !a.out[0]) {
		errorf("--out: needs a file name");
		return 2;
	}
	if (a.out && (ret = out_dir_writable(a.out))) {
		error_errno(ret, a.out, "report: write");
		return 1;
	}
	if (rrun_load(argv[1], &r))
		return 1;
	if (!json_array_size(r.rows)) { /* nothing measured: not a success */
		errorf("%s: no result rows: nothing to report", argv[1]);
		rrun_free(&r);
		return 1;
	}
	rdoc_init(&d);
	report_build(&r, &d);
	ret = emit(&r, &d, rfmt_of(a.format), a.out);
	rdoc_free(&d);
	rrun_free(&r);
	return ret ? 1 : 0;
}
