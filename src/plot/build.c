// SPDX-License-Identifier: MIT
/* The one build of every figure kind: its rows, an image per group of them, a data file each. */
#include <stdlib.h>
#include <string.h>

#include "plot.h"

/* The rows a figure draws in *rows (NULL with why set: none, skipped). */
static int select_rows(struct plot_ctx *c, const struct figure *fg, json_t **rows,
		       char *why, size_t len)
{
	const struct fig_kind *k = fg->kind;
	int ret = 0;

	*rows = NULL;
	if (!k->kind)
		*rows = json_incref(c->rows);
	else if (k->need)
		*rows = fig_rows(c, fg->name, k->kind, k->need, k->none, why, len, &ret);
	else if (!json_array_size(*rows = rows_of_kind(c->rows, k->kind))) {
		snprintf(why, len, "%s", k->none);
		json_decref(*rows);
		*rows = NULL;
	}
	if (!ret && *rows && k->select)
		ret = k->select(c, rows, why, len);
	return ret;
}

/* The values of the figure's group column i over all its rows, "dataset"
 * smallest first when asked. */
static json_t *values_of(const struct fig_kind *k, json_t *rows, int i)
{
	if (i == 0 && k->by_size)
		return datasets_by_size(rows);
	return rows_distinct(rows, k->by[i]);
}

/* Write and commit one image of the rows of group g. */
static int one_image(const struct figure *fg, struct fig_group *g)
{
	const struct fig_kind *k = fg->kind;
	char name[160], sn[96], title[400];
	struct dat d;
	size_t n, at;
	int ret = dat_begin(&d);

	if (ret)
		return ret;
	n = k->write(g, &d);
	if (k->title_of)
		k->title_of(g, title, sizeof(title));
	else
		snprintf(title, sizeof(title), k->title, g->name[0], g->name[1]);
	if (!k->by[0]) {
		char keep[256];

		snprintf(keep, sizeof(keep), "%s", k->empty ? k->empty : g->why);
		return dat_finish(g->c, &d, n, fg->name, title, g->why, g->len, "%s", keep);
	}
	at = (size_t)snprintf(name, sizeof(name), "%s", fg->name);
	for (int i = 0; i < 2 && k->by[i]; i++)
		if (i == 0 || g->split) {
			safe_name(sn, sizeof(sn), g->name[i]);
			at += (size_t)snprintf(name + at, at < sizeof(name) ? sizeof(name) - at : 0,
					       "-%s", sn);
		}
	return dat_commit(g->c, &d, fg->name, name, title);
}

/* The images of rows grouped by the columns k->by[i..]; g holds the outer groups. */
static int images(const struct figure *fg, struct fig_group *g, json_t *rows, int i)
{
	const struct fig_kind *k = fg->kind;
	json_t *vals, *v;
	char buf[96];
	size_t j;
	int ret = 0;

	if (i == 2 || !k->by[i]) {
		g->rows = rows;
		return k->want && !k->want(rows) ? 0 : one_image(fg, g);
	}
	vals = values_of(k, g->all, i);
	if (i == 1)
		g->split = json_array_size(vals) > 1;
	json_array_foreach(vals, j, v) {
		json_t *r = rows_where(rows, k->by[i], v);

		snprintf(g->name[i], sizeof(g->name[i]), "%s",
			 val_text(v, buf, sizeof(buf))[0] ? buf : k->unnamed[i]);
		if (!ret && json_array_size(r))
			ret = images(fg, g, r, i + 1);
		json_decref(r);
	}
	json_decref(vals);
	return ret;
}

int fig_build(struct plot_ctx *c, const struct figure *fg, char *why, size_t len)
{
	struct fig_group g = { .c = c, .why = why, .len = len };
	json_t *rows;
	int ret;

	if (fg->kind->build)
		return fg->kind->build(c, why, len);
	ret = select_rows(c, fg, &rows, why, len);
	g.all = rows;
	if (!ret && rows)
		ret = images(fg, &g, rows, 0);
	json_decref(rows);
	return ret;
}
