// SPDX-License-Identifier: MIT
/*
 * Clustered bars, the shape of most figures: one line per cluster (a value
 * of k1, or of k1 and k2), three columns per series (median, min, max of
 * the metric over the rows of that cell):
 *   "cluster" S1 C1 max S2 C2 max ...     (Cn: colour index of series n)
 *   "big t2"  12.5 12.1 13 ...
 */
#include <stdlib.h>
#include <string.h>

#include "plot.h"

static int cmp_size(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

json_t *datasets_by_size(json_t *rows)
{
	json_t *ds = rows_distinct(rows, RC_DATASET), *out = json_array();
	size_t n = json_array_size(ds), i;
	double (*key)[2] = calloc(n ? n : 1, sizeof(*key));

	if (!key)
		return ds;
	for (i = 0; i < n; i++) {
		json_t *r = rows_where(rows, RC_DATASET, json_array_get(ds, i));
		struct summary s;

		rows_stat(r, RC_BYTES_IN, 1, &s);
		key[i][0] = s.n ? s.median : 0;
		key[i][1] = (double)i;
		json_decref(r);
	}
	qsort(key, n, sizeof(*key), cmp_size);
	for (i = 0; i < n; i++)
		json_array_append(out, json_array_get(ds, (size_t)key[i][1]));
	json_decref(ds);
	free(key);
	return out;
}

/* Series with no value of the metric are left out (an all-NaN column
 * makes gnuplot warn); the min column's header carries each series'
 * colour index, so a series keeps its colour across blocks. */
static json_t *series_with_data(json_t *rows, const char *skey, const char *metric,
				json_t *all)
{
	json_t *out = json_array(), *s;
	size_t j;

	json_array_foreach(all, j, s) {
		json_t *r = rows_where(rows, skey, s);

		if (rows_have_number(r, metric))
			json_array_append_new(out, json_integer((json_int_t)j));
		json_decref(r);
	}
	return out;
}

static void header(struct dat *d, json_t *all, json_t *idx, const char *sfmt,
		   bool strategies)
{
	json_t *x;
	size_t j;
	char b[96], l[160];

	dat_label(d, "cluster");
	json_array_foreach(idx, j, x) {
		size_t k = (size_t)json_integer_value(x);

		val_text(json_array_get(all, k), b, sizeof(b));
		snprintf(l, sizeof(l), sfmt ? sfmt : "%s", b[0] ? b : "-");
		fputc(' ', d->f);
		dat_label(d, l);
		/* strategies: their own colour (palette.gp), the same everywhere */
		fprintf(d->f, " %d max", strategies && plot_colour(b) ? plot_colour(b) :
			(int)(k % PLOT_COLOURS) + 1);
	}
	fputc('\n', d->f);
}

static void line(struct dat *d, json_t *rows, const char *label, const char *skey,
		 json_t *series, json_t *idx, const char *metric, double scale)
{
	json_t *x;
	size_t j;

	dat_label(d, label);
	json_array_foreach(idx, j, x) {
		json_t *s = json_array_get(series, (size_t)json_integer_value(x));
		json_t *r = rows_where(rows, skey, s);
		struct summary st;

		rows_stat(r, metric, scale, &st);
		dat_num(d, st.median, st.n);
		dat_num(d, st.min, st.n);
		dat_num(d, st.max, st.n);
		json_decref(r);
	}
	fputc('\n', d->f);
}

size_t bars_block(struct dat *d, json_t *rows, json_t *v1, const char *k1,
		  const char *k2, const char *k2_prefix, const char *skey,
		  const char *sfmt, const char *metric, double scale)
{
	json_t *series = rows_distinct(rows, skey), *a, *v2s, *x;
	json_t *idx = series_with_data(rows, skey, metric, series);
	size_t i, j, n = 0;

	header(d, series, idx, sfmt, !strcmp(skey, RC_STRATEGY));
	json_array_foreach(v1, i, x) {
		char l1[96], l2[96], lab[200];

		a = rows_where(rows, k1, x);
		val_text(x, l1, sizeof(l1));
		if (!k2) {
			if (json_array_size(a) && rows_have_number(a, metric)) {
				line(d, a, l1, skey, series, idx, metric, scale);
				n++;
			}
			json_decref(a);
			continue;
		}
		v2s = rows_distinct(a, k2);
		json_array_foreach(v2s, j, x) {
			json_t *b = rows_where(a, k2, x);

			snprintf(lab, sizeof(lab), "%s %s%s", l1, k2_prefix,
				 val_text(x, l2, sizeof(l2)));
			if (json_array_size(b) && rows_have_number(b, metric)) {
				line(d, b, lab, skey, series, idx, metric, scale);
				n++;
			}
			json_decref(b);
		}
		json_decref(v2s);
		json_decref(a);
	}
	json_decref(series);
	json_decref(idx);
	return n;
}
