// SPDX-License-Identifier: MIT
/* The kernel view's spread: a probe column over a configuration's traced repetitions, and when it may be quoted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kspread.h"
#include "results/row.h"
#include "results/stats_math.h"
#include "trace/probe.h"

void kspread_from(double *v, size_t n, struct kspread *ks)
{
	struct summary s;

	ks->n = n;
	ks->med = ks->lo = ks->hi = NAN;
	if (!n)
		return;
	summarize(v, n, &s);
	ks->med = s.median;
	ks->lo = s.min;
	ks->hi = s.max;
}

/* A completed row of config id whose col is a number: it in *v. */
static bool figure_of(json_t *row, const char *id, const char *col, double *v)
{
	const char *cid = json_string_value(json_object_get(row, RC_CONFIG_ID));
	json_t *x = json_object_get(row, col), *e = json_object_get(row, "error");

	if (!cid || strcmp(cid, id) || !json_is_number(x) || (e && !json_is_null(e)))
		return false;
	*v = json_number_value(x);
	return true;
}

/* The traced rows' values, else (results from before the role) the
 * timed rows': the summary's own order, reversed for the probes. */
void kspread_of(json_t *rows, const char *id, const char *col, struct kspread *ks)
{
	size_t n = 0, i;
	double *v = calloc(json_array_size(rows) + 1, sizeof(*v));
	json_t *row;

	for (int traced = 1; v && traced >= 0 && !n; traced--)
		json_array_foreach(rows, i, row)
			if (!row_timed(row) == traced && figure_of(row, id, col, &v[n]))
				n++;
	kspread_from(v, n, ks);
	free(v);
}

/* The column's unit: the row's column table's, else the declaring
 * probe's (seq_pct_read is a probe's own), "" when unknown. */
static const char *unit_of(const char *col)
{
	struct column c;

	if (!column_find(col, &c))
		return c.unit ? c.unit : "";
	for (size_t k = 0; probe_registry[k]; k++)
		for (const struct column *p = probe_registry[k]->columns; p && p->name; p++)
			if (!strcmp(p->name, col))
				return p->unit ? p->unit : "";
	return "";
}

static bool steady(const char *col, const struct kspread *ks)
{
	const char *unit = unit_of(col);

	if (!strcmp(unit, "%"))
		return ks->hi - ks->lo <= KSPREAD_PCT_POINTS;
	if (!strcmp(unit, "ratio"))
		return ks->hi - ks->lo <= KSPREAD_PCT_POINTS / 100;
	return fmax(ks->hi - ks->med, ks->med - ks->lo) <=
	       fabs(ks->med) * KSPREAD_REL_PCT / 100;
}

enum kspread_say kspread_rule(const char *col, const struct kspread *ks)
{
	if (!ks->n)
		return KS_NONE;
	if (ks->n < KSPREAD_MIN_N)
		return KS_FEW;
	return steady(col, ks) ? KS_STEADY : KS_VARIES;
}

/* %g-like, at most 3 significant digits past the integer part. */
static const char *num(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.*f", fabs(v) >= 100 || v == floor(v) ? 0 :
		 fabs(v) >= 1 ? 1 : 3, v);
	return buf;
}

const char *kspread_cell(const char *col, const struct kspread *ks, char *buf, size_t len)
{
	char m[32], a[32], z[32];

	buf[0] = 0;
	if (!ks->n)
		return buf;
	num(ks->med, m, sizeof(m));
	if (ks->n == 1 || ks->lo == ks->hi)
		snprintf(buf, len, "%s", m);
	else
		snprintf(buf, len, "%s (%s-%s)%s", m, num(ks->lo, a, sizeof(a)),
			 num(ks->hi, z, sizeof(z)),
			 kspread_rule(col, ks) == KS_VARIES ? " varies" : "");
	return buf;
}
