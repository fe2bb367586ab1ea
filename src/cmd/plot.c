// SPDX-License-Identifier: MIT
/* `iostrat plot DIR`: its arguments, then the figures of a results directory. */
#include <errno.h>
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
	      "  --only FIG,...   only these figure kinds\n"
	      "  --compare        compare the runs DIR_A DIR_B ... as `iostrat compare`\n"
	      "                   does, write OUT/compare.csv and draw figure 6 into\n"
	      "                   OUT/plots/ (OUT: -o, default DIR_A)\n"
	      "  -o, --out OUT    with --compare: where compare.csv and plots/ go\n\n"
	      "figures:\n", f);
	for (const struct figure *const *fp = plot_figures, *fg; (fg = *fp); fp++)
		fprintf(f, "  %-8s %s\n", fg->name, fg->what);
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
		for (const struct figure *const *fp = plot_figures, *fg; (fg = *fp); fp++)
			known |= strlen(fg->name) == n && !strncmp(fg->name, p, n);
		if (!known) {
			errorf("--only: unknown figure '%.*s' (iostrat plot --help)", (int)n, p);
			return -EINVAL;
		}
		p = *end ? end + 1 : NULL;
	}
	return 0;
}

struct plot_args {
	const char *only, *out;
	char **dirs;
	size_t ndirs;
	bool compare;
};

static int parse(int argc, char **argv, struct plot_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
			plot_usage(stdout);
			return 1;
		}
		if ((!strcmp(s, "--only") || !strcmp(s, "-o") || !strcmp(s, "--out")) &&
		    i + 1 < argc) {
			*(!strcmp(s, "--only") ? &a->only : &a->out) = argv[++i];
		} else if (!strncmp(s, "--only=", 7)) {
			a->only = s + 7;
		} else if (!strncmp(s, "--out=", 6)) {
			a->out = s + 6;
		} else if (!strcmp(s, "--compare")) {
			a->compare = true;
		} else if (s[0] == '-') {
			errorf("%s: unknown option (iostrat plot --help)", s);
			return 2;
		} else {
			a->dirs[a->ndirs++] = argv[i];
		}
	}
	if (!a->compare && a->ndirs > 1) {
		errorf("%s: one DIR only (iostrat plot --help)", a->dirs[1]);
		return 2;
	}
	if (a->compare && (a->ndirs < 2 || a->ndirs > RUNS_MAX)) {
		errorf("plot --compare: need 2 to %d results directories (got %zu)",
		       RUNS_MAX, a->ndirs);
		return 2;
	}
	if (!a->ndirs) {
		errorf("plot: need a results directory (iostrat plot --help)");
		return 2;
	}
	if (a->out && !a->compare) {
		errorf("plot: -o is for --compare (figures of DIR go to DIR/plots)");
		return 2;
	}
	return check_only(a->only) ? 2 : 0;
}

int cmd_plot(int argc, char **argv)
{
	char *dirv[argc > 0 ? argc : 1];
	struct plot_args a = { .dirs = dirv };
	const char *dir;
	json_t *cmp = NULL;
	int ret = parse(argc, argv, &a);

	if (ret)
		return ret == 1 ? 0 : ret;
	if (!a.compare)
		return plot_draw(a.dirs[0], a.only, NULL, stdout);
	dir = a.out ? a.out : a.dirs[0];
	if (plot_compare(dir, a.dirs, a.ndirs, &cmp))
		return 1;
	ret = plot_draw(dir, "compare", cmp, stdout);
	json_decref(cmp);
	return ret;
}

/* Every option the parser above takes (settings.h): main.c refuses the rest. */
static const struct setting plot_table[] = {
	{ .name = "only", .type = SET_STRING }, { .name = "out", .shortname = 'o', .type = SET_STRING }, { .name = "compare" },
	{ 0 },
};

const struct cmd_opts plot_cmdopts = { .cmd = "plot", .tables = { plot_table } };
