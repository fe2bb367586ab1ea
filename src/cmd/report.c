// SPDX-License-Identifier: MIT
/* `iostrat report DIR`: its arguments and output format, then the report's tables. */
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include <stdlib.h>

#include "commands.h"
#include "core/strategy.h"
#include "plot/plot.h"
#include "report/report.h"
#include "lib/util.h"

static void report_usage(FILE *f)
{
	char base[128];

	strategy_names_with(STRAT_REPORT_BASE, "/", base, sizeof(base));
	fprintf(f, "usage: iostrat report DIR [-f|--format text|csv|json|markdown|html] [-o|--out FILE]\n\n"
	      "The verdict first (per data set x work level x threads: the fastest\n"
	      "strategy, its margin with the test's p, or 'not distinguishable', and\n"
	      "why; rules in docs/verdict.md), then summary tables: per data set the %s\n"
	      "grid (threads x work, fastest cell of each column marked *), every other\n"
	      "strategy against the best of %s, and one line per\n"
	      "configuration (median, spread, MB/s, CPU, peak RSS).\n\n", base, base);
	fputs("  --format html  one self-contained page: the verdict, every figure of\n"
	      "                 DIR/plots inline (drawn first when there are none),\n"
	      "                 the tables, the profile and the machine context\n"
	      "  -o FILE        write FILE (atomically) instead of standard output\n", f);
}

/* Shared by report and compare: --format, -f; the rest are dirs. */
int report_args(int argc, char **argv, enum rfmt *fmt, char **dirs,
		size_t *ndirs, void (*usage)(FILE *), const char **outp);
int report_args(int argc, char **argv, enum rfmt *fmt, char **dirs,
		size_t *ndirs, void (*usage)(FILE *), const char **outp)
{
	*fmt = RF_TEXT;
	*ndirs = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 1;
		}
		if (outp && !strncmp(a, "--out=", 6) && a[6]) {
			*outp = a + 6;
			continue;
		}
		if (outp && (!strcmp(a, "-o") || !strcmp(a, "--out"))) {
			if (i + 1 >= argc || !argv[i + 1][0]) {
				errorf("%s: needs a file name", a);
				return 2;
			}
			*outp = argv[++i];
			continue;
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
			errorf("--format: bad value '%s' (text, csv, json, markdown or html)", v);
			return 2;
		}
	}
	return 0;
}

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
	char *dirs[argc > 0 ? argc : 1];
	const char *out = NULL;
	struct rrun r;
	struct rdoc d;
	enum rfmt fmt;
	size_t n;
	int ret = report_args(argc, argv, &fmt, dirs, &n, report_usage, &out);

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
	ret = emit(&r, &d, fmt, out);
	rdoc_free(&d);
	rrun_free(&r);
	return ret ? 1 : 0;
}

/* Every option the parser above takes (settings.h): main.c refuses the rest. */
static const struct setting report_table[] = {
	{ .name = "format", .shortname = 'f', .type = SET_STRING },
	{ .name = "out", .shortname = 'o', .type = SET_STRING },
	{ 0 },
};

const struct cmd_opts report_cmdopts = { .cmd = "report", .tables = { report_table } };
