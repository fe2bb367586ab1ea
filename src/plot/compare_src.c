// SPDX-License-Identifier: MIT
/*
 * Figure 6's data when plot makes the comparison itself (`iostrat plot
 * --compare A B ...`, an `iostrat sched` output directory): the runs
 * compared in process as `iostrat compare` does, the spread table handed
 * to the figure from memory, and OUT/compare.csv written beside it (the
 * `--format csv` text, for the reader and a later `iostrat plot OUT`).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "lib/util.h"
#include "plot.h"

static int write_csv(const char *out, const struct rdoc *d)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret = f ? 0 : -ENOMEM;

	if (f) {
		rdoc_print(d, RF_CSV, f);
		ret = fclose(f) ? -ENOMEM : 0;
	}
	snprintf(path, sizeof(path), "%s/compare.csv", out);
	if (!ret)
		ret = mkdir_p(out, 0755);
	if (!ret)
		ret = write_file_atomic(path, buf, len);
	free(buf);
	return ret ? error_errno(ret, path, "writing") : 0;
}

int plot_compare(const char *out, char *const *dirs, size_t n, json_t **rows)
{
	struct rrun *runs = calloc(n ? n : 1, sizeof(*runs));
	const struct rtable *t;
	size_t loaded = 0;
	struct rdoc d;
	int ret;

	*rows = NULL;
	if (!runs)
		return error_errno(-ENOMEM, out, "plot --compare");
	for (; loaded < n; loaded++)
		if (rrun_load(dirs[loaded], &runs[loaded]))
			break;
	ret = loaded == n ? 0 : -ENOENT; /* rrun_load said why */
	if (!ret) {
		rdoc_init(&d);
		compare_build(runs, n, &d, true);
		ret = write_csv(out, &d);
		t = rdoc_find(&d, COMPARE_SPREAD_TITLE);
		if (!ret)
			*rows = t ? rtable_objects(t) : json_array();
		rdoc_free(&d);
	}
	for (size_t i = 0; i < loaded; i++)
		rrun_free(&runs[i]);
	free(runs);
	return ret;
}

int plot_sched_dirs(const char *dir, char ***dirs, size_t *n)
{
	char path[PATH_MAX];
	json_t *o, *sets, *v;
	size_t i;

	*dirs = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/sched.json", dir);
	o = json_load_file(path, 0, NULL);
	sets = json_object_get(o, "settings");
	if (!json_is_array(sets) || json_array_size(sets) < 2) {
		json_decref(o);
		return 0;
	}
	*dirs = calloc(json_array_size(sets), sizeof(char *));
	json_array_foreach(sets, i, v) {
		const char *s = json_string_value(v);

		if (!*dirs || !s || strchr(s, '/') ||
		    asprintf(&(*dirs)[*n], "%s/%s", dir, s) < 0)
			break;
		(*n)++;
	}
	json_decref(o);
	return 0;
}
