// SPDX-License-Identifier: MIT
/* Selecting and summarizing result rows for the figures (by kind, by column, distinct values). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "results/row.h"
#include "plot.h"

json_t *rows_of_kind(json_t *rows, const char *kind)
{
	json_t *out = json_array(), *r;
	size_t i;

	json_array_foreach(rows, i, r) {
		const char *k = json_string_value(json_object_get(r, "kind"));
		json_t *err = json_object_get(r, "error");

		if (err && !json_is_null(err))
			continue;
		if (k ? !strcmp(k, kind) : !strcmp(kind, "run"))
			json_array_append(out, r);
	}
	return out;
}

static bool same(json_t *a, json_t *b)
{
	bool an = !a || json_is_null(a), bn = !b || json_is_null(b);

	if (an || bn)
		return an && bn;
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	return json_equal(a, b);
}

json_t *rows_where(json_t *rows, const char *col, json_t *v)
{
	json_t *out = json_array(), *r;
	size_t i;

	json_array_foreach(rows, i, r)
		if (same(json_object_get(r, col), v))
			json_array_append(out, r);
	return out;
}

static int cmp_num(const void *a, const void *b)
{
	double x = json_number_value(*(json_t *const *)a);
	double y = json_number_value(*(json_t *const *)b);

	return (x > y) - (x < y);
}

json_t *rows_distinct(json_t *rows, const char *col)
{
	json_t *out = json_array(), *r, *u;
	size_t i, j, n;
	bool all_num = true;

	json_array_foreach(rows, i, r) {
		json_t *v = json_object_get(r, col);
		bool seen = false;

		if (!v)
			v = json_null();
		json_array_foreach(out, j, u)
			if (same(u, v))
				seen = true;
		if (seen)
			continue;
		json_array_append(out, v);
		all_num &= json_is_number(v);
	}
	n = json_array_size(out);
	if (all_num && n > 1) {
		json_t **tmp = calloc(n, sizeof(*tmp));

		if (!tmp)
			return out;
		for (i = 0; i < n; i++)
			tmp[i] = json_incref(json_array_get(out, i));
		qsort(tmp, n, sizeof(*tmp), cmp_num);
		json_array_clear(out);
		for (i = 0; i < n; i++)
			json_array_append_new(out, tmp[i]);
		free(tmp);
	}
	return out;
}

json_t *rows_cell(json_t *rows, json_t *w, json_t *t, json_t *s)
{
	json_t *a = rows_where(rows, RC_WORK, w), *b = rows_where(a, RC_THREADS, t);
	json_t *c = rows_where(b, RC_STRATEGY, s);

	json_decref(a);
	json_decref(b);
	return c;
}

void plot_axes(json_t *rows, struct plot_axes *a)
{
	a->works = rows_distinct(rows, RC_WORK);
	a->threads = rows_distinct(rows, RC_THREADS);
	a->strats = rows_distinct(rows, RC_STRATEGY);
}

void plot_axes_free(struct plot_axes *a)
{
	json_decref(a->works);
	json_decref(a->threads);
	json_decref(a->strats);
}

static bool has_key(json_t *r, const void *col)
{
	return json_object_get(r, col);
}

static bool has_number(json_t *r, const void *col)
{
	return json_is_number(json_object_get(r, col));
}

bool rows_have_key(json_t *rows, const char *col)
{
	return rows_any(rows, has_key, col);
}

bool rows_have_number(json_t *rows, const char *col)
{
	return rows_any(rows, has_number, col);
}

/* The number a row gives for col (NULL: its CPU time, cpu_s or else
 * user_s + sys_s); false when it has none. */
static bool row_value(json_t *r, const char *col, double *v)
{
	json_t *c = json_object_get(r, col ? col : "cpu_s");
	json_t *u = json_object_get(r, RC_USER), *y = json_object_get(r, RC_SYS);

	if (json_is_number(c))
		*v = json_number_value(c);
	else if (!col && json_is_number(u) && json_is_number(y))
		*v = json_number_value(u) + json_number_value(y);
	else
		return false;
	return true;
}

/* The timed rows' figures; where no timed row has one (the probes'
 * columns), the traced rows'. */
void rows_stat(json_t *rows, const char *col, double scale, struct summary *s)
{
	size_t n = json_array_size(rows), ok = 0, i;
	double *v = calloc(n ? n : 1, sizeof(double));
	json_t *r;

	memset(s, 0, sizeof(*s));
	if (!v)
		return;
	for (int timed = 1; timed >= 0 && !ok; timed--)
		json_array_foreach(rows, i, r)
			if (row_timed(r) == timed && row_value(r, col, &v[ok]))
				v[ok++] *= scale;
	summarize(v, ok, s);
	s->n = ok;
	free(v);
}

void rows_stat_cpu(json_t *rows, struct summary *s)
{
	rows_stat(rows, NULL, 1, s);
}

int rows_need(const struct plot_ctx *c, const char *fig, json_t *rows,
	      const char *const cols[])
{
	for (size_t i = 0; cols[i]; i++) {
		if (rows_have_key(rows, cols[i]))
			continue;
		errorf("plot %s: %s/results.jsonl has no column '%s'; figure not drawn",
		       fig, c->dir, cols[i]);
		return -ENODATA;
	}
	return 0;
}

json_t *fig_rows(struct plot_ctx *c, const char *fig, const char *kind,
		 const char *const need[], const char *none, char *why, size_t len,
		 int *ret)
{
	json_t *rows = rows_of_kind(c->rows, kind);

	*ret = 0;
	if (!json_array_size(rows))
		snprintf(why, len, "%s", none);
	else if (!(*ret = rows_need(c, fig, rows, need)))
		return rows;
	json_decref(rows);
	return NULL;
}

const char *val_text(json_t *v, char *buf, size_t len)
{
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", bool_word(json_is_true(v)));
	else
		snprintf(buf, len, "%s", "");
	return buf;
}
