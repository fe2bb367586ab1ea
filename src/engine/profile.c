// SPDX-License-Identifier: MIT
/*
 * Profile loading: the raw sections (profile_read.c), then [global]
 * inheritance, -D overrides, kind dispatch, inherited keys a kind does
 * not take left out, the cap, and cross-product expansion.  Linear in
 * the configurations and keys: lookups are hashed, strings shared from
 * the profile's pool.  See profile.h for the dialect.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/bench.h"
#include "profile.h"
#include "profile_read.h"
#include "config/strpool.h"
#include "lib/util.h"

#define MAX_ITEMS 10000 /* values in one list or range */

/* ---- the kind table ------------------------------------------------------
 * "run" first: it is the default, never chosen by a section's name. */
extern const struct bench_kind bench_kind_run;
extern const struct bench_kind bench_kind_sweep;
extern const struct bench_kind bench_kind_net;
extern const struct bench_kind bench_kind_fio;
extern const struct bench_kind bench_kind_limits;

static const struct {
	const char *name;
	const struct bench_kind *kind;
} kinds[] = {
	{ "run", &bench_kind_run },
	{ "sweep", &bench_kind_sweep },
	{ "net", &bench_kind_net },
	{ "fio", &bench_kind_fio },
	{ "limits", &bench_kind_limits },
};

const struct bench_kind *bench_kind_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(kinds[i].name, name))
			return kinds[i].kind;
	return NULL;
}

const char *const *bench_kind_names(void)
{
	static const char *names[ARRAY_SIZE(kinds) + 1];

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		names[i] = kinds[i].name;
	return names;
}

const char *bench_kind_by_section(const char *s)
{
	for (size_t i = 1; i < ARRAY_SIZE(kinds); i++) {
		size_t n = strlen(kinds[i].name);

		if (!strncmp(s, kinds[i].name, n) && (!s[n] || s[n] == '-'))
			return kinds[i].name;
	}
	return NULL;
}

bool profile_engine_key(const char *k)
{
	return !strcmp(k, "kind") || setting_find(engine_settings, k);
}

/* ---- value expansion ------------------------------------------------------ */

void profile_free_items(char **items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(items[i]);
	free(items);
}

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* "A-B" or "A-B:S" with A, B, S whole numbers: 1 and the bounds; 0 when
 * the item is not a range at all (a plain value such as "medium-short"). */
static int parse_range(const char *it, unsigned long *a, unsigned long *b,
		       unsigned long *step)
{
	const char *dash = strchr(it, '-'), *colon;

	if (!dash || !all_digits(it, (size_t)(dash - it)))
		return 0;
	colon = strchr(dash, ':');
	if (!all_digits(dash + 1, colon ? (size_t)(colon - dash - 1) : strlen(dash + 1)))
		return 0;
	if (colon && !all_digits(colon + 1, strlen(colon + 1)))
		return 0;
	errno = 0;
	*a = strtoul(it, NULL, 10);
	*b = strtoul(dash + 1, NULL, 10);
	*step = colon ? strtoul(colon + 1, NULL, 10) : 1;
	if (errno == ERANGE) /* saturated at ULONG_MAX: a bad range, not a loop */
		*step = 0;
	return 1;
}

static void push_item(char ***items, size_t *n, const char *s, size_t len)
{
	*items = profile_grow(*items, *n, sizeof(**items));
	(*items)[*n] = strndup(s, len);
	if (!(*items)[*n]) {
		errorf("out of memory");
		exit(1);
	}
	(*n)++;
}

int profile_expand_value(const char *where, const char *key, const char *v,
			 char ***items, size_t *n)
{
	const char *p = v;

	*items = NULL;
	*n = 0;
	for (;;) {
		const char *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p);
		unsigned long a, b, step;
		char it[256];
		size_t len;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		len = (size_t)(end - p);
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (!len || len >= sizeof(it)) {
			errorf("%s: %s: %s item in '%s'", where, key,
			       len ? "too long an" : "empty", v);
			goto fail;
		}
		memcpy(it, p, len);
		it[len] = 0;
		if (!parse_range(it, &a, &b, &step)) {
			push_item(items, n, it, len);
		} else if (a > b || !step || (b - a) / step >= MAX_ITEMS) {
			errorf("%s: %s: bad range '%s' (want LOW-HIGH[:STEP], LOW <= HIGH, "
			       "STEP >= 1, at most %d values)", where, key, it, MAX_ITEMS);
			goto fail;
		} else {
			/* by count: x += step must not wrap past ULONG_MAX */
			for (unsigned long k = 0, x = a; k <= (b - a) / step; k++, x += step) {
				char num[32];

				snprintf(num, sizeof(num), "%lu", x);
				push_item(items, n, num, strlen(num));
			}
		}
		if (*n > MAX_ITEMS) {
			errorf("%s: %s: more than %d values", where, key, MAX_ITEMS);
			goto fail;
		}
		if (!comma)
			return 0;
		p = comma + 1;
	}
fail:
	profile_free_items(*items, *n);
	*items = NULL;
	*n = 0;
	return -EINVAL;
}

/* ---- sections into configurations --------------------------------------- */

/* One message in list (a profile's notes or ignored keys), each said once:
 * seen is the hashed set of what the list holds. */
static void say(char ***list, size_t *n, json_t *seen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void say(char ***list, size_t *n, json_t *seen, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (json_object_get(seen, buf))
		return;
	json_object_set_new_nocheck(seen, buf, json_true()); /* bytes, not UTF-8 */
	*list = profile_grow(*list, *n, sizeof(**list));
	(*list)[(*n)++] = strdup(buf);
	if (!(*list)[*n - 1]) {
		errorf("out of memory");
		exit(1);
	}
}

/* A section as it will expand: its keys, each key's values, how many
 * configurations. */
struct plan {
	const struct rsec *s;
	const struct bench_kind *kind;
	struct pkv *kv;
	size_t nkv;
	char ***items; /* items[i]: the values of kv[i], in the pool */
	size_t *cnt;
	size_t total;  /* SIZE_MAX: more than can be counted */
};

struct builder {
	struct profile *p;
	json_t *said; /* notes and ignored keys said already */
	struct plan *plans;
	size_t nplans;
};

/* Which kind runs section s (with its effective keys)? */
static int section_kind(const struct rsec *s, const struct pkv *kv, size_t nkv,
			const struct bench_kind **kind)
{
	const char *name = NULL, *where = s->where;

	for (size_t i = 0; i < nkv; i++)
		if (!strcmp(kv[i].key, "kind")) {
			name = kv[i].value;
			where = kv[i].where;
		}
	if (!name)
		name = bench_kind_by_section(s->name);
	if (!name)
		name = "run";
	*kind = bench_kind_find(name);
	if (!*kind) {
		errorf("%s: unknown section kind '%s' (run, sweep, net, fio, limits)",
		       where, name);
		return -EINVAL;
	}
	return 0;
}

/* Does some kind take key kv?  (If none does, it is a typo:
 * kept, so the section's kind names it as an unknown key.) */
static bool some_kind_takes(const struct pkv *kv)
{
	char why[128];

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		const struct bench_kind *k = kinds[i].kind;

		if (!k->inherits || k->inherits(NULL, kv, why, sizeof(why)))
			return true;
	}
	return false;
}

/* Inherited keys the section's kind does not take: left out, listed. */
static void drop_inherited(struct builder *B, struct plan *pl)
{
	const struct pconf probe = { (char *)pl->s->name, pl->s->where,
				     pl->kind, pl->kv, pl->nkv, false };
	size_t kept = 0;
	char why[256];

	for (size_t i = 0; i < pl->nkv; i++) {
		const struct pkv *kv = &pl->kv[i];

		why[0] = '\0';
		if (kv->from == PKV_SECTION || profile_engine_key(kv->key) ||
		    !pl->kind->inherits ||
		    pl->kind->inherits(&probe, kv, why, sizeof(why)) ||
		    !some_kind_takes(kv)) {
			pl->kv[kept++] = *kv;
			continue;
		}
		if (!why[0])
			snprintf(why, sizeof(why), "not a key of kind %s", pl->kind->name);
		if (kv->from == PKV_GLOBAL)
			say(&B->p->ignored, &B->p->nignored, B->said, "[%s] ignores "
			    "global %s (%s: %s)", pl->s->name, kv->key, kv->where, why);
		else
			say(&B->p->ignored, &B->p->nignored, B->said, "[%s] ignores "
			    "-D %s (%s)", pl->s->name, kv->key, why);
	}
	pl->nkv = kept;
}

/* The section's keys: the [global] ones so far, its own, then -D. */
static void effective_keys(struct builder *B, struct plan *pl,
			   const struct pkv *glob, size_t nglob,
			   char *const *defs, size_t ndefs)
{
	json_t *idx = json_object();

	if (!idx) {
		errorf("out of memory");
		exit(1);
	}
	for (size_t k = 0; k < nglob; k++)
		profile_kv_put(&pl->kv, &pl->nkv, idx, &glob[k]);
	for (size_t k = 0; k < pl->s->nkv; k++)
		profile_kv_put(&pl->kv, &pl->nkv, idx, &pl->s->kv[k]);
	for (size_t k = 0; k < ndefs; k++) {
		const char *eq = strchr(defs[k], '=');
		char key[128];

		snprintf(key, sizeof(key), "%.*s", (int)(eq - defs[k]), defs[k]);
		profile_kv_put(&pl->kv, &pl->nkv, idx, &(struct pkv){
			strpool_dup(B->p->pool, key), strpool_dup(B->p->pool, eq + 1),
			"-D", PKV_DEFINE });
	}
	json_decref(idx);
}

/* Every key's values, into the pool; pl->total their product. */
static int expand_keys(struct builder *B, struct plan *pl)
{
	pl->items = calloc(pl->nkv + 1, sizeof(*pl->items));
	pl->cnt = calloc(pl->nkv + 1, sizeof(*pl->cnt));
	pl->total = 1;
	if (!pl->items || !pl->cnt)
		return -ENOMEM;
	for (size_t i = 0; i < pl->nkv; i++) {
		char **it;
		int ret = profile_expand_value(pl->kv[i].where, pl->kv[i].key,
					       pl->kv[i].value, &it, &pl->cnt[i]);

		if (ret)
			return ret;
		pl->items[i] = calloc(pl->cnt[i], sizeof(char *));
		if (!pl->items[i])
			return -ENOMEM;
		for (size_t k = 0; k < pl->cnt[i]; k++)
			pl->items[i][k] = strpool_dup(B->p->pool, it[k]);
		profile_free_items(it, pl->cnt[i]);
		pl->total = pl->total > SIZE_MAX / pl->cnt[i] ? SIZE_MAX :
			    pl->total * pl->cnt[i];
	}
	return 0;
}

static void plan_free(struct plan *pl)
{
	for (size_t i = 0; pl->items && i < pl->nkv; i++)
		free(pl->items[i]);
	free(pl->items);
	free(pl->cnt);
	free(pl->kv);
}

/* Section s as a plan. */
static int plan_section(struct builder *B, const struct rsec *s,
			const struct pkv *glob, size_t nglob, char *const *defs,
			size_t ndefs)
{
	struct plan pl = { .s = s };
	int ret;

	effective_keys(B, &pl, glob, nglob, defs, ndefs);
	ret = section_kind(s, pl.kv, pl.nkv, &pl.kind);
	if (!ret) {
		drop_inherited(B, &pl);
		ret = expand_keys(B, &pl);
	}
	if (ret) {
		plan_free(&pl);
		return ret;
	}
	B->plans = profile_grow(B->plans, B->nplans, sizeof(*B->plans));
	B->plans[B->nplans++] = pl;
	return 0;
}

/* IOSTRAT_MAX_CONFIGS, else PROFILE_MAX_CONFIGS. */
static int max_configs(size_t *max)
{
	const char *e = getenv("IOSTRAT_MAX_CONFIGS");
	uint64_t v;

	*max = PROFILE_MAX_CONFIGS;
	if (!e || !*e)
		return 0;
	if (parse_u64(e, &v) || v < 1 || v > SIZE_MAX / 2) {
		errorf("IOSTRAT_MAX_CONFIGS: bad value '%s' (a whole number of "
		       "configurations, at least 1)", e);
		return -EINVAL;
	}
	*max = (size_t)v;
	return 0;
}

/* The cap, on the sum of every section's product, before any is built. */
static int check_cap(const struct builder *B)
{
	size_t total = 0, max;
	int ret = max_configs(&max);

	for (size_t i = 0; i < B->nplans; i++)
		total = total > SIZE_MAX - B->plans[i].total ? SIZE_MAX :
			total + B->plans[i].total;
	if (ret || total <= max)
		return ret;
	if (total == SIZE_MAX)
		errorf("%s: more configurations than can be counted, the limit is "
		       "%zu (fewer values in the lists)", B->p->path, max);
	else
		errorf("%s: %zu configurations, the limit is %zu; raise it with "
		       "IOSTRAT_MAX_CONFIGS=%zu", B->p->path, total, max, total);
	return -E2BIG;
}

/* Cross product of a plan's lists, last key varying fastest: each
 * configuration's keys point into the pool, nothing is copied. */
static int expand_plan(struct profile *p, const struct plan *pl)
{
	size_t *idx = calloc(pl->nkv + 1, sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	for (size_t n = 0; n < pl->total; n++) {
		struct pconf *c;

		p->confs = profile_grow(p->confs, p->n, sizeof(*p->confs));
		c = &p->confs[p->n++];
		*c = (struct pconf){ (char *)pl->s->name, pl->s->where, pl->kind,
				     malloc((pl->nkv + 1) * sizeof(*c->kv)), pl->nkv, false };
		if (!c->kv) {
			free(idx);
			return -ENOMEM;
		}
		for (size_t i = 0; i < pl->nkv; i++) {
			c->kv[i] = pl->kv[i];
			c->kv[i].value = pl->items[i][idx[i]];
		}
		for (size_t i = pl->nkv; i-- > 0;) {
			if (++idx[i] < pl->cnt[i])
				break;
			idx[i] = 0;
		}
	}
	free(idx);
	return 0;
}

/* Run configuration c's keys of run_section_settings (fio: it adds
 * configurations beside it) into rs: 0, or -EINVAL after one line. */
static int run_section_of(const struct pconf *c, struct run_section *rs)
{
	settings_defaults(run_section_settings, rs);
	for (size_t k = 0; k < c->nkv; k++) {
		const struct pkv *kv = &c->kv[k];
		const struct setting *s = setting_find(run_section_settings, kv->key);
		char where[256];
		int ret;

		if (!s)
			continue;
		snprintf(where, sizeof(where), "%s: %s", kv->where, kv->key);
		ret = setting_store(s, rs, where, kv->value);
		if (ret)
			return ret;
	}
	return 0;
}

/* fio=1 in a run section: each configuration gets a companion of kind
 * "fio" right after it (the fio baseline on the same data set and
 * settings), when that kind is linked; the fio kind reads the run keys. */
static int add_fio_companions(struct builder *B, size_t first)
{
	struct profile *p = B->p;
	size_t end = p->n;

	for (size_t i = first; i < end; i++) {
		struct pconf *c = &p->confs[i], *f;
		struct run_section rs;
		int ret = run_section_of(c, &rs);

		if (ret)
			return ret;
		if (!rs.fio)
			continue;
		p->confs = profile_grow(p->confs, p->n, sizeof(*p->confs));
		c = &p->confs[i];
		f = &p->confs[p->n++];
		*f = (struct pconf){ c->section, c->where, &bench_kind_fio,
				     malloc((c->nkv + 1) * sizeof(*f->kv)), 0, true };
		if (!f->kv)
			return -ENOMEM;
		for (size_t k = 0; k < c->nkv; k++)
			if (strcmp(c->kv[k].key, "kind") &&
			    !setting_find(run_section_settings, c->kv[k].key))
				f->kv[f->nkv++] = c->kv[k];
		f->kv[f->nkv++] = (struct pkv){ "kind", "fio", c->where, PKV_SECTION };
	}
	return 0;
}

/* Every section but [global] into a plan, the cap, then the
 * configurations. */
static int build(struct builder *B, struct rsec *secs, size_t nsecs,
		 char *const *defs, size_t ndefs)
{
	struct pkv *glob = NULL;
	size_t nglob = 0, nrun = 0;
	json_t *gidx = json_object();
	int ret = gidx ? 0 : -ENOMEM;

	for (size_t i = 0; i < nsecs && !ret; i++) {
		const struct rsec *s = &secs[i];

		if (!strcmp(s->name, "global")) {
			for (size_t k = 0; k < s->nkv; k++) {
				struct pkv g = s->kv[k];

				g.from = PKV_GLOBAL;
				profile_kv_put(&glob, &nglob, gidx, &g);
			}
			continue;
		}
		if (!*s->name) {
			errorf("%s: empty section name", s->where);
			ret = -EINVAL;
			break;
		}
		nrun++;
		ret = plan_section(B, s, glob, nglob, defs, ndefs);
	}
	free(glob);
	json_decref(gidx);
	if (!ret && !nrun) {
		errorf("%s: empty matrix: no section to run (only [global])", B->p->path);
		ret = -EINVAL;
	}
	if (!ret)
		ret = check_cap(B);
	for (size_t i = 0; i < B->nplans && !ret; i++) {
		size_t first = B->p->n;

		ret = expand_plan(B->p, &B->plans[i]);
		if (!ret && B->plans[i].kind == &bench_kind_run)
			ret = add_fio_companions(B, first);
	}
	return ret;
}

int profile_defs_check(const char *who, char *const *defs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(defs[i], '=') || defs[i][0] == '=') {
			errorf("%s-D %s: want KEY=VALUE", who, defs[i]);
			return -EINVAL;
		}
	return 0;
}

int profile_load(const char *path, char *const *defs, size_t ndefs,
		 struct profile *p)
{
	struct builder B = { .p = p };
	const char *base = strrchr(path, '/');
	struct rsec *secs = NULL;
	size_t nsecs = 0, blen;
	int ret;

	memset(p, 0, sizeof(*p));
	if (profile_defs_check("", defs, ndefs))
		return -EINVAL;
	p->pool = strpool_new();
	B.said = json_object();
	if (!p->pool || !B.said) {
		strpool_free(p->pool);
		json_decref(B.said);
		return -ENOMEM;
	}
	base = base ? base + 1 : path;
	blen = strlen(base);
	if (blen > 4 && !strcmp(base + blen - 4, ".ini"))
		blen -= 4;
	p->name = strndup(base, blen);
	p->path = strpool_dup(p->pool, path);
	ret = profile_read(path, p->pool, &secs, &nsecs);
	if (!ret)
		ret = build(&B, secs, nsecs, defs, ndefs);
	for (size_t i = 0; i < B.nplans; i++)
		plan_free(&B.plans[i]);
	free(B.plans);
	json_decref(B.said);
	profile_rsecs_free(secs, nsecs);
	if (ret)
		profile_free(p);
	return ret;
}

void profile_free(struct profile *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->confs[i].kv);
	free(p->confs);
	for (size_t i = 0; i < p->nignored; i++)
		free(p->ignored[i]);
	free(p->ignored);
	free(p->name);
	strpool_free(p->pool);
	memset(p, 0, sizeof(*p));
}

const struct pkv *pconf_kv(const struct pconf *c, const char *key)
{
	for (size_t i = 0; i < c->nkv; i++)
		if (!strcmp(c->kv[i].key, key))
			return &c->kv[i];
	return NULL;
}

const char *pconf_get(const struct pconf *c, const char *key)
{
	const struct pkv *kv = pconf_kv(c, key);

	return kv ? kv->value : NULL;
}

int profile_write(const struct profile *p, FILE *f)
{
	fprintf(f, "; iostrat: the expanded profile '%s' (%s), one section per\n"
		   "; configuration, as run; `iostrat bench --resume DIR` reads it.\n",
		p->name, p->path);
	for (size_t i = 0; i < p->n; i++) {
		const struct pconf *c = &p->confs[i];

		fprintf(f, "\n[%s]\n; from %s\n", c->section, c->where);
		if (!pconf_get(c, "kind"))
			fprintf(f, "kind=%s\n", c->kind->name);
		for (size_t k = 0; k < c->nkv; k++) {
			/* what fio= added is written as sections
			 * of its own */
			if (c->kind == &bench_kind_run &&
			    setting_find(run_section_settings, c->kv[k].key))
				continue;
			fprintf(f, "%s=%s\n", c->kv[k].key, c->kv[k].value);
		}
	}
	return ferror(f) ? -EIO : 0;
}
