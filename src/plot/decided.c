// SPDX-License-Identifier: MIT
/* The verdict as the figures see it: a "fastest" ring goes only on a winner the verdict decided. */
#include <string.h>

#include "plot.h"
#include "report/verdict.h"
#include "results/results.h"

json_t *plot_verdict_cells(struct plot_ctx *c)
{
	struct rrun r;

	if (c->verdict)
		return c->verdict;
	memset(&r, 0, sizeof(r));
	snprintf(r.dir, sizeof(r.dir), "%s", c->dir ? c->dir : "");
	r.rows = c->rows;
	r.sum = results_summarize(c->rows);
	r.env = json_object();
	c->verdict = verdict_cells(&r);
	json_decref(r.sum);
	json_decref(r.env);
	return c->verdict;
}

static bool same_number(json_t *a, json_t *b)
{
	return json_is_number(a) && json_is_number(b) &&
	       json_number_value(a) == json_number_value(b);
}

bool plot_decided(struct plot_ctx *c, const char *ds, const char *cache, json_t *w,
		  json_t *t, const char *strategy)
{
	json_t *x;
	size_t i;

	json_array_foreach(plot_verdict_cells(c), i, x) {
		const char *set = json_string_value(json_object_get(x, "settings")) ?: "";

		if (strcmp(json_string_value(json_object_get(x, RC_DATASET)) ?: "", ds ?: "") ||
		    (cache && strncmp(set, cache, strlen(cache))) ||
		    !same_number(json_object_get(x, RC_WORK), w) ||
		    (t && !same_number(json_object_get(x, RC_THREADS), t)))
			continue;
		if (!strcmp(json_string_value(json_object_get(x, "decision")) ?: "", "winner") &&
		    !strcmp(json_string_value(json_object_get(x, "fastest")) ?: "", strategy ?: ""))
			return true;
	}
	return false;
}
