// SPDX-License-Identifier: MIT
/* The unpaired ratio intervals, p-values, Holm and modified z of results/paired.c
 * against SciPy and statsmodels: the values in tests/fixtures/stats/, made
 * by tests/tools/make-stat-fixtures.py, agree to 1e-6; plus the rules the
 * fixtures cannot show (NAN in Holm). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/paired.h"
#include "unit.h"

#define TOL 1e-6
#define MAXV 256
#define MAXK 10

/* One fixture case: its name and key lines ("a 1 2 3"). */
struct fcase {
	char name[128];
	size_t nk;
	struct { char key[16]; char text[16]; size_t n; double v[MAXV]; } k[MAXK];
};

static const char *fixture_path(const char *file)
{
	static char path[4096];
	const char *top = getenv("TOP");

	snprintf(path, sizeof(path), "%s/tests/fixtures/stats/%s", top ? top : ".", file);
	return path;
}

/* Parse one "key v v v" line into c's next key. */
static int parse_line(char *line, struct fcase *c)
{
	char *save, *tok = strtok_r(line, " \n", &save);

	if (!tok || c->nk >= MAXK)
		return -1;
	snprintf(c->k[c->nk].key, sizeof(c->k[0].key), "%s", tok);
	c->k[c->nk].n = 0;
	c->k[c->nk].text[0] = 0;
	while ((tok = strtok_r(NULL, " \n", &save)) && c->k[c->nk].n < MAXV) {
		char *end;
		double v = strtod(tok, &end);

		if (*end)
			snprintf(c->k[c->nk].text, sizeof(c->k[0].text), "%s", tok);
		c->k[c->nk].v[c->k[c->nk].n++] = v;
	}
	c->nk++;
	return 0;
}

static const typeof(((struct fcase *)0)->k[0]) *key(const struct fcase *c, const char *k)
{
	for (size_t i = 0; i < c->nk; i++)
		if (!strcmp(c->k[i].key, k))
			return &c->k[i];
	return NULL;
}

static double val(const struct fcase *c, const char *k)
{
	const typeof(c->k[0]) *e = key(c, k);

	return e && e->n ? e->v[0] : NAN;
}

static int same(double x, double want)
{
	if (isnan(want) || isinf(want))
		return isnan(want) ? isnan(x) : x == want;
	return fabs(x - want) <= TOL;
}

typedef int (*case_fn)(const struct fcase *c);

/* Run fn on every case of a fixture file; a missing or empty file fails. */
static int each_case(const char *file, case_fn fn, size_t *count)
{
	FILE *f = fopen(fixture_path(file), "r");
	static struct fcase c;
	char line[8192];
	int have = 0, rc = 0;

	*count = 0;
	if (!f) {
		printf("  no %s: the fixtures are part of the repository\n", fixture_path(file));
		return 1;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (!strncmp(line, "case ", 5)) {
			if (have && (rc = fn(&c)))
				break;
			memset(&c, 0, sizeof(c));
			snprintf(c.name, sizeof(c.name), "%s", strtok(line + 5, "\n"));
			have = 1;
			(*count)++;
			continue;
		}
		rc = have ? parse_line(line, &c) : -1;
	}
	if (!rc && have)
		rc = fn(&c);
	fclose(f);
	if (rc)
		printf("  %s: case %s\n", file, c.name);
	return rc || !*count;
}

static int want_rc(const struct fcase *c)
{
	const char *t = key(c, "rc") ? key(c, "rc")->text : "";

	return !strcmp(t, "EDOM") ? -EDOM : !strcmp(t, "EINVAL") ? -EINVAL : 0;
}

static int check_ci(const struct fcase *c, int rc, const struct ratio_ci *r)
{
	CHECK(rc == want_rc(c), "rc %d, scipy's %d", rc, want_rc(c));
	CHECK(same(r->ratio, val(c, "ratio")), "ratio %.12g, scipy's %.12g", r->ratio, val(c, "ratio"));
	CHECK(same(r->lo, val(c, "lo")), "lo %.12g, scipy's %.12g", r->lo, val(c, "lo"));
	CHECK(same(r->hi, val(c, "hi")), "hi %.12g, scipy's %.12g", r->hi, val(c, "hi"));
	CHECK(same(r->p, val(c, "p")), "p %.12g, scipy's %.12g", r->p, val(c, "p"));
	return 0;
}

static int unpaired_case(const struct fcase *c)
{
	struct ratio_ci r;
	const typeof(c->k[0]) *a = key(c, "a"), *b = key(c, "b");

	CHECK(a && b, "a and b lines");
	return check_ci(c, unpaired_ratio_ci(a->v, a->n, b->v, b->n, val(c, "level"), &r), &r);
}

static int holm_case(const struct fcase *c)
{
	const typeof(c->k[0]) *p = key(c, "p"), *adj = key(c, "adj");
	double got[MAXV];

	CHECK(p && adj && p->n == adj->n, "p and adj lines");
	holm_adjust(p->v, p->n, got);
	for (size_t i = 0; i < p->n; i++)
		CHECK(same(got[i], adj->v[i]), "adj[%zu] %.12g, statsmodels' %.12g", i, got[i], adj->v[i]);
	return 0;
}

static int modz_case(const struct fcase *c)
{
	const typeof(c->k[0]) *v = key(c, "v"), *z = key(c, "z");

	CHECK(v && z && v->n == z->n, "v and z lines");
	for (size_t i = 0; i < v->n; i++)
		CHECK(same(modified_z(v->v, v->n, i), z->v[i]), "z[%zu] %.12g, scipy's %.12g",
		      i, modified_z(v->v, v->n, i), z->v[i]);
	return 0;
}

UNIT(unpaired_intervals_match_scipy)
{
	size_t n;

	CHECK(!each_case("unpaired.txt", unpaired_case, &n), "unpaired.txt");
	CHECK(n >= 30, "only %zu cases", n);
	return 0;
}

UNIT(holm_matches_statsmodels)
{
	size_t n;

	CHECK(!each_case("holm.txt", holm_case, &n), "holm.txt");
	return 0;
}

UNIT(modified_z_matches_scipy_mad)
{
	size_t n;

	CHECK(!each_case("modz.txt", modz_case, &n), "modz.txt");
	return 0;
}

UNIT(holm_keeps_nan_last_and_ties_in_order)
{
	const double p[] = { 0.02, NAN, 0.01 };
	double adj[3];

	holm_adjust(p, 3, adj);
	CHECK(isnan(adj[1]) && fabs(adj[2] - 0.03) < 1e-15 && fabs(adj[0] - 0.04) < 1e-15,
	      "%g %g %g", adj[0], adj[1], adj[2]);
	const double q[] = { 0.03, 0.01, 0.03, NAN, 0.01 };
	size_t ix[5];

	holm_order(q, 5, ix); /* equal p in index order, NAN last */
	CHECK(ix[0] == 1 && ix[1] == 4 && ix[2] == 0 && ix[3] == 2 && ix[4] == 3,
	      "order %zu %zu %zu %zu %zu", ix[0], ix[1], ix[2], ix[3], ix[4]);
	CHECK(fabs(holm_level(0.95, 3, 0) - (1 - 0.05 / 3)) < 1e-15, "level rank 0");
	CHECK(fabs(holm_level(0.95, 3, 2) - 0.95) < 1e-15, "level last rank");
	return 0;
}
