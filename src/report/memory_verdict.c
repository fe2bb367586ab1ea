// SPDX-License-Identifier: MIT
/* The memory verdict: which strategies run within each memory_max, the killed ones and where. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory_verdict.h"
#include "fields.h"
#include "config/jobopts.h"
#include "core/strategy.h"
#include "results/row.h"
#include "results/stats_math.h"
#include "lib/text.h"
#include "table.h"

#define MIB (1024.0 * 1024.0)

static double num(json_t *row, const char *k)
{
	json_t *v = json_object_get(row, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(json_t *row, const char *k)
{
	const char *s = json_string_value(json_object_get(row, k));

	return s ? s : "";
}

const char *memory_killed_text(const char *strategy, double limit, double peak,
			       unsigned killed, unsigned reps, char *buf, size_t len)
{
	char of[48] = "", at[48] = ", peak unknown", lb[32];

	if (killed < reps)
		snprintf(of, sizeof(of), " in %u of %u repetitions", killed, reps);
	if (!isnan(peak))
		snprintf(at, sizeof(at), " at %.0f MiB", peak / MIB);
	snprintf(buf, len, "%s cannot run in %s with these files (killed%s%s)",
		 strategy, fmt_limit((unsigned long long)limit, lb, sizeof(lb)), at, of);
	return buf;
}

/* What a configuration is apart from its limit: data set, strategy, W,
 * threads and the other run settings, from the row's columns. */
static void twin_key(json_t *row, char *key, size_t len)
{
	static const char *const apart[] = { "memory_max", NULL };
	char set[400];

	snprintf(key, len, "%s|%s|%.0f|%.0f|%s", str(row, RC_DATASET), str(row, RC_STRATEGY),
		 num(row, RC_WORK), num(row, RC_THREADS),
		 run_settings_text_except(row, apart, set, sizeof(set)));
}

static bool unlimited(json_t *row)
{
	return !(num(row, "memory_max") > 0);
}

/* Median elapsed of the timed rows without an error of the configuration
 * id, or (id NULL) of the unlimited configuration whose twin_key is key:
 * NAN if none, or if two unlimited configurations share the key (a
 * strategy's own options tell them apart: no one twin). */
static double median_of(json_t *rows, const char *id, const char *key)
{
	size_t i, n = 0;
	double *v = calloc(json_array_size(rows) + 1, sizeof(double));
	const char *twin = NULL;
	char k[600];
	struct summary sm;
	json_t *row;

	if (!v)
		return NAN;
	json_array_foreach(rows, i, row) {
		if (!row_timed(row) || !json_is_null(json_object_get(row, "error")))
			continue;
		if (id && strcmp(str(row, RC_CONFIG_ID), id))
			continue;
		if (!id) {
			twin_key(row, k, sizeof(k));
			if (!unlimited(row) || strcmp(k, key))
				continue;
			if (twin && strcmp(twin, str(row, RC_CONFIG_ID))) {
				n = 0; /* two twins: none */
				break;
			}
			twin = str(row, RC_CONFIG_ID);
		}
		v[n++] = num(row, RC_ELAPSED);
	}
	summarize(v, n, &sm);
	free(v);
	return n ? sm.median : NAN;
}

/* A repetition the verdict counts: a timed one of a limited
 * configuration, killed by the limit or completed (a traced one, or one
 * failed otherwise, tells nothing of the limit). */
static bool counted(json_t *row)
{
	return !strcmp(str(row, "kind"), "run") && num(row, "memory_max") > 0 &&
	       row_timed(row) && (json_is_true(json_object_get(row, "oom_kill")) ||
				  json_is_null(json_object_get(row, "error")));
}

/* The memory the row's strategy allocates whatever the data, from the
 * row's threads, chunk and qd (strategy.pool_bytes); 0 if none. */
static double pool_of(json_t *row)
{
	const struct strategy *s = strategy_find(str(row, RC_STRATEGY));
	struct job job = { 0 };
	double t = num(row, RC_THREADS), ch = num(row, "chunk"), qd = num(row, "qd");

	if (!s || !s->pool_bytes)
		return 0;
	job.threads = t >= 1 && t <= 1024 ? (unsigned)t : 1;
	job.chunk = ch >= 1 && ch <= 1073741824.0 ? (size_t)ch : 0;
	job.qd = qd >= 1 && qd <= 4096 ? (unsigned)qd : 0;
	return (double)s->pool_bytes(&job);
}

/* The mean file of a row that ran through: its bytes_in over its files
 * (a data set's files are one size; else the largest is at least this);
 * 0 if not known. */
static double file_of(json_t *row)
{
	double files = num(row, "files");

	return files >= 1 && num(row, RC_BYTES_IN) > 0 ? num(row, RC_BYTES_IN) / files : 0;
}

/* One limited configuration: its key in cells, and the figures it adds. */
static void tally(json_t *cells, json_t *row)
{
	const char *id = str(row, RC_CONFIG_ID);
	json_t *c = json_object_get(cells, id);
	bool killed = json_is_true(json_object_get(row, "oom_kill")), sampled;
	double at;

	if (!c) {
		char twin[600];

		twin_key(row, twin, sizeof(twin));
		c = json_pack("{s:s, s:s, s:s, s:s, s:f, s:i, s:i, s:n, s:f, s:f, s:f, "
			      "s:O?, s:O?, s:O}",
			      RC_CONFIG_ID, id, "twin", twin, RC_STRATEGY, str(row, RC_STRATEGY),
			      RC_DATASET, str(row, RC_DATASET), "limit", num(row, "memory_max"),
			      "reps", 0, "killed", 0, "killed_at", "data", 0.0, "file", 0.0,
			      "pool", pool_of(row),
			      RC_WORK, json_object_get(row, RC_WORK),
			      RC_THREADS, json_object_get(row, RC_THREADS), "row", row);
		json_object_set_new(cells, id, c);
	}
	json_object_set_new(c, "reps", json_integer(json_integer_value(
				    json_object_get(c, "reps")) + 1));
	if (killed) {
		json_object_set_new(c, "killed", json_integer(json_integer_value(
					    json_object_get(c, "killed")) + 1));
		at = fmax(num(c, "killed_at"), row_mem_peak(row, &sampled));
		if (!isnan(at)) /* null until a killed row's peak is known */
			json_object_set_new(c, "killed_at", json_real(at));
	} else if (num(row, RC_BYTES_IN) > 0) {
		json_object_set_new(c, "data", json_real(num(row, RC_BYTES_IN)));
		json_object_set_new(c, "file", json_real(file_of(row)));
	}
}

/* "big W=0 t1: " before a configuration's sentence (no W or t: left out),
 * "big W=0 t1 dontcache: " with c's "apart" (the settings that vary). */
static int where_of(json_t *c, char *buf, size_t len)
{
	double w = num(c, RC_WORK), t = num(c, RC_THREADS);
	char ws[32] = "", ts[32] = "";
	const char *apart = str(c, "apart");

	if (!isnan(w))
		snprintf(ws, sizeof(ws), " W=%.0f", w);
	if (!isnan(t))
		snprintf(ts, sizeof(ts), " t%.0f", t);
	return snprintf(buf, len, "%s%s%s%s%s: ", str(c, RC_DATASET), ws, ts,
			*apart ? " " : "", apart);
}

/* Is setting s's column the same in every cell's first row? */
static bool same_in_all(const struct setting *s, json_t *cells)
{
	json_t *first = json_object_get(json_array_get(cells, 0), "row"), *c;
	size_t i;

	json_array_foreach(cells, i, c)
		if (!json_equal(json_object_get(json_object_get(c, "row"), s->column),
				json_object_get(first, s->column)) &&
		    (json_object_get(json_object_get(c, "row"), s->column) ||
		     json_object_get(first, s->column)))
			return false;
	return true;
}

/* Each cell's "apart": its run settings that are not the same in every
 * cell (W, threads and the limit are said apart anyway), e.g. "dontcache"
 * beside the plain twins; then the first rows go. */
static void settings_apart(json_t *cells)
{
	const char *skip[40];
	size_t n = 0, i;
	char text[300];
	json_t *c;

	for (const struct setting *s = run_settings; s->name && n < 39; s++)
		if (!strcmp(s->name, "threads") || !strcmp(s->name, "work") ||
		    !strcmp(s->name, "memory_max") || !s->column || same_in_all(s, cells))
			skip[n++] = s->name;
	skip[n] = NULL;
	json_array_foreach(cells, i, c) {
		json_object_set_new(c, "apart", json_string(run_settings_text_except(
				    json_object_get(c, "row"), skip, text, sizeof(text))));
		json_object_del(c, "row");
	}
}

static int by_config_id(const void *a, const void *b)
{
	return strverscmp(str(*(json_t *const *)a, RC_CONFIG_ID),
			  str(*(json_t *const *)b, RC_CONFIG_ID));
}

/* The cells of the object, in natural config_id order (the rows' order is
 * a round's shuffle). */
static json_t *in_order(json_t *cells)
{
	size_t n = json_object_size(cells), i = 0;
	json_t **v = calloc(n + 1, sizeof(*v)), *out = json_array(), *c;
	const char *k;

	if (!v)
		abort();
	json_object_foreach(cells, k, c)
		v[i++] = c;
	qsort(v, n, sizeof(*v), by_config_id);
	for (i = 0; i < n; i++)
		json_array_append(out, v[i]);
	free(v);
	return out;
}

/* The sentence of one limited configuration (into c's "text"). */
static void sentence(json_t *rows, json_t *c)
{
	char text[320], lb[32];
	size_t at;
	double lim = num(c, "limit"), t, u;
	unsigned killed = (unsigned)json_integer_value(json_object_get(c, "killed"));

	at = (size_t)where_of(c, text, sizeof(text));
	if (at >= sizeof(text))
		at = 0;
	if (killed && num(c, "pool") > lim) {
		char when[48] = "killed, peak unknown";

		if (!isnan(num(c, "killed_at")))
			snprintf(when, sizeof(when), "killed at %.0f MiB",
				 num(c, "killed_at") / MIB);
		snprintf(text + at, sizeof(text) - at, "%s cannot run in %s: its own "
			 "buffer pool, %.0f MiB, is above the limit (%s)", str(c, RC_STRATEGY),
			 fmt_limit((unsigned long long)lim, lb, sizeof(lb)), num(c, "pool") / MIB,
			 when);
		json_object_set_new(c, "text", json_string(text));
		return;
	}
	if (killed) {
		memory_killed_text(str(c, RC_STRATEGY), lim, num(c, "killed_at"), killed,
				   (unsigned)json_integer_value(json_object_get(c, "reps")),
				   text + at, sizeof(text) - at);
		json_object_set_new(c, "text", json_string(text));
		return;
	}
	t = median_of(rows, str(c, RC_CONFIG_ID), NULL);
	u = median_of(rows, NULL, str(c, "twin"));
	snprintf(text + at, sizeof(text) - at, "%s runs in %s on data %.1fx the "
		 "limit: median %.3f s", str(c, RC_STRATEGY),
		 fmt_limit((unsigned long long)lim, lb, sizeof(lb)),
		 num(c, "data") / lim, t);
	if (isfinite(u) && u > 0)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 " against %.3f s unlimited (%.2fx)", u, t / u);
	json_object_set_new(c, "text", json_string(text));
}

json_t *memory_verdict_cells(json_t *rows)
{
	json_t *cells = json_object(), *out, *row, *c;
	size_t i;

	json_array_foreach(rows, i, row)
		if (counted(row))
			tally(cells, row);
	out = in_order(cells);
	json_decref(cells);
	if (json_array_size(out))
		settings_apart(out);
	json_array_foreach(out, i, c)
		sentence(rows, c);
	return out;
}

/* Is name one of the list's "a, b, c"? */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name), len;

	for (const char *p = list; p && *p; p += strspn(p, ", ")) {
		len = strcspn(p, ",");
		if (len == n && !strncmp(p, name, n))
			return true;
		p += len;
	}
	return false;
}

/* Append name to the list under key in o ("a, b"), once. */
static void list_add(json_t *o, const char *key, const char *name)
{
	const char *cur = json_string_value(json_object_get(o, key));
	char buf[256];

	if (listed(cur, name))
		return;
	snprintf(buf, sizeof(buf), "%s%s%s", cur ? cur : "", cur ? ", " : "", name);
	json_object_set_new(o, key, json_string(buf));
}

/* The list under key without the killed ones: a strategy killed in any
 * configuration of the group shows nothing that ran. */
static const char *not_killed(json_t *g, const char *key, char *buf, size_t len)
{
	const char *ok = json_string_value(json_object_get(g, key));
	const char *killed = json_string_value(json_object_get(g, "killed"));
	const char *pool = json_string_value(json_object_get(g, "pool"));
	size_t o = 0, n;

	buf[0] = 0;
	for (const char *p = ok; p && *p; p += strspn(p, ", ")) {
		char name[64];

		n = strcspn(p, ",");
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		p += n;
		if (!listed(killed, name) && !listed(pool, name) && o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", name);
	}
	return buf;
}

/* What a cell shows, as the key of its group's list: "ok" (ran on data,
 * and for a whole-file strategy a file, larger than the limit), "small"
 * (ran on data no larger than it), "files" (ran, each file no larger than
 * it), "pool" (killed with its own pool above the limit), "killed". */
static const char *shown(json_t *c)
{
	const struct strategy *s = strategy_find(str(c, RC_STRATEGY));
	double lim = num(c, "limit");

	if (json_integer_value(json_object_get(c, "killed")))
		return num(c, "pool") > lim ? "pool" : "killed";
	if (!(num(c, "data") > lim))
		return "small";
	if (s && (s->flags & STRAT_WHOLE_FILE) && !(num(c, "file") > lim))
		return "files";
	return "ok";
}

/* "; ran with files smaller than the limit: buffer" for the group's list
 * under key, or nothing; first (no "; ") if *o is 0. */
static void clause(json_t *g, const char *key, const char *what, char *buf,
		   size_t len, size_t *o)
{
	char names[256];

	if (!strcmp(key, "killed") || !strcmp(key, "pool"))
		snprintf(names, sizeof(names), "%s", str(g, key));
	else
		not_killed(g, key, names, sizeof(names));
	if (*names && *o < len)
		*o += (size_t)snprintf(buf + *o, len - *o, "%s%s: %s", *o ? "; " : "",
				       what, names);
}

static json_t *summary_line(json_t *g)
{
	const char *apart = str(g, "apart");
	char text[640], data[48] = "", says[512], lb[32];
	double lim = num(g, "limit");
	size_t o = 0;

	if (num(g, "data") > 0) /* known from a repetition that ran through */
		snprintf(data, sizeof(data), " (data %.1fx the limit)", num(g, "data") / lim);
	clause(g, "ok", "scale to data larger than the limit", says, sizeof(says), &o);
	clause(g, "files", "ran with files smaller than the limit", says, sizeof(says), &o);
	clause(g, "small", num(g, "data") > 0 ? "ran on data smaller than the limit" :
	       "ran in the limit", says, sizeof(says), &o);
	if (!o)
		o = (size_t)snprintf(says, sizeof(says), "none ran in the limit");
	clause(g, "killed", "killed", says, sizeof(says), &o);
	clause(g, "pool", "killed by its own buffer pool", says, sizeof(says), &o);
	snprintf(text, sizeof(text), "%s%s%s in %s%s: %s", str(g, RC_DATASET),
		 *apart ? " " : "", apart, fmt_limit((unsigned long long)lim, lb, sizeof(lb)),
		 data, says);
	return json_string(text);
}

json_t *memory_verdict_summary(json_t *cells)
{
	json_t *groups = json_object(), *out = json_array(), *c, *g;
	const char *k;
	char key[600];
	size_t i;

	json_array_foreach(cells, i, c) {
		snprintf(key, sizeof(key), "%s|%.0f|%s", str(c, RC_DATASET), num(c, "limit"),
			 str(c, "apart"));
		if (!(g = json_object_get(groups, key))) {
			g = json_pack("{s:s, s:f, s:f, s:s}", RC_DATASET, str(c, RC_DATASET),
				      "limit", num(c, "limit"), "data", 0.0, "apart", str(c, "apart"));
			json_object_set_new(groups, key, g);
		}
		if (num(c, "data") > num(g, "data"))
			json_object_set_new(g, "data", json_real(num(c, "data")));
		list_add(g, shown(c), str(c, RC_STRATEGY));
	}
	json_object_foreach(groups, k, g)
		json_array_append_new(out, summary_line(g));
	json_decref(groups);
	return out;
}

void report_memory_verdict(const struct rrun *r, struct rdoc *d)
{
	static const char *const cols[] = { "memory", NULL };
	json_t *cells = memory_verdict_cells(r->rows), *c, *sum;
	struct rtable *t;
	size_t i;

	if (json_array_size(cells)) {
		t = rdoc_table(d, "memory verdict", cols);
		rtable_note(t, "per configuration run with memory_max: killed by the "
			    "limit's OOM killer (at the peak memory charged), or its "
			    "median elapsed against the same configuration unlimited "
			    "(docs/memory.md)");
		sum = memory_verdict_summary(cells);
		json_array_foreach(sum, i, c)
			rtable_add(t, json_pack("[O]", c));
		json_array_foreach(cells, i, c)
			rtable_add(t, json_pack("[O]", json_object_get(c, "text")));
		json_decref(sum);
	}
	json_decref(cells);
}
