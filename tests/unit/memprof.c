// SPDX-License-Identifier: MIT
/* Profiles built in memory (engine_profile_new/add, for run, fio, net and
 * sweep): the same configurations profile_load makes of the same section,
 * values copied. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/bench.h"
#include "unit.h"

/* c and d: same section, kind and keys with the same values, in order */
static int same_conf(const struct pconf *c, const struct pconf *d)
{
	CHECK(!strcmp(c->section, d->section) && c->kind == d->kind &&
	      c->nkv == d->nkv, "[%s] %zu keys, [%s] %zu keys", c->section,
	      c->nkv, d->section, d->nkv);
	for (size_t i = 0; i < c->nkv; i++)
		CHECK(!strcmp(c->kv[i].key, d->kv[i].key) &&
		      !strcmp(c->kv[i].value, d->kv[i].value), "%s=%s against %s=%s",
		      c->kv[i].key, c->kv[i].value, d->kv[i].key, d->kv[i].value);
	return 0;
}

UNIT(in_memory_is_what_the_loader_makes)
{
	char path[] = "/tmp/iostrat-unit-memprof.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct profile loaded, built;
	char reps[] = "4";
	const char *kv[] = { "strategy", "stream", "dataset", "small",
			     "threads", "2", "reps", reps, NULL };
	int ret;

	fputs("[run]\nstrategy=stream\ndataset=small\nthreads=2\nreps=4\n", f);
	fclose(f);
	ret = profile_load(path, NULL, 0, &loaded);
	unlink(path);
	CHECK(!ret && loaded.n == 1, "loaded: %d, %zu configurations", ret, loaded.n);
	CHECK(!engine_profile_new(&built, "run"), "new");
	CHECK(!engine_profile_add(&built, "run", bench_kind_find("run"),
				  "iostrat run", kv), "add");
	reps[0] = '9'; /* the caller's buffer is its own again */
	CHECK(built.n == 1 && !strcmp(built.name, "run") &&
	      !strcmp(pconf_kv(&built.confs[0], "reps")->where, "iostrat run"),
	      "name, where");
	ret = same_conf(&built.confs[0], &loaded.confs[0]);
	profile_free(&loaded);
	profile_free(&built);
	return ret;
}

/* -D on an in-memory profile: as profile_load applies it, last, in every
 * configuration: a key there replaced, another added, a bad one refused. */
UNIT(defines_set_every_configuration_as_the_loader_does)
{
	char path[] = "/tmp/iostrat-unit-memprof.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct profile loaded, built;
	char *defs[] = { "threads=3", "work=7" }, *bad[] = { "=1" };
	const char *kv[] = { "strategy", "stream", "dataset", "small", "threads", "2", NULL };
	int ret;

	fputs("[a]\nstrategy=stream\ndataset=small\nthreads=2\n"
	      "[b]\nstrategy=stream\ndataset=small\nthreads=2\n", f);
	fclose(f);
	ret = profile_load(path, defs, 2, &loaded);
	unlink(path);
	CHECK(!ret && loaded.n == 2, "loaded: %d, %zu configurations", ret, loaded.n);
	CHECK(!engine_profile_new(&built, "x"), "new");
	CHECK(!engine_profile_add(&built, "a", bench_kind_find("run"), "here", kv) &&
	      !engine_profile_add(&built, "b", bench_kind_find("run"), "here", kv), "add");
	CHECK(engine_profile_define(&built, "", bad, 1) == -EINVAL, "=1 taken");
	CHECK(!engine_profile_define(&built, "", defs, 2), "define");
	for (size_t i = 0; !ret && i < 2; i++) {
		ret = same_conf(&built.confs[i], &loaded.confs[i]);
		CHECK(pconf_kv(&built.confs[i], "work")->from == PKV_DEFINE &&
		      !strcmp(pconf_kv(&built.confs[i], "threads")->where, "-D"), "from -D");
		CHECK(!built.confs[i].kv[built.confs[i].nkv].key, "no end mark");
	}
	profile_free(&loaded);
	profile_free(&built);
	return ret;
}
