// SPDX-License-Identifier: MIT
/* Profile parsing: lists, ranges, cross product, [global] inheritance,
 * includes, ${VAR}, -D overrides, and errors naming file:line. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#include "unit.h"

static char dir[] = "/tmp/iostrat-unit-profile.XXXXXX";

static void put(const char *name, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	fputs(text, f);
	fclose(f);
}

static int load(const char *name, char *const *defs, size_t n,
		struct profile *p)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return profile_load(path, defs, n, p);
}

static int values_expand(void)
{
	char **it;
	size_t n;

	CHECK(!profile_expand_value("x", "k", "1-4", &it, &n) && n == 4 &&
	      !strcmp(it[0], "1") && !strcmp(it[3], "4"), "1-4");
	profile_free_items(it, n);
	CHECK(!profile_expand_value("x", "k", " 0, 100 ,1000", &it, &n) && n == 3 &&
	      !strcmp(it[1], "100"), "list with blanks");
	profile_free_items(it, n);
	CHECK(!profile_expand_value("x", "k", "1-9:4,medium-short", &it, &n) &&
	      n == 4 && !strcmp(it[2], "9") && !strcmp(it[3], "medium-short"),
	      "step and a dashed name");
	profile_free_items(it, n);
	CHECK(profile_expand_value("x", "k", "4-1", &it, &n) == -EINVAL, "4-1");
	CHECK(profile_expand_value("x", "k", "1-4:0", &it, &n) == -EINVAL, "step 0");
	CHECK(profile_expand_value("x", "k", "a,,b", &it, &n) == -EINVAL, "empty item");
	return 0;
}

/* Found by the fuzzer: bounds past ULONG_MAX saturated to equal values and
 * x += step wrapped, an endless loop eating memory. */
static int ranges_at_the_top_of_unsigned_long(void)
{
	char **it;
	size_t n;

	CHECK(profile_expand_value("x", "k", "99999999999999999999999-1999999999999999999999999000",
				   &it, &n) == -EINVAL, "overflowing bounds");
	CHECK(!profile_expand_value("x", "k", "18446744073709551614-18446744073709551615",
				    &it, &n) && n == 2 && !strcmp(it[1], "18446744073709551615"),
	      "the last two values, no wrap");
	profile_free_items(it, n);
	CHECK(!profile_expand_value("x", "k", "18446744073709551610-18446744073709551615:4",
				    &it, &n) && n == 2 && !strcmp(it[1], "18446744073709551614"),
	      "a step past the top stops");
	profile_free_items(it, n);
	return 0;
}

static int cross_product_globals_includes(void)
{
	char *defs[] = { "work=7" };
	struct profile p;

	setenv("IOSTRAT_UNIT_DS", "big", 1);
	put("inc.ini", "[global]\nthreads=1-2\n[a]\nstrategy=stream,buffer\n"
		       "dataset=${IOSTRAT_UNIT_DS}\n");
	put("main.ini", "; comment\ninclude inc.ini\n[global]\nthreads=3\n"
			"[b]\nstrategy=stream\ndataset=${NOPE_UNSET:-small}\n");
	CHECK(!load("main.ini", defs, 1, &p), "load");
	CHECK(p.n == 5, "2 strategies x 2 threads + 1, got %zu", p.n);
	/* keys in order of appearance ([global] first), the last varying fastest */
	CHECK(!strcmp(pconf_get(&p.confs[0], "strategy"), "stream") &&
	      !strcmp(pconf_get(&p.confs[1], "strategy"), "buffer") &&
	      !strcmp(pconf_get(&p.confs[1], "threads"), "1") &&
	      !strcmp(pconf_get(&p.confs[2], "threads"), "2"), "order");
	CHECK(!strcmp(pconf_get(&p.confs[0], "dataset"), "big"), "env var");
	CHECK(!strcmp(pconf_get(&p.confs[4], "dataset"), "small"), "default");
	CHECK(!strcmp(pconf_get(&p.confs[4], "threads"), "3"), "later global");
	CHECK(!strcmp(pconf_get(&p.confs[3], "work"), "7") &&
	      !strcmp(pconf_kv(&p.confs[3], "work")->where, "-D"), "-D override");
	CHECK(strstr(pconf_kv(&p.confs[0], "strategy")->where, "inc.ini:4"),
	      "where %s", pconf_kv(&p.confs[0], "strategy")->where);
	CHECK(!strcmp(p.name, "main"), "name %s", p.name);
	profile_free(&p);
	return 0;
}

static int errors(void)
{
	struct profile p;

	put("loop.ini", "include loop.ini\n");
	CHECK(load("loop.ini", NULL, 0, &p) == -ELOOP, "include loop");
	put("e.ini", "[global]\nthreads=1\n");
	CHECK(load("e.ini", NULL, 0, &p) == -EINVAL, "empty matrix");
	put("e.ini", "key=1\n[a]\n");
	CHECK(load("e.ini", NULL, 0, &p) == -EINVAL, "key before a section");
	put("e.ini", "[a]\nx=${IOSTRAT_SURELY_UNSET}\n");
	CHECK(load("e.ini", NULL, 0, &p) == -EINVAL, "unset variable");
	put("e.ini", "[a]\nkind=nope\n");
	CHECK(load("e.ini", NULL, 0, &p) == -EINVAL, "unknown kind");
	return 0;
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(dir))
		return 1;
	RUN(values_expand);
	RUN(ranges_at_the_top_of_unsigned_long);
	RUN(cross_product_globals_includes);
	RUN(errors);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return unit_failed;
}
