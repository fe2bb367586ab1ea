// SPDX-License-Identifier: MIT
/* The figure files of a results directory, in the order of the figure
 * kinds (plot_figure_paths): what report.html shows inline. */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

/* Order of a figure file among the kinds (plot_figures), then by name. */
static int fig_rank(const char *path)
{
	const char *b = strrchr(path, '/');
	int i = 0;

	b = b ? b + 1 : path;
	for (const struct figure *fg = plot_figures; fg->name; fg++, i++)
		if (!strncmp(b, fg->name, strlen(fg->name)))
			return i;
	return i;
}

static int by_rank(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int d = fig_rank(x) - fig_rank(y);

	return d ? d : strcmp(x, y);
}

int plot_figure_paths(const char *dir, char ***paths, size_t *n)
{
	char pat[4200];
	glob_t g;
	int ret;

	*paths = NULL;
	*n = 0;
	snprintf(pat, sizeof(pat), "%s/plots/*.svg", dir);
	ret = glob(pat, 0, NULL, &g);
	if (ret == GLOB_NOMATCH)
		return 0;
	if (ret)
		return -ENOMEM;
	*paths = calloc(g.gl_pathc + 1, sizeof(char *));
	if (!*paths) {
		globfree(&g);
		return -ENOMEM;
	}
	for (size_t i = 0; i < g.gl_pathc; i++)
		(*paths)[(*n)++] = strdup(g.gl_pathv[i]);
	globfree(&g);
	qsort(*paths, *n, sizeof(char *), by_rank);
	return 0;
}

