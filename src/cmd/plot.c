// SPDX-License-Identifier: MIT
/* iostrat plot: the gnuplot figures of a results directory, or of a comparison. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "lib/util.h"
#include "plot/plot.h"
#include "report/report.h"

static void plot_usage(FILE *f)
{
	fputs("usage: iostrat plot DIR [--only FIG,...]\n"
	      "       iostrat plot --compare DIR_A DIR_B [DIR...] [-o OUT]\n\n"
	      "Render every figure the results directory DIR has data for into\n"
	      "DIR/plots/NAME.png and NAME.svg (gnuplot scripts in plots/, their\n"
	      "data digested from DIR/results.jsonl into DIR/plots/data/NAME.dat),\n"
	      "and print the list.  Figure 6 (compare) is drawn from DIR/compare.csv\n"
	      "(`iostrat compare ... --format csv`); for an `iostrat sched` output\n"
	      "directory DIR it is made from DIR/sched.json's settings first.\n\n"
	      "figures:\n", f);
	for (const struct figure *fg = plot_figures; fg->name; fg++)
		fprintf(f, "  %-8s %s\n", fg->name, fg->what);
	fputs("\noptions:\n", f);
}

/* Every element of --only names a figure: an empty one ('' or "a,,b")
 * would otherwise draw nothing and exit 0. */
static int check_only(const char *only)
{
	for (const char *p = only; p;) {
		const char *end = strchrnul(p, ',');
		size_t n = (size_t)(end - p);
		bool known = false;

		if (!n) {
			errorf("--only: empty figure name in '%s' (iostrat plot --help)", only);
			return -EINVAL;
		}
		for (const struct figure *fg = plot_figures; fg->name; fg++)
			known |= strlen(fg->name) == n && !strncmp(fg->name, p, n);
		if (!known) {
			errorf("--only: unknown figure '%.*s' (iostrat plot --help)", (int)n, p);
			return -EINVAL;
		}
		p = *end ? end + 1 : NULL;
	}
	return 0;
}

/* What plot's options fill. */
struct plot_args {
	const char *only, *out;
	bool compare;
};

/* --only FIG,...: checked as it is given */
static int set_only(const struct setting *s, const char *v, void *obj)
{
	(void)s;
	((struct plot_args *)obj)->only = v;
	return check_only(v);
}

static const struct setting plot_table[] = {
	{ .name = "only", .type = SET_CALL, .arg = true, .call = set_only,
	  .metavar = "FIG,...", .help = "only these figure kinds" },
	{ .name = "compare", SETTING_BOOL(struct plot_args, compare),
	  .help = "compare the runs DIR_A DIR_B ... as `iostrat compare`\n"
		  "does, write OUT/compare.csv and draw figure 6 into\n"
		  "OUT/plots/ (OUT: -o, default DIR_A)" },
	{ .name = "out", .shortname = 'o', SETTING_STRING(struct plot_args, out),
	  .metavar = "OUT",
	  .help = "with --compare: where compare.csv and plots/ go" },
	{ 0 },
};

const struct cmd_opts plot_cmdopts = {
	.cmd = "plot", .tables = { plot_table }, .usage = plot_usage,
};

/* The npos directories in argv[1..] for a's mode: 0, or 2 after one line. */
static int check_dirs(const struct plot_args *a, int npos, char **argv)
{
	if (!a->compare && npos > 1) {
		errorf("%s: one DIR only (iostrat plot --help)", argv[2]);
		return 2;
	}
	if (a->compare && (npos < 2 || npos > RUNS_MAX)) {
		errorf("plot --compare: need 2 to %d results directories (got %d)",
		       RUNS_MAX, npos);
		return 2;
	}
	if (!npos) {
		errorf("plot: need a results directory (iostrat plot --help)");
		return 2;
	}
	if (a->out && !a->compare) {
		errorf("plot: -o is for --compare (figures of DIR go to DIR/plots)");
		return 2;
	}
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_args a = { 0 };
	const char *dir;
	json_t *cmp = NULL;
	int ret = cmdopt_parse(&plot_cmdopts, (void *[]){ &a }, argc, argv);

	if (ret < 0)
		return cmdopt_exit(ret);
	if (check_dirs(&a, ret, argv))
		return 2;
	if (!a.compare)
		return plot_draw(argv[1], a.only, NULL, stdout);
	dir = a.out ? a.out : argv[1];
	if (plot_compare(dir, argv + 1, (size_t)ret, &cmp))
		return 1;
	ret = plot_draw(dir, "compare", cmp, stdout);
	json_decref(cmp);
	return ret;
}
