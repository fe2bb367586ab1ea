// SPDX-License-Identifier: MIT
/*
 * The "run" kind: one configuration = one strategy on one data set with
 * the settings of `iostrat run` (jobopt_set, so run and bench accept the
 * same keys); one repetition = runner_rep(), with the probes attached
 * only on a traced repetition (trace=1: the engine's it->tracing); a
 * cell = the configurations that differ only by strategy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/jobopts.h"
#include "results/config_id.h"
#include "harness/runner.h"
#include "trace/hooks.h"
#include "harness/cgroup.h"
#include "lib/util.h"
#include "bench.h"

struct runp {
	struct run_config cfg;
	const char *preset;
	double scale;
	uint64_t seed;
	bool trace;
	struct bench_dataset *ds;
};

static bool other_strategy_opt(const char *key)
{
	const struct strategy *s;

	for (size_t i = 0; (s = strategy_at(i)); i++)
		if (s->opts && setting_find(s->opts, key))
			return true;
	return false;
}

static int bool_key(const struct pkv *kv, bool *out)
{
	if (!parse_bool(kv->value, out))
		return 0;
	errorf("%s: %s: bad value '%s' (1/0, true/false, yes/no or on/off)", kv->where, kv->key,
	       kv->value);
	return -EINVAL;
}

/* The key of c that looks like a misspelt strategy= ("stratgey"), or NULL. */
static const struct pkv *strategy_typo(const struct pconf *c)
{
	static const struct setting strategy_key[] = {
		{ .name = "strategy", .where = SET_PROFILE }, { 0 },
	};
	const struct setting *const tables[] = { strategy_key };

	for (size_t i = 0; i < c->nkv; i++)
		if (setting_nearest(tables, 1, SET_PROFILE, c->kv[i].key,
				    strlen(c->kv[i].key)))
			return &c->kv[i];
	return NULL;
}

#define NO_DATASET "no dataset= (small, medium-short, medium-long, big)"

/* No strategy=: a misspelt key named, else every missing key in one line. */
static int no_strategy(const struct pconf *c)
{
	const struct pkv *typo = strategy_typo(c);

	if (typo)
		errorf("%s: unknown key '%s'; did you mean strategy=?", typo->where,
		       typo->key);
	else
		errorf("%s: [%s]: no strategy= (iostrat list shows them)%s", c->where,
		       c->section, pconf_get(c, "dataset") ? "" : "; " NO_DATASET);
	return -EINVAL;
}

/* key is nobody's: one line naming it, and the nearest key when one is
 * close. */
static void unknown_key(const struct runp *rp, const struct pkv *kv)
{
	const struct setting *const tables[] = {
		run_section_settings, run_settings, rp->cfg.strat->opts,
	};
	const char *near = setting_nearest(tables, 3, SET_PROFILE, kv->key,
					   strlen(kv->key));

	if (near)
		errorf("%s: unknown key '%s'; did you mean %s=?", kv->where, kv->key,
		       near);
	else
		errorf("%s: unknown key '%s'", kv->where, kv->key);
}

/* Apply every key of c to rp.  0, 1 (skip: *why), or negative (printed). */
static int apply(const struct pconf *c, struct runp *rp, char *why, size_t len)
{
	const char *name = pconf_get(c, "strategy");
	struct run_section sec;
	int ret;

	memset(rp, 0, sizeof(*rp));
	jobopt_defaults(&rp->cfg);
	rp->scale = 1.0;
	rp->seed = 1;
	if (!name)
		return no_strategy(c);
	if (jobopt_strategy(&rp->cfg, name)) {
		errorf("%s: strategy: unknown strategy '%s' (iostrat list shows them)",
		       pconf_kv(c, "strategy")->where, name);
		return -EINVAL;
	}
	for (size_t i = 0; i < c->nkv; i++) {
		const struct pkv *kv = &c->kv[i];
		const struct setting *s = setting_find(run_section_settings, kv->key);
		char where[256];

		if (profile_engine_key(kv->key) || !strcmp(kv->key, "strategy"))
			continue;
		if (!strcmp(kv->key, "trace")) {
			ret = bool_key(kv, &rp->trace);
			if (!ret && rp->trace)
				ret = tracer_check();
		} else if (s) { /* fio: profile.c adds what it asks for */
			snprintf(where, sizeof(where), "%s: %s", kv->where, kv->key);
			ret = setting_store(s, &sec, where, kv->value);
		} else if ((ret = bench_data_key(kv, &rp->preset, &rp->scale,
					       &rp->seed)) == -ENOENT)
			ret = jobopt_set(&rp->cfg, kv->where, kv->key, kv->value);
		/* an option of another strategy of the matrix: not for this one */
		if (ret == -ENOENT && other_strategy_opt(kv->key))
			continue;
		if (ret == -ENOENT)
			unknown_key(rp, kv);
		if (ret)
			return ret;
	}
	if (!rp->preset) {
		errorf("%s: [%s]: " NO_DATASET, c->where, c->section);
		return -EINVAL;
	}
	ret = jobopt_transform(&rp->cfg);
	if (ret)
		return ret;
	/* a grid's bufsize/chunk/qd for the strategies that use them */
	job_check_knobs(rp->cfg.strat, &rp->cfg.job, true, why, len);
	if (job_check_modes(rp->cfg.strat, &rp->cfg.job, why, len)) {
		snprintf(why + strlen(why), len - strlen(why), "; skipped");
		return 1;
	}
	return 0;
}

/* The modes tried where the data set is read and its outputs written
 * (--dontcache: their file systems): 0, or 1 (skip: *why). */
static int check_where(const struct bench_ctx *ctx, struct runp *rp, char *why,
		       size_t len)
{
	char in[4096], out[4096];

	if (bench_dataset_paths(ctx, rp->preset, rp->scale, rp->seed, in, out,
				sizeof(in)))
		return 0; /* an unknown preset: prepare names it */
	rp->cfg.job.in_dir = in;
	rp->cfg.job.out_dir = out;
	if (!job_check_where(rp->cfg.strat, &rp->cfg.job, why, len))
		return 0;
	snprintf(why + strlen(why), len - strlen(why), "; skipped");
	return 1;
}

static int run_kind_check(const struct bench_ctx *ctx, const struct pconf *c, char *why,
		     size_t len)
{
	struct runp rp;
	int ret = apply(c, &rp, why, len);

	if (!ret)
		ret = check_where(ctx, &rp, why, len);
	jobopt_free(&rp.cfg);
	return ret;
}

static void make_id(struct bench_item *it, const struct runp *rp)
{
	runner_config_id(&rp->cfg, rp->ds->label, it->id, sizeof(it->id));
}

/* Seconds per repetition, roughly: a fixed cost (the cache drop, checks
 * and rows between repetitions), the I/O, the transform passes spread over
 * the threads -- measured on the 2-vCPU VM of docs/verdict.md ("The
 * default profile": 0.14 s between repetitions, stream's cold 150 MB copy
 * 0.19 s, 75 MB at W=100 0.34 s).  Only for --dry-run and the ETA of a
 * configuration that has not run yet. */
static double estimate(const struct runp *rp)
{
	double bytes = (double)bench_dataset_bytes(rp->preset, rp->scale);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned t = rp->cfg.job.threads;

	if (cpus < 1)
		cpus = 1;
	return 0.15 + bytes / 800e6 +
	       bytes * rp->cfg.job.work / 30e9 / (double)MIN((long)t, cpus);
}

/* The progress line's label: "stream threads=1 work=0 [memory_max=32 MiB ]big". */
static void label(struct bench_item *it, const struct runp *rp)
{
	char mem[64] = "", lim[32];

	if (rp->cfg.memory_max)
		snprintf(mem, sizeof(mem), "memory_max=%s ",
			 fmt_limit(rp->cfg.memory_max, lim, sizeof(lim)));
	snprintf(it->label, sizeof(it->label), "%s threads=%u work=%u %s%s",
		 rp->cfg.strat->name, rp->cfg.job.threads, rp->cfg.job.work, mem,
		 rp->ds->label);
}

static int run_kind_prepare(struct bench_ctx *ctx, struct bench_item *it)
{
	struct runp *rp = calloc(1, sizeof(*rp));
	char why[256];
	int ret;

	if (!rp)
		return -ENOMEM;
	ret = apply(it->pc, rp, why, sizeof(why));
	if (!ret)
		ret = cgroup_check(rp->cfg.memory_max);
	if (!ret)
		ret = bench_dataset_get(ctx, pconf_kv(it->pc, "dataset")->where,
					rp->preset, rp->scale, rp->seed, &rp->ds);
	if (ret) {
		jobopt_free(&rp->cfg);
		free(rp);
		return ret < 0 ? ret : -EINVAL;
	}
	rp->cfg.bench = ctx->cmd ? NULL : ctx->name; /* NULL: `iostrat run` */
	rp->cfg.dataset = rp->ds->label;
	rp->cfg.env = ctx->env;
	make_id(it, rp);
	rp->cfg.config_id = it->id;
	label(it, rp);
	it->est_s = estimate(rp);
	it->priv = rp;
	return 0;
}

static bool tracer_failed; /* tracer_open said why, once */

/* The probes of a traced repetition; none on a timed one. */
static const struct rep_hooks *trace_on(struct bench_item *it)
{
	struct runp *rp = it->priv;
	const struct rep_hooks *h;

	if (!it->tracing || !rp->trace || tracer_failed)
		return NULL;
	h = tracer_open(&rp->cfg);
	tracer_failed = !h;
	return h;
}

static bool run_kind_traced(const struct bench_item *it)
{
	const struct runp *rp = it->priv;

	return rp->trace && !tracer_failed;
}

/* Every run setting, the strategy left out ("*"). */
static void run_kind_cell(const struct bench_item *it, char *key, size_t len)
{
	const struct runp *rp = it->priv;
	const struct setting *tables[] = { run_settings, NULL };
	const void *objs[] = { &rp->cfg };

	config_id_make(key, len, rp->ds->label, "*", tables, objs);
}

static int run_kind_rep(struct bench_ctx *ctx, struct bench_item *it, unsigned rep,
		   json_t **row)
{
	struct runp *rp = it->priv;
	const char *ref = NULL;
	bool untraced;
	int ret;

	*row = NULL;
	rp->cfg.env = ctx->env; /* captured after prepare: the data dir exists */
	rp->cfg.job.in_dir = rp->ds->dir;
	rp->cfg.job.out_dir = rp->ds->out;
	runner_set_files(&rp->cfg, &rp->ds->fl);
	if (rp->cfg.job.sink != SINK_NULL && !(rp->cfg.strat->flags & STRAT_NO_OUTPUT)) {
		ret = bench_dataset_ref(rp->ds, rp->cfg.job.xform, rp->cfg.job.work, &ref);
		if (ret)
			return ret;
	}
	rp->cfg.hooks = trace_on(it);
	untraced = it->tracing && !rp->cfg.hooks;
	ret = runner_rep(&rp->cfg, &rp->ds->fl, rep, ref, row);
	tracer_close(rp->cfg.hooks);
	rp->cfg.hooks = NULL;
	if (*row && untraced)
		tracer_mark_untraced(*row);
	if (*row && !ctx->cmd) { /* a bench's: where in the profile */
		json_object_set_new(*row, "section", json_text(it->pc->section));
		json_object_set_new(*row, "scale", json_real(rp->scale));
		json_object_set_new(*row, "seed", json_integer((json_int_t)rp->seed));
		if (it->stop == STOP_RULE_RSD) /* the report flags a spread above it */
			json_object_set_new(*row, "target_rsd", json_real(it->target_rsd));
	}
	return ret;
}

static void run_kind_release(struct bench_item *it)
{
	jobopt_free(&((struct runp *)it->priv)->cfg);
}

bool bench_run_key(const char *key)
{
	static const char *const own[] = { "strategy", "dataset", "scale",
					   "seed", "trace" };
	const struct run_config none = { 0 }; /* the keys of every strategy */

	for (size_t i = 0; i < ARRAY_SIZE(own); i++)
		if (!strcmp(key, own[i]))
			return true;
	return setting_find(run_section_settings, key) || jobopt_known(&none, key) ||
	       other_strategy_opt(key);
}

static bool run_kind_inherits(const struct pconf *c, const struct pkv *kv,
			 char *why, size_t len)
{
	(void)c, (void)why, (void)len;
	return bench_run_key(kv->key);
}

BENCH_KIND(run, .release = run_kind_release, .cell = run_kind_cell, .traced = run_kind_traced);
