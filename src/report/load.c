// SPDX-License-Identifier: MIT
/* Loading a results directory for report and compare: rows, summaries and samples. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"
#include "results/row.h"
#include "lib/util.h"
#include "report.h"

int rrun_load(const char *dir, struct rrun *r)
{
	char p[4200];
	size_t len;
	int ret;

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	ret = results_load(dir, &r->rows);
	if (ret)
		return ret;
	r->sum = results_summarize(r->rows);
	snprintf(p, sizeof(p), "%s/env.json", dir);
	r->env = json_load_file(p, 0, NULL);
	if (!json_is_object(r->env)) {
		json_decref(r->env);
		r->env = json_object();
	}
	snprintf(p, sizeof(p), "%s/profile.ini", dir);
	if (read_file_small(p, &r->profile, &len))
		r->profile = NULL;
	return 0;
}

void rrun_free(struct rrun *r)
{
	json_decref(r->rows);
	json_decref(r->sum);
	json_decref(r->env);
	free(r->profile);
	memset(r, 0, sizeof(*r));
}

size_t rrun_samples(const struct rrun *r, const char *id, double **out)
{
	size_t n = 0, i;
	json_t *row;

	*out = calloc(json_array_size(r->rows) + 1, sizeof(double));
	if (!*out)
		return 0;
	json_array_foreach(r->rows, i, row) {
		const char *cid = json_string_value(json_object_get(row, "config_id"));
		json_t *v = json_object_get(row, results_metric(row));

		if (cid && !strcmp(cid, id) && json_is_number(v) && row_timed(row) &&
		    json_is_null(json_object_get(row, "error")))
			(*out)[n++] = json_number_value(v);
	}
	return n;
}

const char *rrun_name(const struct rrun *r)
{
	const char *p = json_string_value(json_object_get(r->env, "profile"));
	json_t *first = json_array_get(r->rows, 0);

	if (p)
		return p;
	p = json_string_value(json_object_get(first, "bench"));
	return p ? p : "-";
}
