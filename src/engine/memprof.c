// SPDX-License-Identifier: MIT
/* Profiles built in memory by a command (run, fio, net, sweep) for the
 * engine: the same struct profile_load makes, one section per call. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config/strpool.h"
#include "bench.h"

int engine_profile_new(struct profile *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	p->pool = strpool_new();
	p->name = strdup(name);
	if (!p->pool || !p->name) {
		profile_free(p);
		return -ENOMEM;
	}
	p->path = strpool_dup(p->pool, name);
	return 0;
}

int engine_profile_add(struct profile *p, const char *section,
		       const struct bench_kind *kind, const char *where,
		       const char *const *kv)
{
	struct pconf *confs, *c;
	size_t n = 0;

	while (kv[2 * n] && kv[2 * n + 1])
		n++;
	confs = realloc(p->confs, (p->n + 1) * sizeof(*confs));
	if (!confs)
		return -ENOMEM;
	p->confs = confs;
	c = &confs[p->n];
	c->kv = calloc(n + 1, sizeof(*c->kv));
	if (!c->kv)
		return -ENOMEM;
	c->section = strpool_dup(p->pool, section);
	c->where = strpool_dup(p->pool, where);
	c->kind = kind;
	c->nkv = n;
	for (size_t i = 0; i < n; i++)
		c->kv[i] = (struct pkv){ strpool_dup(p->pool, kv[2 * i]),
					 strpool_dup(p->pool, kv[2 * i + 1]),
					 c->where, PKV_SECTION };
	p->n++;
	return 0;
}

/* KEY=VALUE set in c: its key's value replaced, or a key added. */
static int define_one(struct profile *p, struct pconf *c, const char *def)
{
	const char *eq = strchr(def, '=');
	char *key = strndup(def, (size_t)(eq - def));
	struct pkv kv, *grown;
	size_t i = 0;

	if (!key)
		return -ENOMEM;
	kv = (struct pkv){ strpool_dup(p->pool, key), strpool_dup(p->pool, eq + 1), "-D",
			   PKV_DEFINE };
	free(key);
	while (i < c->nkv && strcmp(c->kv[i].key, kv.key))
		i++;
	if (i == c->nkv) {
		grown = realloc(c->kv, (c->nkv + 2) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		c->kv = grown;
		c->nkv++;
		c->kv[c->nkv] = (struct pkv){ 0 };
	}
	c->kv[i] = kv;
	return 0;
}

int engine_profile_define(struct profile *p, const char *who, char *const *defs,
			  size_t n)
{
	int ret = profile_defs_check(who, defs, n);

	for (size_t c = 0; !ret && c < p->n; c++)
		for (size_t d = 0; !ret && d < n; d++)
			ret = define_one(p, &p->confs[c], defs[d]);
	return ret;
}
