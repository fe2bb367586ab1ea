// SPDX-License-Identifier: MIT
/*
 * Where figure 6's compare.csv comes from: `iostrat plot --compare A B ...`
 * runs the comparison of `iostrat compare` in process and writes its csv
 * (the spread table included); an `iostrat sched` output directory names
 * its runs (one per setting) in sched.json.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "lib/util.h"
#include "plot.h"

int plot_write_compare(const char *out, char *const *dirs, size_t n)
{
	struct rrun *runs = calloc(n ? n : 1, sizeof(*runs));
	char path[PATH_MAX], *buf = NULL;
	size_t loaded = 0, len = 0;
	struct rdoc d;
	FILE *f;
	int ret = -ENOMEM;

	if (!runs)
		return error_errno(ret, out, "plot --compare");
	for (; loaded < n; loaded++)
		if (rrun_load(dirs[loaded], &runs[loaded]))
			break;
	ret = loaded == n ? 0 : -ENOENT; /* rrun_load said why */
	if (!ret) {
		rdoc_init(&d);
		compare_build(runs, n, &d, true);
		f = open_memstream(&buf, &len);
		if (f) {
			rdoc_print(&d, RF_CSV, f);
			ret = fclose(f) ? -ENOMEM : 0;
		}
		rdoc_free(&d);
		snprintf(path, sizeof(path), "%s/compare.csv", out);
		ret = !f ? -ENOMEM : ret ? ret : mkdir_p(out, 0755);
		if (!ret)
			ret = write_file_atomic(path, buf, len);
		if (ret)
			error_errno(ret, path, "writing");
	}
	free(buf);
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
