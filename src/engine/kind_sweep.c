// SPDX-License-Identifier: MIT
/*
 * The "sweep" kind of `iostrat bench`: profiles run sweeps.
 *
 *   [sweep-api]                 ; the kind and the sweep from the name
 *   op=write,read               ; lists expand into configurations, so
 *   api=syscall,stdio-default,stdio-callsize,mmap
 *   block=32,64,4k,32k,whole    ; one configuration = one variant at one
 *   size=1M                     ; block size for one operation
 *
 * Keys: sweep (blocksize|bufsize|api, else the part of the section name
 * after "sweep-"), then the profile keys of the sweep's settings table
 * (opts.c: sweep_setting_find): op, api (or variant), block (a size, or
 * whole for api; alias block_size), buffer (blocksize: a stdio buffer,
 * else stdio's default), size, files and scale (bufsize), cache, fsync,
 * one value each; ops/apis/variants/sizes are the same entries' argv
 * names.  One repetition = one measured child (measure.h), verified
 * against the reference like the command's.  Data files live in the
 * bench's scratch directory, one set per (sweep, files, size), shared by
 * the configurations that need it and removed with the scratch.
 *
 * `iostrat sweep` runs its configurations as sections of this kind too
 * (sweep/common.c, sweep_through.c): it lends its own data files (sweep_kind_lend), and its rows
 * have no section column.  Both make a configuration's config_id in
 * sweep_add_cfg, so the same settings get the same id.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bench.h"
#include "engine/kind_sweep.h"
#include "engine/profile.h"
#include "lib/util.h"
#include "sweep/sweep.h"

/* A data set shared by configurations: files of one shape. */
struct kdata {
	struct sweep_opts o;  /* the shape: kind, files, size */
	struct sweep_run run; /* owns the files and references */
	const struct sweep_run *lent; /* the command's own (sweep_kind_lend) */
	bool ready;
	unsigned refs;
	struct kdata *next;
};

struct kitem {
	struct sweep_opts o;
	struct sweep_run run; /* this item's view of d->run, with its opts */
	struct sweep_cfg *cfg;
	struct kdata *d;
};

static struct kdata *datasets;

static int sweep_of(const struct pconf *c, enum sweep_kind *k)
{
	const struct pkv *kv = pconf_kv(c, "sweep");
	const char *name = kv ? kv->value : NULL;

	if (!name && !strncmp(c->section, "sweep-", 6))
		name = c->section + 6;
	if (name && !sweep_kind_parse(name, k))
		return 0;
	if (kv)
		errorf("%s: sweep: bad value '%s' (blocksize, bufsize or api)",
		       kv->where, kv->value);
	else
		errorf("%s: [%s]: which sweep? name the section [sweep-api], "
		       "[sweep-blocksize] or [sweep-bufsize], or set sweep=",
		       c->where, c->section);
	return -EINVAL;
}

/* A list in one key of an expanded configuration (e.g. block=32..1k). */
static int one_value(const struct pkv *kv, const struct setting *s,
		     const struct sweep_opts *o)
{
	const char *what;
	unsigned n = sweep_opt_count(s, o, &what);

	if (n == 1)
		return 0;
	errorf("%s: %s: one %s per configuration, not '%s' (a list a,b,c "
	       "expands into configurations)", kv->where, kv->key, what, kv->value);
	return -EINVAL;
}

/* One key of a section into o: 0, or -errno after one line. */
static int apply_key(const struct pkv *kv, struct sweep_opts *o)
{
	const struct setting *s = sweep_setting_find(o->kind, kv->key, SET_PROFILE);
	char where[256];
	int ret;

	if (!s) { /* out, dir, keep and reps: the bench decides these */
		errorf("%s: %s: unknown key for a sweep %s section", kv->where,
		       kv->key, sweep_kind_name(o->kind));
		return -ENOENT;
	}
	snprintf(where, sizeof(where), "%s: %s", kv->where, kv->key);
	ret = sweep_opt_set(o, s, where, kv->value);
	return ret ? ret : one_value(kv, s, o);
}

static unsigned bits(unsigned mask)
{
	return (unsigned)__builtin_popcount(mask);
}

/* op= and api= must be given where the sweep's default is several */
static int need_one(const struct pconf *c, unsigned mask, const char *key,
		    const char *choices)
{
	if (bits(mask) == 1)
		return 0;
	errorf("%s: [%s]: %s= is missing (%s; a list runs each)", c->where,
	       c->section, key, choices);
	return -EINVAL;
}

/* Every key into it->o; then exactly one op, api and block. */
static int apply(const struct pconf *c, struct kitem *it)
{
	enum sweep_kind kind;
	int ret = sweep_of(c, &kind);

	if (ret)
		return ret;
	sweep_opts_defaults(&it->o, kind);
	it->o.nsizes = 0;
	it->o.reps = 1; /* the engine counts repetitions */
	for (size_t i = 0; i < c->nkv && !ret; i++)
		if (!profile_engine_key(c->kv[i].key) && strcmp(c->kv[i].key, "sweep"))
			ret = apply_key(&c->kv[i], &it->o);
	if (!ret && !it->o.nsizes) {
		errorf("%s: [%s]: block= is missing (the %s size, e.g. 4k%s)", c->where,
		       c->section, kind == SWEEP_BUFSIZE ? "buffer" : "block",
		       kind == SWEEP_API ? ", or whole" : "");
		ret = -EINVAL;
	}
	if (!ret)
		ret = need_one(c, it->o.ops, "op", "write or read");
	if (!ret && kind == SWEEP_API)
		ret = need_one(c, it->o.avariants, "api", sweep_api_variant_names());
	else if (!ret)
		ret = need_one(c, it->o.apis, "api", "syscall, stdio, iostream or mmap");
	return ret ? ret : (sweep_opts_check(&it->o) ? -EINVAL : 0);
}

static int sweep_kind_check(const struct bench_ctx *ctx, const struct pconf *c, char *why,
		       size_t len)
{
	struct kitem it;

	(void)ctx;
	(void)why;
	(void)len;
	return apply(c, &it);
}

static uint64_t file_size(const struct sweep_opts *o)
{
	return o->kind == SWEEP_BUFSIZE ?
		(uint64_t)floor((double)o->size * o->scale) : o->size;
}

static unsigned nfiles(const struct sweep_opts *o)
{
	return o->kind == SWEEP_BUFSIZE ? o->files : 1;
}

/* The shared data set of this shape (created at its first repetition). */
static struct kdata *data_for(const struct sweep_opts *o)
{
	struct kdata *d;

	for (d = datasets; d; d = d->next)
		if (nfiles(&d->o) == nfiles(o) && file_size(&d->o) == file_size(o) &&
		    d->o.kind == o->kind)
			break;
	if (!d) {
		d = calloc(1, sizeof(*d));
		if (!d)
			return NULL;
		d->o = *o;
		d->o.ops = 1u << OP_WRITE | 1u << OP_READ;
		d->next = datasets;
		datasets = d;
	}
	d->refs++;
	return d;
}

int sweep_kind_lend(const struct sweep_run *r)
{
	struct kdata *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	d->o = *r->o;
	d->o.size = r->data_size; /* the shape as file_size() finds it */
	d->o.scale = 1;
	d->lent = r;
	d->ready = true;
	d->next = datasets;
	datasets = d;
	return 0;
}

static void unlink_data(struct kdata *d)
{
	struct kdata **pp;

	for (pp = &datasets; *pp != d; pp = &(*pp)->next)
		;
	*pp = d->next;
}

void sweep_kind_unlend(void)
{
	struct kdata *d = datasets, *next;

	for (; d; d = next) {
		next = d->next;
		if (!d->lent)
			continue;
		unlink_data(d);
		free(d);
	}
}

static int data_ready(struct bench_ctx *ctx, struct kdata *d)
{
	char dir[PATH_MAX];
	int ret;

	if (d->ready)
		return 0;
	snprintf(dir, sizeof(dir), "%s/sweep-%s-%ux%llu", ctx->scratch,
		 sweep_kind_name(d->o.kind), nfiles(&d->o),
		 (unsigned long long)file_size(&d->o));
	d->o.dir = dir;
	ret = sweep_data_setup(&d->run, &d->o, nfiles(&d->o), file_size(&d->o));
	d->o.dir = NULL;
	d->ready = !ret;
	return ret;
}

/* The id is the configuration's own (sweep_add_cfg), whoever runs it. */
static void name_item(struct kitem *it, struct bench_item *bi)
{
	const struct sweep_cfg *c = it->cfg;
	char sz[32];

	snprintf(bi->id, sizeof(bi->id), "%s", c->id);
	snprintf(bi->label, sizeof(bi->label), "sweep %s %s %s %s",
		 sweep_kind_name(it->o.kind), sweep_op_name(c->op), c->variant,
		 sweep_size_str(c->block, c->whole, sz, sizeof(sz)));
}

static int first_bit(unsigned mask)
{
	int i = 0;

	while (mask && !(mask & 1u)) {
		mask >>= 1;
		i++;
	}
	return i;
}

static int sweep_kind_prepare(struct bench_ctx *ctx, struct bench_item *bi)
{
	struct kitem *it = calloc(1, sizeof(*it));
	size_t block;
	int ret;

	if (!it)
		return -ENOMEM;
	ret = apply(bi->pc, it);
	if (ret) {
		free(it);
		return ret;
	}
	it->run.o = &it->o;
	it->run.data_size = file_size(&it->o);
	block = it->o.sizes[0];
	if (it->o.kind == SWEEP_API)
		it->cfg = sweep_add_api_cfg(&it->run, (enum sweep_op)first_bit(it->o.ops),
					    (enum api_variant)first_bit(it->o.avariants),
					    block, block == SWEEP_WHOLE);
	else
		it->cfg = sweep_add_cfg(&it->run, (enum sweep_op)first_bit(it->o.ops),
					(enum sweep_api)first_bit(it->o.apis), block,
					false, it->o.nbuffers ? it->o.buffers[0] : 0);
	it->d = it->cfg ? data_for(&it->o) : NULL;
	bi->priv = it;
	if (!it->d)
		return error_errno(-ENOMEM, bi->pc->where, "sweep configuration");
	(void)ctx;
	name_item(it, bi);
	/* a rough guess for the dry run and the eta: a microsecond a call */
	bi->est_s = 0.05 + (double)it->run.data_size * nfiles(&it->o) /
		(double)(it->cfg->block ? it->cfg->block : 1) * 1e-6;
	return 0;
}

/* This item's view of the shared files, with its own options. */
static void view(struct kitem *it)
{
	const struct sweep_run *s = it->d->lent ? it->d->lent : &it->d->run;

	memcpy(it->run.dir, s->dir, sizeof(it->run.dir));
	memcpy(it->run.wpath, s->wpath, sizeof(it->run.wpath));
	it->run.data = s->data;
	it->run.ndata = s->ndata;
	it->run.fl = s->fl;
	it->run.env = s->env;
	it->run.ref_read = s->ref_read;
	it->run.ref_write = s->ref_write;
}

static int sweep_kind_rep(struct bench_ctx *ctx, struct bench_item *bi,
		      unsigned rep, json_t **row)
{
	struct kitem *it = bi->priv;
	int ret = data_ready(ctx, it->d);

	*row = NULL;
	if (ret)
		return ret;
	view(it);
	it->o.bench = ctx->name;
	it->cfg->n = 0; /* the engine keeps the samples */
	ret = sweep_rep(&it->run, it->cfg, rep, row);
	if (*row && !ctx->cmd)
		json_object_set_new(*row, "section", json_text(bi->pc->section));
	return ret;
}

static void sweep_kind_release(struct bench_item *bi)
{
	struct kitem *it = bi->priv;

	if (it->d && --it->d->refs == 0 && !it->d->lent) {
		unlink_data(it->d);
		sweep_data_free(&it->d->run);
		free(it->d);
	}
	it->run.data = NULL; /* borrowed */
	it->run.ndata = 0;
	it->run.fl = NULL;
	it->run.env = NULL;
	sweep_data_free(&it->run);
}

/* Does a section of sweep k take key? */
static bool sweep_key(enum sweep_kind k, const char *key)
{
	return !strcmp(key, "sweep") || sweep_setting_find(k, key, SET_PROFILE);
}

/* A key from [global] or -D: taken if the sweep takes it, but a scale
 * never scales a size written in the section itself (an explicit size is
 * never changed behind the user's back). */
static bool sweep_kind_inherits(const struct pconf *c, const struct pkv *kv,
			   char *why, size_t len)
{
	const struct pkv *sw = c ? pconf_kv(c, "sweep") : NULL, *size;
	const char *name = sw ? sw->value : c && !strncmp(c->section, "sweep-", 6) ?
			   c->section + 6 : NULL;
	enum sweep_kind k;

	if (!c) {
		for (int i = 0; i < SWEEP_NKINDS; i++)
			if (sweep_key((enum sweep_kind)i, kv->key))
				return true;
		return false;
	}
	if (!name || sweep_kind_parse(name, &k))
		return true; /* which sweep is the check's to say */
	if (!sweep_key(k, kv->key)) {
		snprintf(why, len, "not a key of sweep %s", sweep_kind_name(k));
		return false;
	}
	size = pconf_kv(c, "size");
	if (!strcmp(kv->key, "scale") && size && size->from == PKV_SECTION) {
		snprintf(why, len, "its own size=%s is not scaled", size->value);
		return false;
	}
	return true;
}

BENCH_KIND(sweep, .release = sweep_kind_release);
