// SPDX-License-Identifier: MIT
/*
 * `iostrat compare` across machines (docs/fleet.md): runs named by their
 * host when the hosts differ, and the fleet summary -- per cell of the
 * verdict (data set x W x threads), the fastest strategy of each run and
 * whether the runs agree.  The verdict itself is the report's
 * (verdict.c): a run says here what its own report would say.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "report.h"
#include "verdict.h"

const char *rrun_host(const struct rrun *r)
{
	const char *h = json_string_value(json_object_get(r->env, "host"));

	if (!h || !*h)
		h = json_string_value(json_object_get(json_array_get(r->rows, 0), "host"));
	return h ? h : "";
}

bool rrun_hosts_differ(const struct rrun *runs, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(rrun_host(&runs[0]), rrun_host(&runs[i])))
			return true;
	return false;
}

/* The directory's last component ("bfq" of an `iostrat sched` run). */
static void dir_last(const char *dir, char *buf, size_t len)
{
	size_t n = strlen(dir);
	const char *end, *start;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	end = dir + n;
	start = end;
	while (start > dir && start[-1] != '/')
		start--;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
}

void compare_label(const struct rrun *runs, size_t n, size_t k, char *buf, size_t len)
{
	char last[256];
	size_t same = 0;

	dir_last(runs[k].dir, last, sizeof(last));
	if (!rrun_hosts_differ(runs, n) || !*rrun_host(&runs[k])) {
		snprintf(buf, len, "%s", last);
		return;
	}
	for (size_t i = 0; i < n; i++)
		same += !strcmp(rrun_host(&runs[i]), rrun_host(&runs[k]));
	/* two runs of one host among others: the host alone would not tell them apart */
	if (same > 1 && strcmp(last, rrun_host(&runs[k])))
		snprintf(buf, len, "%s:%s", rrun_host(&runs[k]), last);
	else
		snprintf(buf, len, "%s", rrun_host(&runs[k]));
}

/* What a run's verdict names first in a cell: the fastest, or the
 * strategies it could not be told from ("uring=mmap"). */
static void leaders(json_t *c, char *buf, size_t len)
{
	json_t *tied = json_object_get(c, "tied"), *v;
	size_t i, o = 0;

	if (json_is_true(json_object_get(c, "distinguishable")) || !json_is_array(tied)) {
		snprintf(buf, len, "%s", json_string_value(json_object_get(c, "fastest")) ?: "-");
		return;
	}
	buf[0] = 0;
	json_array_foreach(tied, i, v)
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? "=" : "",
					      json_string_value(v) ?: "?");
}

/* Is s among the strategies run r could not tell from its fastest? */
static bool among_leaders(json_t *c, const char *s)
{
	json_t *tied = json_object_get(c, "tied"), *v;
	size_t i;

	if (!strcmp(json_string_value(json_object_get(c, "fastest")) ?: "", s))
		return true;
	if (json_is_true(json_object_get(c, "distinguishable")))
		return false;
	json_array_foreach(tied, i, v)
		if (!strcmp(json_string_value(v) ?: "", s))
			return true;
	/* the only strategy run there: it cannot have put s behind */
	return json_is_null(json_object_get(c, "runner_up"));
}

static json_t *find_cell(json_t *cells, const char *label)
{
	json_t *c;
	size_t i;

	json_array_foreach(cells, i, c)
		if (!strcmp(json_string_value(json_object_get(c, "cell")) ?: "", label))
			return c;
	return NULL;
}

/* Did run c decide its cell: a winner, equal (within the band), or a
 * single strategy? */
static bool decided(json_t *c)
{
	const char *d = json_string_value(json_object_get(c, "decision")) ?: "";

	return json_is_true(json_object_get(c, "distinguishable")) ||
	       !strncmp(d, "equal", 5) || !strcmp(d, "only");
}

/*
 * The runs disagree in a cell when one names a winner (every interval
 * clear of 1) that another run put behind its own leaders; equal or
 * undecided on one side is no disagreement as long as the other's winner
 * is among the tied.  When no run decided, nothing agrees: "both
 * undecided" (more than two runs: "all undecided").
 */
static const char *agreement(json_t *const *c, size_t n, char *why, size_t len)
{
	size_t present = 0, decisions = 0;

	for (size_t i = 0; i < n; i++) {
		present += c[i] != NULL;
		decisions += c[i] && decided(c[i]);
	}
	if (present < 2)
		return "-";
	if (!decisions)
		return present == 2 ? "both undecided" : "all undecided";
	for (size_t i = 0; i < n; i++) {
		const char *w;

		if (!c[i] || !json_is_true(json_object_get(c[i], "distinguishable")))
			continue;
		w = json_string_value(json_object_get(c[i], "fastest")) ?: "";
		for (size_t j = 0; j < n; j++)
			if (c[j] && !among_leaders(c[j], w)) {
				snprintf(why, len, "%c: %s, %c: %s", (char)('A' + i), w,
					 (char)('A' + j),
					 json_string_value(json_object_get(c[j], "fastest")) ?: "?");
				return "disagree";
			}
	}
	return "agree";
}

void compare_fastest(const struct rrun *runs, size_t n, struct rdoc *d)
{
	const char *cols[RUNS_MAX + 4] = { 0 };
	char names[RUNS_MAX][300];
	json_t *cells[RUNS_MAX], *order = json_array(), *k;
	size_t i, disagree = 0;
	bool across = rrun_hosts_differ(runs, n);
	struct rtable *t;

	if (n > RUNS_MAX)
		n = RUNS_MAX;
	cols[0] = "cell";
	for (size_t r = 0; r < n; r++) {
		char label[256];
		json_t *c;

		compare_label(runs, n, r, label, sizeof(label));
		snprintf(names[r], sizeof(names[r]), "%c %s", (char)('A' + r), label);
		cols[r + 1] = names[r];
		cells[r] = verdict_cells(&runs[r]);
		/* cells in the order first met, A's first */
		json_array_foreach(cells[r], i, c) {
			json_t *lab = json_object_get(c, "cell");
			bool seen = false;
			size_t j;

			json_array_foreach(order, j, k)
				seen |= json_equal(k, lab);
			if (!seen)
				json_array_append(order, lab);
		}
	}
	cols[n + 1] = "runs";
	cols[n + 2] = "why";
	t = rdoc_table(d, across ? "fleet: the fastest strategy per cell on each host (the verdict)"
				 : "the fastest strategy per cell in each run (the verdict)", cols);
	json_array_foreach(order, i, k) {
		json_t *row = json_array(), *c[RUNS_MAX];
		char buf[256], why[256] = "";
		const char *a;

		json_array_append(row, k);
		for (size_t r = 0; r < n; r++) {
			c[r] = find_cell(cells[r], json_string_value(k));
			if (c[r])
				leaders(c[r], buf, sizeof(buf));
			json_array_append_new(row, c[r] ? json_text(buf) : json_null());
		}
		a = agreement(c, n, why, sizeof(why));
		disagree += !strcmp(a, "disagree");
		json_array_append_new(row, json_text(a));
		json_array_append_new(row, json_text(why));
		rtable_add(t, row);
	}
	rtable_note(t, "per run, as its own report's verdict: the fastest when it wins (every "
		    "other strategy behind in its race, %.0f%% over all pairs and rounds); a=b "
		    "when equal or undecided "
		    "(or too few rounds).  disagree: a run's winner is behind another run's "
		    "leaders (%zu of %zu cells); both undecided: neither run decided, so "
		    "there is nothing to agree on.", 100 * VERDICT_LEVEL, disagree,
		    json_array_size(order));
	for (size_t r = 0; r < n; r++)
		json_decref(cells[r]);
	json_decref(order);
}
