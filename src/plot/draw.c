// SPDX-License-Identifier: MIT
/* The figures of one results directory drawn (plot_draw): each figure
 * kind digests the rows into data files, gnuplot renders them, and the
 * list of images goes to the caller's stream. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/results.h"
#include "lib/util.h"
#include "plot.h"

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
		fprintf(c->list, "  %-8s %s/%s.png  (.svg)%s\n", j->fig, c->outdir, j->name,
		       w ? "  [gnuplot warnings above]" : "");
	}
	return failed;
}

static int run_figures(struct plot_ctx *c, const char *only, const char *scripts)
{
	unsigned warnings = 0;
	int failed = 0;

	for (const struct figure *fg = plot_figures; fg->name; fg++) {
		char why[256] = "no data for it";
		size_t first = c->njobs;

		if (!wanted(only, fg->name))
			continue;
		if (fig_build(c, fg, why, sizeof(why))) {
			failed++;
			continue;
		}
		if (c->njobs == first) {
			fprintf(c->list, "  %-8s -  (%s)\n", fg->name, why);
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

/* An `iostrat sched` output directory: its runs compared (c->cmp). */
static int sched_compare(struct plot_ctx *c)
{
	char **dirs;
	size_t n;
	int ret = plot_sched_dirs(c->dir, &dirs, &n);

	if (!ret && n >= 2)
		ret = plot_compare(c->dir, dirs, n, &c->cmp);
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	return ret;
}

static int setup(struct plot_ctx *c)
{
	const char *dir = c->dir;
	int ret = 0;

	if (!c->cmp && !exists(dir, "results.jsonl") && exists(dir, "sched.json") &&
	    sched_compare(c))
		return -EIO;
	/* a directory of a comparison only (plot --compare -o OUT, sched) */
	if (!exists(dir, "results.jsonl") && (c->cmp || exists(dir, "compare.csv")))
		c->rows = json_array();
	else
		ret = results_load(dir, &c->rows);
	if (ret)
		return ret;
	if (!json_array_size(c->rows) && !c->cmp && !exists(dir, "compare.csv")) {
		errorf("%s: no result rows: nothing to plot", dir);
		return -ENODATA;
	}
	snprintf(c->outdir, sizeof(c->outdir), "%s/plots", dir);
	snprintf(c->datadir, sizeof(c->datadir), "%s/plots/data", dir);
	ret = mkdir_p(c->datadir, 0755);
	if (ret)
		return error_errno(ret, c->datadir, "creating");
	return 0;
}


int plot_draw(const char *dir, const char *only, json_t *cmp, FILE *list)
{
	struct plot_ctx c = { .dir = dir, .cmp = json_incref(cmp), .list = list };
	char scripts[PATH_MAX];
	bool have_scripts;
	int ret = setup(&c);

	if (!ret) {
		have_scripts = plot_have_gnuplot() &&
			       !plot_scripts_dir(scripts, sizeof(scripts));
		fprintf(list, "figures of %s:\n", dir);
		ret = run_figures(&c, only, have_scripts ? scripts : NULL);
	}
	free(c.jobs);
	json_decref(c.rows);
	json_decref(c.cmp);
	json_decref(c.verdict);
	return ret ? 1 : 0;
}
