// SPDX-License-Identifier: MIT
/* Loading a results directory for report and compare: rows, summaries and samples. */
#include <errno.h>
#include <stdbool.h>
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
	snprintf(p, sizeof(p), "%s/profile.given.ini", dir);
	if (read_file_small(p, &r->given, &len))
		r->given = NULL;
	snprintf(p, sizeof(p), "%s/stop.json", dir);
	r->stop = json_load_file(p, 0, NULL);
	if (!json_is_array(r->stop)) {
		json_decref(r->stop);
		r->stop = json_array();
	}
	return 0;
}

json_t *rrun_stop_cell(const struct rrun *r, const char *id)
{
	json_t *c, *x;
	size_t i, j;

	json_array_foreach(r->stop, i, c)
		json_array_foreach(json_object_get(c, "configs"), j, x)
			if (json_is_string(x) && !strcmp(json_string_value(x), id))
				return c;
	return NULL;
}

void rrun_free(struct rrun *r)
{
	json_decref(r->rows);
	json_decref(r->sum);
	json_decref(r->env);
	json_decref(r->stop);
	free(r->profile);
	free(r->given);
	memset(r, 0, sizeof(*r));
}

/* A row that is a timed sample of config id: not an error, not traced
 * (role "traced": its elapsed time carries the probes), with a number in
 * the metric column, into *v. */
static bool timed_sample(json_t *row, const char *id, double *v)
{
	const char *cid = json_string_value(json_object_get(row, RC_CONFIG_ID));
	json_t *x = json_object_get(row, results_metric(row));

	if (!cid || strcmp(cid, id) || !json_is_number(x) ||
	    !json_is_null(json_object_get(row, "error")) || !row_timed(row))
		return false;
	*v = json_number_value(x);
	return true;
}

size_t rrun_samples(const struct rrun *r, const char *id, double **out)
{
	size_t n = 0, i;
	json_t *row;

	*out = calloc(json_array_size(r->rows) + 1, sizeof(double));
	if (!*out)
		return 0;
	json_array_foreach(r->rows, i, row)
		if (timed_sample(row, id, &(*out)[n]))
			n++;
	return n;
}

struct rsample {
	long long round;
	size_t row;
	double v;
};

static int by_round(const void *x, const void *y)
{
	const struct rsample *a = x, *b = y;

	if (a->round != b->round)
		return (a->round > b->round) - (a->round < b->round);
	return (a->row > b->row) - (a->row < b->row);
}

/* The timed samples of config id with their rounds, by round then row;
 * -1 when one has no round, -ENOMEM. */
static long round_samples(const struct rrun *r, const char *id, struct rsample **out)
{
	size_t n = 0, i;
	json_t *row;

	*out = calloc(json_array_size(r->rows) + 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	json_array_foreach(r->rows, i, row)
		if (timed_sample(row, id, &(*out)[n].v)) {
			/* row_round: its "round", else its "rep"; 0 when neither */
			long long rd = row_round(row);

			(*out)[n] = (struct rsample){ rd ? rd : -1, i, (*out)[n].v };
			if ((*out)[n++].round < 0)
				return -1;
		}
	qsort(*out, n, sizeof(**out), by_round);
	return (long)n;
}

long rrun_rounds(const struct rrun *r, const char *id, double **x, unsigned **round)
{
	struct rsample *s = NULL;
	long n = round_samples(r, id, &s);

	*x = calloc((size_t)(n > 0 ? n : 1), sizeof(**x));
	*round = calloc((size_t)(n > 0 ? n : 1), sizeof(**round));
	if (!*x || !*round)
		n = -ENOMEM;
	for (long i = 0; i < n; i++) {
		(*x)[i] = s[i].v;
		(*round)[i] = (unsigned)s[i].round;
	}
	free(s);
	return n;
}

/* Pair two sorted sample lists by round (the first row of a round). */
static size_t match_rounds(const struct rsample *sa, size_t na, const struct rsample *sb,
			   size_t nb, double *a, double *b)
{
	size_t i = 0, j = 0, n = 0;

	while (i < na && j < nb) {
		if (sa[i].round < sb[j].round) {
			i++;
		} else if (sb[j].round < sa[i].round) {
			j++;
		} else {
			a[n] = sa[i].v;
			b[n++] = sb[j].v;
			for (long long k = sa[i].round; i < na && sa[i].round == k; i++)
				;
			for (long long k = sb[j].round; j < nb && sb[j].round == k; j++)
				;
		}
	}
	return n;
}

long rrun_pairs(const struct rrun *r, const char *ida, const char *idb, double **a,
		double **b)
{
	struct rsample *sa = NULL, *sb = NULL;
	long na = round_samples(r, ida, &sa), nb = round_samples(r, idb, &sb), n = -1;

	*a = calloc((size_t)(na > 0 ? na : 1), sizeof(double));
	*b = calloc((size_t)(na > 0 ? na : 1), sizeof(double));
	if (!*a || !*b || na == -ENOMEM || nb == -ENOMEM)
		n = -ENOMEM;
	else if (na >= 0 && nb >= 0)
		n = (long)match_rounds(sa, (size_t)na, sb, (size_t)nb, *a, *b);
	free(sa);
	free(sb);
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
