// SPDX-License-Identifier: MIT
/*
 * `iostrat compare A B [C...]`: configurations matched by config_id across
 * results directories, each run's median against the first's, with a
 * significance mark, and what differed between the runs (env.json and the
 * expanded profile).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/column.h"
#include "results/paired.h"
#include "results/stats_math.h"
#include "lib/util.h"
#include "report.h"

#define COMPARE_LEVEL 0.95
#define PER_RUN 7 /* X_median, X/A, p_X, sig_X, lo_X, hi_X, ph_X */

static json_t *find_sum(const struct rrun *r, const char *id)
{
	json_t *s;
	size_t i;

	json_array_foreach(r->sum, i, s)
		if (!strcmp(json_string_value(json_object_get(s, RC_CONFIG_ID)) ?: "", id))
			return s;
	return NULL;
}

/* p-value of run x against base for config id, and which test gave it;
 * into *ci the 95% interval of x over base (unpaired: runs share no
 * rounds), NAN bounds when the samples are too small for one. */
static double pvalue(const struct rrun *base, const struct rrun *x,
		     const char *id, const char **test, struct ratio_ci *ci, double level)
{
	double *a, *b, p;
	size_t na = rrun_samples(base, id, &a), nb = rrun_samples(x, id, &b);

	p = two_sample_p(a, na, b, nb, test);
	unpaired_ratio_ci(a, na, b, nb, level, ci);
	free(a);
	free(b);
	return p;
}

/* Run k's mark for config id: [p_holm, lo, hi] at Holm's level. */
static void holm_mark(const struct rrun *runs, size_t k, const char *id, double p_holm,
		      double level, json_t *marks)
{
	struct ratio_ci ci;
	const char *test;
	char *key;

	pvalue(&runs[0], &runs[k], id, &test, &ci, level);
	if (asprintf(&key, "%c\x1f%s", (char)('A' + k), id) < 0)
		abort();
	json_object_set_new(marks, key, json_pack("[o,o,o]", rnum(p_holm), rnum(ci.lo),
						   rnum(ci.hi)));
	free(key);
}

/*
 * The verdict's multiplicity control for each run X against A: Holm over
 * the m configurations in both.  sig = Holm-adjusted p < 1 - level, and
 * the interval of the configuration of p-rank j at Holm's level for that
 * rank (1 - alpha / (m - j)), as the verdict's.  Into marks, per
 * "X\x1fconfig_id": [p_holm, lo, hi].
 */
static void holm_run(const struct rrun *runs, size_t k, json_t *marks)
{
	json_t *ids = json_array(), *s;
	size_t m, i, *ix;
	double *p, *adj;

	json_array_foreach(runs[0].sum, i, s) {
		const char *id = json_string_value(json_object_get(s, RC_CONFIG_ID));

		if (id && find_sum(&runs[k], id))
			json_array_append_new(ids, json_text(id));
	}
	m = json_array_size(ids);
	p = calloc(m + 1, sizeof(*p));
	adj = calloc(m + 1, sizeof(*adj));
	ix = calloc(m + 1, sizeof(*ix));
	if (!p || !adj || !ix)
		abort();
	for (i = 0; i < m; i++) {
		struct ratio_ci ci;
		const char *test;

		p[i] = pvalue(&runs[0], &runs[k], json_string_value(json_array_get(ids, i)),
			      &test, &ci, COMPARE_LEVEL);
	}
	holm_adjust(p, m, adj);
	holm_order(p, m, ix);
	for (size_t j = 0; j < m; j++)
		holm_mark(runs, k, json_string_value(json_array_get(ids, ix[j])), adj[ix[j]],
			  holm_level(COMPARE_LEVEL, m, j), marks);
	free(p);
	free(adj);
	free(ix);
	json_decref(ids);
}

static json_t *holm_marks(const struct rrun *runs, size_t n)
{
	json_t *marks = json_object();

	for (size_t k = 1; k < n && k < RUNS_MAX; k++)
		holm_run(runs, k, marks);
	return marks;
}

/* The mark of run k for config id: [p_holm, lo, hi], or NULL. */
static json_t *mark_of(json_t *marks, size_t k, const char *id)
{
	char *key;
	json_t *m;

	if (asprintf(&key, "%c\x1f%s", (char)('A' + k), id) < 0)
		abort();
	m = json_object_get(marks, key);
	free(key);
	return m;
}

static double mark_at(json_t *m, size_t i)
{
	json_t *v = json_array_get(m, i);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static bool mark_sig(json_t *m)
{
	return mark_at(m, 0) < 1 - COMPARE_LEVEL;
}

static void ratios(const struct rrun *runs, size_t n, struct rdoc *d, json_t *marks)
{
	const char *cols[PER_RUN * RUNS_MAX + 2] = { 0 };
	char names[PER_RUN * RUNS_MAX][32];
	size_t nc = 0, matched = 0, i;

	if (n > RUNS_MAX)
		n = RUNS_MAX;
	struct rtable *t;
	json_t *s;

	cols[nc++] = RC_CONFIG_ID;
	snprintf(names[0], 32, "A_median");
	cols[nc++] = names[0];
	for (size_t k = 1; k < n; k++) {
		char c = (char)('A' + k);

		snprintf(names[PER_RUN * k], 32, "%c_median", c);
		snprintf(names[PER_RUN * k + 1], 32, "%c/A", c);
		snprintf(names[PER_RUN * k + 2], 32, "p_%c", c);
		snprintf(names[PER_RUN * k + 3], 32, "sig_%c", c);
		snprintf(names[PER_RUN * k + 4], 32, "lo_%c", c);
		snprintf(names[PER_RUN * k + 5], 32, "hi_%c", c);
		snprintf(names[PER_RUN * k + 6], 32, "ph_%c", c);
		for (int j = 0; j < PER_RUN; j++)
			cols[nc++] = names[PER_RUN * k + j];
	}
	t = rdoc_table(d, "configurations in A and another run: median metric, ratio to A", cols);
	json_array_foreach(runs[0].sum, i, s) {
		const char *id = json_string_value(json_object_get(s, RC_CONFIG_ID));
		double ma = json_is_number(json_object_get(s, "median")) ?
			    json_number_value(json_object_get(s, "median")) : NAN;
		json_t *row = json_array();
		bool any = false;

		if (!id)
			continue;
		json_array_append_new(row, json_text(id));
		json_array_append_new(row, rnum(ma));
		for (size_t k = 1; k < n; k++) {
			json_t *x = find_sum(&runs[k], id), *mk = mark_of(marks, k, id);
			const char *test;
			struct ratio_ci ci;
			double mx, p;

			if (!x) {
				for (int j = 0; j < PER_RUN; j++)
					json_array_append_new(row, json_null());
				continue;
			}
			any = true;
			mx = json_is_number(json_object_get(x, "median")) ?
			     json_number_value(json_object_get(x, "median")) : NAN;
			p = pvalue(&runs[0], &runs[k], id, &test, &ci, COMPARE_LEVEL);
			json_array_append_new(row, rnum(mx));
			json_array_append_new(row, rnum(ma > 0 ? mx / ma : NAN));
			json_array_append_new(row, rnum(p));
			json_array_append_new(row, json_text(mark_sig(mk) ? "*" : ""));
			json_array_append_new(row, rnum(mark_at(mk, 1)));
			json_array_append_new(row, rnum(mark_at(mk, 2)));
			json_array_append_new(row, rnum(mark_at(mk, 0)));
		}
		if (any) {
			rtable_add(t, row);
			matched++;
		} else {
			json_decref(row);
		}
	}
	rtable_note(t, "X/A < 1: X is faster.  p_X: two-sided, Mann-Whitney U when both runs "
		    "have >= %d repetitions of the configuration, else Welch's t; ph_X: "
		    "Holm-adjusted over the %zu configurations matched (the verdict's "
		    "correction for many comparisons); sig * = ph_X < %.2f.  lo_X-hi_X: "
		    "interval of X's times over A's at Holm's level for its rank (%.0f%% "
		    "for one configuration; Hodges-Lehmann on the log times, "
		    "Mann-Whitney's interval; none when the repetitions are too few).",
		    MW_MIN_N, matched, 1 - COMPARE_LEVEL, 100 * COMPARE_LEVEL);
}

static void spread_row(struct rtable *t, const struct rrun *runs, size_t n, size_t k,
		       const char *id, json_t *s, double base, json_t *marks)
{
	json_t *row = json_array();
	char run[2] = { (char)('A' + k), 0 }, label[256];
	double *v, p = NAN, med;
	struct ratio_ci ci = { 0, NAN, NAN, NAN, NAN };
	struct summary st;
	const char *test = "";
	size_t nv = rrun_samples(&runs[k], id, &v);

	summarize(v, nv, &st);
	free(v);
	if (k)
		p = pvalue(&runs[0], &runs[k], id, &test, &ci, COMPARE_LEVEL);
	med = nv ? st.median : NAN;
	compare_label(runs, n, k, label, sizeof(label));
	json_array_append_new(row, json_text(id));
	json_array_append_new(row, json_text(run));
	json_array_append_new(row, json_text(label));
	json_array_append(row, json_object_get(s, "metric") ?: json_null());
	json_array_append_new(row, json_integer((json_int_t)nv));
	json_array_append_new(row, rnum(med));
	json_array_append_new(row, rnum(nv ? st.min : NAN));
	json_array_append_new(row, rnum(nv ? st.max : NAN));
	json_array_append_new(row, rnum(nv ? st.q1 : NAN));
	json_array_append_new(row, rnum(nv ? st.q3 : NAN));
	json_array_append_new(row, rnum(base > 0 ? med / base : NAN));
	json_array_append_new(row, rnum(p));
	json_array_append_new(row, json_text(k && mark_sig(mark_of(marks, k, id)) ? "*" : ""));
	json_array_append_new(row, json_text(k ? test : ""));
	json_array_append_new(row, rnum(k ? mark_at(mark_of(marks, k, id), 1) : ci.lo));
	json_array_append_new(row, rnum(k ? mark_at(mark_of(marks, k, id), 2) : ci.hi));
	rtable_add(t, row);
}

/*
 * The same comparison in long form, one row per configuration and run,
 * with the spread of each run: what `iostrat plot` draws as figure 6
 * (bars with error bars and the significance marks).  Only configurations
 * in A and at least one other run.
 */
static void spreads(const struct rrun *runs, size_t n, struct rdoc *d, json_t *marks)
{
	static const char *const cols[] = { RC_CONFIG_ID, "run", "label", "metric", "n",
		"median", "min", "max", "q1", "q3", "ratio", "p", "sig", "test", "ci_lo", "ci_hi",
		NULL };
	struct rtable *t = rdoc_table(d, COMPARE_SPREAD_TITLE, cols);
	json_t *s;
	size_t i;

	if (n > RUNS_MAX)
		n = RUNS_MAX;
	json_array_foreach(runs[0].sum, i, s) {
		const char *id = json_string_value(json_object_get(s, RC_CONFIG_ID));
		json_t *m = json_object_get(s, "median");
		double base = json_is_number(m) ? json_number_value(m) : NAN;
		json_t *x[RUNS_MAX] = { s };
		bool any = false;

		for (size_t k = 1; id && k < n; k++)
			any |= (x[k] = find_sum(&runs[k], id)) != NULL;
		for (size_t k = 0; any && k < n; k++)
			if (x[k])
				spread_row(t, runs, n, k, id, x[k], base, marks);
	}
	rtable_note(t, "per run: median, min, max, quartiles of the metric over its "
		    "repetitions; ratio = median / A's median; sig * = Holm-adjusted p < 0.05 "
		    "against A (test: mann-whitney or welch, Holm over the configurations, as "
		    "above); ci_lo-ci_hi: the interval of the run's times over A's at Holm's "
		    "level, as above");
}

/* Flatten env.json: nested objects become "in.scheduler" keys. */
static void flatten(json_t *o, const char *prefix, json_t *out)
{
	const char *k;
	json_t *v;

	json_object_foreach(o, k, v) {
		char key[256];

		snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", k);
		if (json_is_object(v))
			flatten(v, key, out);
		else
			json_object_set(out, key, v);
	}
}

static json_t *profile_lines(const char *text)
{
	json_t *set = json_object();
	char *dup = strdup(text ? text : ""), *save = NULL;

	for (char *l = strtok_r(dup, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (*l && *l != ';' && *l != '#' && *l != '[' && strchr(l, '='))
			json_object_set_new(set, l, json_true());
	free(dup);
	return set;
}

static json_t *cell(json_t *v)
{
	char *s;
	json_t *o;

	if (!v)
		return json_text("(absent)");
	if (json_is_string(v) || json_is_number(v))
		return json_incref(v);
	s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	o = json_text(s ? s : "?");
	free(s);
	return o;
}

static void differences(const struct rrun *runs, size_t n, struct rdoc *d)
{
	const char *cols[RUNS_MAX + 2] = { 0 };
	char names[RUNS_MAX][8];
	json_t **flat = calloc(n + 1, sizeof(json_t *)), **prof = calloc(n + 1, sizeof(json_t *));
	const char *k;
	struct rtable *t;
	json_t *v;
	char keys[1024] = "";
	size_t nk = 0, o = 0;

	cols[0] = "what";
	if (n > RUNS_MAX)
		n = RUNS_MAX;
	for (size_t i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "%c", (char)('A' + i));
		cols[i + 1] = names[i];
		flat[i] = json_object();
		flatten(runs[i].env, "", flat[i]);
		prof[i] = profile_lines(runs[i].profile);
	}
	t = rdoc_table(d, "what differed between the runs (env.json, profile)", cols);
	for (size_t i = 0; i < n; i++)
		json_object_foreach(flat[i], k, v) {
			bool differs = false, seen = false;
			json_t *row;

			if (!strcmp(k, "captured_at"))
				continue;
			for (size_t j = 0; j < i; j++)
				seen |= json_object_get(flat[j], k) != NULL;
			for (size_t j = 0; j < n; j++)
				differs |= !json_equal(json_object_get(flat[j], k), v);
			if (seen || !differs)
				continue;
			row = json_array();
			json_array_append_new(row, json_text(k));
			for (size_t j = 0; j < n; j++)
				json_array_append_new(row, cell(json_object_get(flat[j], k)));
			rtable_add(t, row);
			if (o < sizeof(keys))
				o += (size_t)snprintf(keys + o, sizeof(keys) - o, "%s%s",
						      nk ? ", " : "", k);
			nk++;
		}
	for (size_t i = 0; i < n; i++) {
		void *tmp;

		/* _safe: the key is deleted from prof[i] too (said once) */
		json_object_foreach_safe(prof[i], tmp, k, v) {
			bool everywhere = true;
			json_t *row;

			for (size_t j = 0; j < n; j++)
				everywhere &= json_object_get(prof[j], k) != NULL;
			if (everywhere)
				continue;
			row = json_array();
			json_array_append_new(row, json_text("profile line"));
			for (size_t j = 0; j < n; j++)
				json_array_append_new(row, json_text(
					json_object_get(prof[j], k) ? k : ""));
			rtable_add(t, row);
			for (size_t j = 0; j < n; j++) /* say each line once */
				if (j != i)
					json_object_del(prof[j], k);
			json_object_del(prof[i], k); /* last: k belongs to it */
		}
	}
	/* one line naming them all: across machines the table is long */
	rtable_note(t, "%s differ in: %s", rrun_hosts_differ(runs, n) ? "the machines" : "the runs",
		    nk ? keys : "nothing in env.json");
	for (size_t i = 0; i < n; i++) {
		json_decref(flat[i]);
		json_decref(prof[i]);
	}
	free(flat);
	free(prof);
}

void compare_build(const struct rrun *runs, size_t n, struct rdoc *d, bool spread)
{
	for (size_t i = 0; i < n; i++) {
		char key[8];

		snprintf(key, sizeof(key), "%c", (char)('A' + i));
		rdoc_meta(d, key, "%s (host %s, bench %s, %zu repetitions, %zu configurations)",
			  runs[i].dir, *rrun_host(&runs[i]) ? rrun_host(&runs[i]) : "-",
			  rrun_name(&runs[i]), json_array_size(runs[i].rows),
			  json_array_size(runs[i].sum));
	}
	json_t *marks = holm_marks(runs, n);

	ratios(runs, n, d, marks);
	if (spread)
		spreads(runs, n, d, marks);
	json_decref(marks);
	differences(runs, n, d);
	compare_fastest(runs, n, d);
}
