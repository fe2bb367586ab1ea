// SPDX-License-Identifier: MIT
/* `iostrat plot DIR`: its arguments, then the figures of a results directory. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "results/results.h"
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

static bool wanted(const char *only, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = only; p && *p;) {
		const char *end = strchrnul(p, ',');

		if ((size_t)(end - p) == n && !strncmp(p, name, n))
			return true;
		p = *end ? end + 1 : end;
	}
	return !only;
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

/* Render the jobs from first on; prints one line per image. */
static int render_jobs(struct plot_ctx *c, const char *scripts, size_t first,
		       unsigned *warnings)
{
	int failed = 0;

	for (size_t i = first; i < c->njobs; i++) {
		const struct plot_job *j = &c->jobs[i];
		unsigned w = 0;

		if (plot_render(scripts, c->outdir, j, &w)) {
			failed++;
			continue;
		}
		*warnings += w;
		printf("  %-8s %s/%s.png  (.svg)%s\n", j->fig, c->outdir, j->name,
		       w ? "  [gnuplot warnings above]" : "");
	}
	return failed;
}

static int run_figures(struct plot_ctx *c, const char *only, const char *scripts)
{
	unsigned warnings = 0;
	int failed = 0;

	for (const struct figure *const *fp = plot_figures, *fg; (fg = *fp); fp++) {
		char why[256] = "no data for it";
		size_t first = c->njobs;

		if (!wanted(only, fg->name))
			continue;
		if (fg->build(c, why, sizeof(why))) {
			failed++;
			continue;
		}
		if (c->njobs == first) {
			printf("  %-8s -  (%s)\n", fg->name, why);
			continue;
		}
		if (scripts)
			failed += render_jobs(c, scripts, first, &warnings);
	}
	if (!scripts && c->njobs) {
		errorf("plot: %s; data for %zu figure(s) left in %s",
		       plot_have_gnuplot() ? "no gnuplot scripts" :
		       "gnuplot not found (apt-get install gnuplot-nox)",
		       c->njobs, c->datadir);
		return 1;
	}
	/* the images exist; warnings are shown, not fatal */
	if (warnings)
		warnf("plot: gnuplot printed %u warning(s), shown above", warnings);
	return failed ? 1 : 0;
}

static bool exists(const char *dir, const char *name)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

/* An `iostrat sched` output directory: its runs compared into compare.csv. */
static int sched_compare(const char *dir)
{
	char **dirs;
	size_t n;
	int ret = plot_sched_dirs(dir, &dirs, &n);

	if (!ret && n >= 2)
		ret = plot_write_compare(dir, dirs, n);
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	return ret;
}

static int setup(struct plot_ctx *c, const char *dir)
{
	int ret = 0;

	memset(c, 0, sizeof(*c));
	c->dir = dir;
	if (!exists(dir, "results.jsonl") && exists(dir, "sched.json") &&
	    sched_compare(dir))
		return -EIO;
	/* a directory of a comparison only (plot --compare -o OUT, sched) */
	if (!exists(dir, "results.jsonl") && exists(dir, "compare.csv"))
		c->rows = json_array();
	else
		ret = results_load(dir, &c->rows);
	if (ret)
		return ret;
	snprintf(c->outdir, sizeof(c->outdir), "%s/plots", dir);
	snprintf(c->datadir, sizeof(c->datadir), "%s/plots/data", dir);
	ret = mkdir_p(c->datadir, 0755);
	if (ret)
		return error_errno(ret, c->datadir, "creating");
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
	const char *dir, *only;
	char scripts[PATH_MAX];
	bool have_scripts;
	struct plot_ctx c;
	int ret = parse(argc, argv, &a);

	if (ret)
		return ret == 1 ? 0 : ret;
	dir = a.dirs[0];
	only = a.only;
	if (a.compare) {
		dir = a.out ? a.out : a.dirs[0];
		only = "compare";
		if (plot_write_compare(dir, a.dirs, a.ndirs))
			return 1;
	}
	if (setup(&c, dir)) {
		json_decref(c.rows);
		return 1;
	}
	have_scripts = plot_have_gnuplot() && !plot_scripts_dir(scripts, sizeof(scripts));
	printf("figures of %s:\n", dir);
	ret = run_figures(&c, only, have_scripts ? scripts : NULL);
	free(c.jobs);
	json_decref(c.rows);
	return ret;
}

/* Every option the parser above takes (cmdopt.h): main.c refuses the rest. */
static const struct cmd_opt plot_table[] = {
	{ "only", 0, true }, { "out", 'o', true }, { "compare", 0, false },
	{ NULL, 0, false },
};

const struct cmd_opts plot_cmdopts = { .table = plot_table };
