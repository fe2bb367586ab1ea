/* SPDX-License-Identifier: MIT */
/* Profiles: the INI dialect of the experiment matrices and the configurations it expands into. */
#ifndef IOSTRAT_PROFILE_H
#define IOSTRAT_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Experiment profiles (profiles/NAME.ini): the INI dialect of fio job files,
 * read with libinih.
 *
 *   [global]            keys every later section starts from (fio: a later
 *                       [global] only affects the sections after it)
 *   [NAME]              one section = one matrix; every key whose value is
 *                       a list ("stream,buffer") or a range ("1-4", "1-8:2")
 *                       expands into the cross product of configurations
 *   include FILE        textual include, relative to the including file
 *   ${VAR}, ${VAR:-x}   environment variables (unset without default: error)
 *
 * Section kinds.  A section is run by the handler ("kind") named by its
 * kind= key, else by its name or name prefix ("[sweep]", "[sweep-api]"),
 * else by "run" (strategies on data sets).  Kinds are listed in a small
 * table in profile.c (run, sweep, net, fio, limits); any other kind is an error.
 * A run section with fio=1 also gets a companion configuration of kind
 * "fio".
 *
 * Lines may be of any length; a comment starts with ; or # at the start
 * of a line, or after a blank that follows a value ("scale=1   # note").
 *
 * Inherited keys.  A key a section inherits ([global] or -D) that its kind
 * does not take (seed in a sweep section) is left out of that section and
 * listed in p->ignored ("bench --dry-run" prints them); a key no kind
 * takes is still an error, at its own line.  A section's own keys are
 * always its own: an unknown one is an error.
 *
 * The cap.  A profile expands to at most IOSTRAT_MAX_CONFIGS (default
 * PROFILE_MAX_CONFIGS) configurations; more is an error saying how many
 * and how to raise it, before any is built.
 *
 * Errors (unknown key, bad value, bad range, unknown strategy or kind,
 * empty matrix, include loop, unset variable) are printed once as
 * "iostrat: FILE:LINE: ..." by the loader or by the kind's check.
 */

#define PROFILE_MAX_CONFIGS 100000 /* 300,000 repetitions at reps=3 */

enum pkv_from {
	PKV_SECTION, /* written in the section itself */
	PKV_GLOBAL,  /* from a [global] before it */
	PKV_DEFINE,  /* -D KEY=VALUE */
};

struct pkv {
	char *key, *value;
	char *where; /* "file.ini:12" or "-D" */
	enum pkv_from from;
};

struct strpool;

struct bench_kind;

/* One configuration after expansion: single values only. */
struct pconf {
	char *section; /* the section's name */
	char *where;   /* "file:line" of its [header] */
	const struct bench_kind *kind;
	struct pkv *kv;
	size_t nkv;
	bool companion; /* fio=1 adds it: shared by the configurations alike */
};

struct profile {
	char *name; /* file name without directory and .ini */
	char *path;
	struct pconf *confs;
	size_t n;
	/* inherited keys left out: "[sweep-api] ignores global seed (p.ini:2:
	 * not a sweep key)", one per section and key */
	char **ignored;
	size_t nignored;
	struct strpool *pool; /* every string of confs */
};

/* Load and expand path; defs are "key=value" overrides (-D), applied to
 * every section last.  0, or -EINVAL etc. after printing the error. */
int profile_load(const char *path, char *const *defs, size_t ndefs,
		 struct profile *p);
void profile_free(struct profile *p);
/* Each of defs[n] is KEY=VALUE with a KEY: 0, or -EINVAL after one line
 * ("WHO-D =1: want KEY=VALUE"; who: "" or "limits: "). */
int profile_defs_check(const char *who, char *const *defs, size_t n);
/* The value of key in c, NULL if absent. */
const char *pconf_get(const struct pconf *c, const char *key);
const struct pkv *pconf_kv(const struct pconf *c, const char *key);
/* Keys every kind accepts (read by the bench engine): kind, reps,
 * max_reps, target_rsd. */
bool profile_engine_key(const char *key);
/* Write the expanded profile (one section per configuration). */
int profile_write(const struct profile *p, FILE *f);
/* Expand one value into its items ("1-3,8" -> 1 2 3 8).  0 or -EINVAL
 * after printing "where: key: ...".  *items is freed with free_items. */
int profile_expand_value(const char *where, const char *key, const char *v,
			 char ***items, size_t *n);
void profile_free_items(char **items, size_t n);

#endif
