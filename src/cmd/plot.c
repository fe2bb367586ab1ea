// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../commands.h"
#include "../results.h"
#include "../util.h"
#include "../plot/plot.h"

static void plot_usage(FILE *f)
{
	fputs("usage: iostrat plot DIR [--only FIG,...]\n\n"
	      "Render every figure the results directory DIR has data for into\n"
	      "DIR/plots/NAME.png and NAME.svg (gnuplot scripts in plots/, their\n"
	      "data digested from DIR/results.jsonl into DIR/plots/data/NAME.dat),\n"
	      "and print the list.\n\n"
	      "  --only FIG,...   only these figure kinds\n\nfigures:\n", f);
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

static int check_only(const char *only)
{
	for (const char *p = only; p && *p;) {
		const char *end = strchrnul(p, ',');
		bool known = false;

		for (const struct figure *const *fp = plot_figures, *fg; (fg = *fp); fp++)
			known |= strlen(fg->name) == (size_t)(end - p) &&
				 !strncmp(fg->name, p, (size_t)(end - p));
		if (!known) {
			errorf("--only: unknown figure '%.*s' (iostrat plot --help)",
			       (int)(end - p), p);
			return -EINVAL;
		}
		p = *end ? end + 1 : end;
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

static int setup(struct plot_ctx *c, const char *dir)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->dir = dir;
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

int cmd_plot(int argc, char **argv)
{
	const char *dir = NULL, *only = NULL;
	char scripts[PATH_MAX];
	bool have_scripts;
	struct plot_ctx c;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			plot_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			only = argv[++i];
		} else if (!strncmp(argv[i], "--only=", 7)) {
			only = argv[i] + 7;
		} else if (argv[i][0] == '-' || dir) {
			errorf("%s: %s (iostrat plot --help)", argv[i],
			       argv[i][0] == '-' ? "unknown option" : "one DIR only");
			return 2;
		} else {
			dir = argv[i];
		}
	}
	if (!dir) {
		errorf("plot: need a results directory (iostrat plot --help)");
		return 2;
	}
	if (check_only(only))
		return 2;
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
