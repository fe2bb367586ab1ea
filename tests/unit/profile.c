// SPDX-License-Identifier: MIT
/* Profile parsing: lists, ranges, cross product, [global] inheritance,
 * includes, ${VAR}, -D overrides, and errors naming file:line. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/profile.h"
#include "engine/bench.h"
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

/* name written with text, then loaded with no -D: 0 or -errno. */
static int loaded(const char *name, const char *text, struct profile *p)
{
	put(name, text);
	return load(name, NULL, 0, p);
}

/* Does configuration i of p give key the value want? (No key: no.) */
static bool gives(const struct profile *p, size_t i, const char *key, const char *want)
{
	const char *v = pconf_get(&p->confs[i], key);

	return v && !strcmp(v, want);
}

UNIT(values_expand)
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
UNIT(ranges_at_the_top_of_unsigned_long)
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

UNIT(cross_product_globals_includes)
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
	CHECK(gives(&p, 0, "strategy", "stream") &&
	      gives(&p, 1, "strategy", "buffer") &&
	      gives(&p, 1, "threads", "1") &&
	      gives(&p, 2, "threads", "2"), "order");
	CHECK(gives(&p, 0, "dataset", "big"), "env var");
	CHECK(gives(&p, 4, "dataset", "small"), "default");
	CHECK(gives(&p, 4, "threads", "3"), "later global");
	CHECK(gives(&p, 3, "work", "7") &&
	      !strcmp(pconf_kv(&p.confs[3], "work")->where, "-D"), "-D override");
	CHECK(strstr(pconf_kv(&p.confs[0], "strategy")->where, "inc.ini:4"),
	      "where %s", pconf_kv(&p.confs[0], "strategy")->where);
	CHECK(!strcmp(p.name, "main"), "name %s", p.name);
	profile_free(&p);
	return 0;
}

UNIT(errors)
{
	struct profile p;

	CHECK(loaded("loop.ini", "include loop.ini\n", &p) == -ELOOP, "include loop");
	CHECK(loaded("e.ini", "[global]\nthreads=1\n", &p) == -EINVAL, "empty matrix");
	CHECK(loaded("e.ini", "key=1\n[a]\n", &p) == -EINVAL, "key before a section");
	CHECK(loaded("e.ini", "[a]\nx=${IOSTRAT_SURELY_UNSET}\n", &p) == -EINVAL, "unset variable");
	/* found by the fuzzer: the hashed index refused a key that is not
	 * UTF-8 and the loader exited; it is a key like any other */
	CHECK(!loaded("e.ini", "[a]\n\xc2\xdb=2\n", &p) && p.confs[0].nkv == 1 &&
	      !strcmp(p.confs[0].kv[0].value, "2"), "a key in bytes");
	profile_free(&p);
	/* a key given twice in one section: an error, whatever its bytes */
	CHECK(loaded("e.ini", "[a]\n\xc2\xdb=1\n\xc2\xdb=2\n", &p) == -EINVAL, "a key in bytes given twice");
	CHECK(loaded("e.ini", "[a]\nkind=nope\n", &p) == -EINVAL, "unknown kind");
	return 0;
}

/* A comment after a value, with ; or # after a blank (iostrat-profile(5));
 * without the blank, # is part of the value. */
UNIT(inline_comments)
{
	struct profile p;

	CHECK(!loaded("c.ini", "[global]\nscale=0.0025   # note\n[a]\nstrategy=stream ; s\n"
		     "dataset=/d/run#1\t# a path with a #\n", &p), "inline comments refused");
	CHECK(gives(&p, 0, "scale", "0.0025") &&
	      gives(&p, 0, "strategy", "stream") &&
	      gives(&p, 0, "dataset", "/d/run#1"),
	      "values '%s' '%s' '%s'", pconf_get(&p.confs[0], "scale"),
	      pconf_get(&p.confs[0], "strategy"), pconf_get(&p.confs[0], "dataset"));
	profile_free(&p);
	return 0;
}

/* A line of any length (libinih's buffer was 200, then 4096). */
UNIT(long_lines)
{
	size_t n = 5000, len = 64 + 2 * n + 8;
	char *text = malloc(len), *e;
	struct profile p;

	CHECK(text, "malloc");
	e = text + sprintf(text, "; %0*d\n[a]\nstrategy=stream\nwork=", 5000, 0);
	for (size_t i = 0; i < n / 2; i++)
		e += sprintf(e, "%s%zu", i ? "," : "", i % 2);
	strcpy(e, "\n");
	put("l.ini", text);
	free(text);
	CHECK(!load("l.ini", NULL, 0, &p), "a 5000-character line refused");
	CHECK(p.n == n / 2, "%zu configurations from the long line", p.n);
	profile_free(&p);
	return 0;
}

/* [global] keys a section's kind does not take are left out of it and
 * listed; a scale from [global] never shrinks a section's own size; a
 * key no kind takes is still an error. */
UNIT(inherited_keys_a_kind_does_not_take)
{
	struct profile p;

	CHECK(!loaded("g.ini", "[global]\nseed=7\nscale=0.0025\n[sweep-bufsize]\n"
		     "block=4k\nsize=1M\n[a]\nstrategy=stream\ndataset=small\n", &p), "load");
	CHECK(p.n == 2, "%zu configurations", p.n);
	CHECK(!pconf_get(&p.confs[0], "seed") && !pconf_get(&p.confs[0], "scale") &&
	      gives(&p, 0, "size", "1M"), "sweep keys");
	CHECK(gives(&p, 1, "seed", "7") &&
	      gives(&p, 1, "scale", "0.0025"), "run keys");
	CHECK(p.nignored == 2 &&
	      strstr(p.ignored[0], "[sweep-bufsize] ignores global seed (") &&
	      strstr(p.ignored[0], "g.ini:2: not a key of sweep bufsize)") &&
	      strstr(p.ignored[1], "ignores global scale (") &&
	      strstr(p.ignored[1], "its own size=1M is not scaled)"),
	      "ignored: %zu: %s", p.nignored, p.nignored ? p.ignored[0] : "");
	profile_free(&p);
	CHECK(!loaded("g.ini", "[global]\nthraeds=2\n[sweep-api]\nblock=4k\n", &p) && p.nignored == 0 &&
	      pconf_get(&p.confs[0], "thraeds"), "a typo is left for the check");
	profile_free(&p);
	return 0;
}

/* The cap: N configurations, the limit, how to raise it; before any is
 * built. */
UNIT(configurations_capped)
{
	char *text = malloc(40 * 120 + 64), *e = text;
	struct profile p;
	int ret;

	CHECK(text, "malloc");
	for (int i = 0; i < 120; i++)
		e += sprintf(e, "[s%d]\nstrategy=stream\nwork=1-1000\n", i);
	put("cap.ini", text);
	free(text);
	unsetenv("IOSTRAT_MAX_CONFIGS");
	CHECK(load("cap.ini", NULL, 0, &p) == -E2BIG, "120,000 over the default cap");
	setenv("IOSTRAT_MAX_CONFIGS", "120000", 1);
	ret = load("cap.ini", NULL, 0, &p);
	CHECK(!ret && p.n == 120000, "raised: %d, %zu", ret, p.n);
	profile_free(&p);
	setenv("IOSTRAT_MAX_CONFIGS", "119999", 1);
	CHECK(load("cap.ini", NULL, 0, &p) == -E2BIG, "one over");
	setenv("IOSTRAT_MAX_CONFIGS", "lots", 1);
	CHECK(load("cap.ini", NULL, 0, &p) == -EINVAL, "a bad limit");
	unsetenv("IOSTRAT_MAX_CONFIGS");
	return 0;
}

/* fio= is run_section_settings' one entry: a run configuration's
 * companion added by profile.c, fio= not carried into it nor written
 * back; no ceiling grid (the machine's limits are measured rows). */
UNIT(fio_companion_by_its_table_entry)
{
	struct run_section rs;
	struct profile p;
	char buf[4096];
	FILE *f;

	CHECK(setting_find(run_section_settings, "fio") &&
	      !setting_find(run_section_settings, "ceiling"), "fio alone in the table");
	settings_defaults(run_section_settings, &rs);
	CHECK(!rs.fio, "default: none");
	CHECK(!loaded("c.ini", "[runs]\nstrategy=stream\ndataset=big\nfio=1\nthreads=1\n", &p), "load");
	CHECK(p.n == 2, "%zu configurations: run, fio", p.n);
	CHECK(p.confs[1].kind == bench_kind_find("fio") && !pconf_get(&p.confs[1], "fio"),
	      "the fio companion");
	f = fmemopen(buf, sizeof(buf), "w");
	CHECK(f && !profile_write(&p, f), "write");
	fclose(f);
	CHECK(!strstr(buf, "fio="), "written: %s", buf);
	profile_free(&p);
	return 0;
}

static double secs(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Linear: 80,000 keys in one section and 40,000 sections that each
 * ignore an inherited key (one message each) took 17 s and 8 s with a
 * lookup per key and per message; 3 s is a generous bound for either,
 * also under ASan. */
UNIT(many_keys_and_sections_load_in_linear_time)
{
	size_t n = 80000;
	char *text = malloc(n * 24 + 64), *e = text;
	struct profile p;
	double t0;

	CHECK(text, "malloc");
	e += sprintf(e, "[a]\nstrategy=stream\n");
	for (size_t i = 0; i < n; i++)
		e += sprintf(e, "k%zu=%zu\n", i, i);
	put("k.ini", text);
	e = text;
	e += sprintf(e, "[global]\nop=read\n");
	for (size_t i = 0; i < n / 2; i++)
		e += sprintf(e, "[s%zu]\nstrategy=stream\n", i);
	put("s.ini", text);
	free(text);
	t0 = secs();
	CHECK(!load("k.ini", NULL, 0, &p) && p.confs[0].nkv == n + 1, "keys");
	profile_free(&p);
	CHECK(secs() - t0 < 3, "%zu keys took %.1f s", n, secs() - t0);
	t0 = secs();
	CHECK(!load("s.ini", NULL, 0, &p) && p.nignored == n / 2, "sections");
	profile_free(&p);
	CHECK(secs() - t0 < 3, "%zu sections took %.1f s", n / 2, secs() - t0);
	return 0;
}

static int dir_made(void)
{
	return !mkdtemp(dir);
}

static int dir_removed(int failed)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? 1 : failed;
}
UNIT_FIXTURE(dir_made, dir_removed)
