// SPDX-License-Identifier: MIT
/*
 * `iostrat compare A B [C...]`: configurations matched by config_id across
 * results directories, each run's median against the first's, with a
 * significance mark, and what differed between the runs (env.json and the
 * expanded profile).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/paired.h"
#include "results/stats_math.h"
#include "lib/util.h"
#include "report.h"

#define COMPARE_LEVEL 0.95
#define PER_RUN 6 /* X_median, X/A, p_X, sig_X, lo_X, hi_X */

static json_t *find_sum(const struct rrun *r, const char *id)
{
	json_t *s;
	size_t i;

	json_array_foreach(r->sum, i, s)
		if (!strcmp(json_string_value(json_object_get(s, "config_id")) ?: "", id))
			return s;
	return NULL;
}

/* p-value of run x against base for config id, and which test gave it;
 * into *ci the 95% interval of x over base (unpaired: runs share no
 * rounds), NAN bounds when the samples are too small for one. */
static double pvalue(const struct rrun *base, const struct rrun *x,
		     const char *id, const char **test, struct ratio_ci *ci)
{
	double *a, *b, p;
	size_t na = rrun_samples(base, id, &a), nb = rrun_samples(x, id, &b);

	p = two_sample_p(a, na, b, nb, test);
	unpaired_ratio_ci(a, na, b, nb, COMPARE_LEVEL, ci);
	free(a);
	free(b);
	return p;
}

static void ratios(const struct rrun *runs, size_t n, struct rdoc *d)
{
	const char *cols[PER_RUN * RUNS_MAX + 2] = { 0 };
	char names[PER_RUN * RUNS_MAX][32];
	size_t nc = 0, matched = 0, i;

	if (n > RUNS_MAX)
		n = RUNS_MAX;
	struct rtable *t;
	json_t *s;

	cols[nc++] = "config_id";
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
		for (int j = 0; j < PER_RUN; j++)
			cols[nc++] = names[PER_RUN * k + j];
	}
	t = rdoc_table(d, "configurations in A and another run: median metric, ratio to A", cols);
	json_array_foreach(runs[0].sum, i, s) {
		const char *id = json_string_value(json_object_get(s, "config_id"));
		double ma = json_is_number(json_object_get(s, "median")) ?
			    json_number_value(json_object_get(s, "median")) : NAN;
		json_t *row = json_array();
		bool any = false;

		if (!id)
			continue;
		json_array_append_new(row, json_text(id));
		json_array_append_new(row, rnum(ma));
		for (size_t k = 1; k < n; k++) {
			json_t *x = find_sum(&runs[k], id);
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
			p = pvalue(&runs[0], &runs[k], id, &test, &ci);
			json_array_append_new(row, rnum(mx));
			json_array_append_new(row, rnum(ma > 0 ? mx / ma : NAN));
			json_array_append_new(row, rnum(p));
			json_array_append_new(row, json_text(!isnan(p) && p < 0.05 ? "*" : ""));
			json_array_append_new(row, rnum(ci.lo));
			json_array_append_new(row, rnum(ci.hi));
		}
		if (any) {
			rtable_add(t, row);
			matched++;
		} else {
			json_decref(row);
		}
	}
	rtable_note(t, "X/A < 1: X is faster.  sig * = p < 0.05, two-sided: Mann-Whitney U "
		    "when both runs have >= %d repetitions of the configuration, else "
		    "Welch's t.  lo_X-hi_X: %.0f%% interval of X's times over A's "
		    "(Hodges-Lehmann on the log times, Mann-Whitney's interval; none "
		    "when the repetitions are too few).  %zu configurations matched.",
		    MW_MIN_N, 100 * COMPARE_LEVEL, matched);
}

static void spread_row(struct rtable *t, const struct rrun *runs, size_t n, size_t k,
		       const char *id, json_t *s, double base)
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
		p = pvalue(&runs[0], &runs[k], id, &test, &ci);
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
	json_array_append_new(row, json_text(!isnan(p) && p < 0.05 ? "*" : ""));
	json_array_append_new(row, json_text(k ? test : ""));
	json_array_append_new(row, rnum(ci.lo));
	json_array_append_new(row, rnum(ci.hi));
	rtable_add(t, row);
}

/*
 * The same comparison in long form, one row per configuration and run,
 * with the spread of each run: what `iostrat plot` draws as figure 6
 * (bars with error bars and the significance marks).  Only configurations
 * in A and at least one other run.
 */
static void spreads(const struct rrun *runs, size_t n, struct rdoc *d)
{
	static const char *const cols[] = { "config_id", "run", "label", "metric", "n",
		"median", "min", "max", "q1", "q3", "ratio", "p", "sig", "test", "ci_lo", "ci_hi",
		NULL };
	struct rtable *t = rdoc_table(d, COMPARE_SPREAD_TITLE, cols);
	json_t *s;
	size_t i;

	if (n > RUNS_MAX)
		n = RUNS_MAX;
	json_array_foreach(runs[0].sum, i, s) {
		const char *id = json_string_value(json_object_get(s, "config_id"));
		json_t *m = json_object_get(s, "median");
		double base = json_is_number(m) ? json_number_value(m) : NAN;
		json_t *x[RUNS_MAX] = { s };
		bool any = false;

		for (size_t k = 1; id && k < n; k++)
			any |= (x[k] = find_sum(&runs[k], id)) != NULL;
		for (size_t k = 0; any && k < n; k++)
			if (x[k])
				spread_row(t, runs, n, k, id, x[k], base);
	}
	rtable_note(t, "per run: median, min, max, quartiles of the metric over its "
		    "repetitions; ratio = median / A's median; sig * = p < 0.05 against A "
		    "(test: mann-whitney or welch, as above); ci_lo-ci_hi: the 95%% interval "
		    "of the run's times over A's, as above");
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
	ratios(runs, n, d);
	if (spread)
		spreads(runs, n, d);
	differences(runs, n, d);
	compare_fastest(runs, n, d);
}
