// SPDX-License-Identifier: MIT
/*
 * The "fio" kind: the fio baseline beside a run configuration.
 *
 * A run section with fio=1 gets, per configuration, a companion of this
 * kind carrying the same keys (profile.c); a [fio] section (kind=fio) can
 * also name a job= explicitly.  The job is the one whose "; mirrors:" line
 * names the strategy (fio_job_for scans fio-jobs/; fio/fio.h), run on the same data set with the same
 * cache state.  Its config_id leaves out threads and work (fio does no
 * transform and one stream of I/O), so the engine runs one baseline per
 * data set, cache state, block size and queue depth, not one per thread
 * count.
 *
 * The keys are fio_settings' (fio/fio_opts.c).  Block size: bs= if set,
 * else chunk=, else bufsize=, else what the strategy uses by default (its
 * default_io, else 1 MiB).  QD: qd=, else the strategy's default_qd, else
 * 8 (only the io_uring jobs use it).  fsync=file -> fio's fsync_on_close=1, end -> end_fsync=1,
 * none -> neither; the row's fsync is the one fio was given.
 *
 * client=HOST[:PORT],... runs the job on those hosts through fio's own
 * client: a repetition is then an array of rows, one per host.
 * `iostrat fio` is this kind on an in-memory profile (ctx->cmd "fio"):
 * the same keys make the same config_id, fio's JSON lies beside them as
 * fio-JOB-repN.json, and a job fio refused leaves no row.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/fio.h"
#include "harness/runner.h"
#include "results/config_id.h"
#include "lib/util.h"
#include "bench.h"

struct fiop {
	char job[PATH_MAX];
	const char *preset;
	double scale;
	uint64_t seed;
	struct fio_config set;      /* the section's keys (fio_settings) */
	struct fio_client *clients; /* client=HOST[:PORT],...: fio --client */
	size_t nclients;
	struct bench_dataset *ds;
};

static int fio_ok = -1; /* fio installed? asked once */

/* The section's keys by fio_settings, the data set's by the engine; a
 * run's other keys (threads, work, a strategy's options) are of no use to
 * the baseline.  dontcache is not passed on either: fio 3.33 has no
 * uncached=1, so the job runs cached, and the report pairs it with no
 * --dontcache run (fio_can_mirror).  Then bs, qd and direct as the
 * strategy runs. */
static int settings(const struct pconf *c, struct fiop *fp, const char **strat)
{
	const struct strategy *st;
	int ret = 0;

	settings_defaults(fio_settings, &fp->set);
	*strat = pconf_get(c, "strategy");
	for (size_t i = 0; i < c->nkv && !ret; i++) {
		const struct pkv *kv = &c->kv[i];
		const struct setting *s = setting_find(fio_settings, kv->key);
		char where[256];

		if (s && (s->where & SET_PROFILE)) {
			snprintf(where, sizeof(where), "%s: %s", kv->where, kv->key);
			ret = setting_store(s, &fp->set, where, kv->value);
		} else if ((ret = bench_data_key(kv, &fp->preset, &fp->scale,
						 &fp->seed)) == -ENOENT)
			ret = 0;
	}
	if (!ret && fp->set.client)
		ret = fio_clients_parse(fp->set.client, &fp->clients, &fp->nclients);
	st = *strat ? strategy_find(*strat) : NULL;
	fio_config_resolve(&fp->set, *strat, st && (st->flags & STRAT_ALWAYS_DIRECT));
	return ret;
}

/* 0, 1 (skip, *why), or negative after printing. */
static int apply(const struct pconf *c, struct fiop *fp, char *why, size_t len)
{
	const char *strat, *job;
	char ver[64];
	int ret;

	memset(fp, 0, sizeof(*fp));
	fp->scale = 1.0;
	fp->seed = 1;
	ret = settings(c, fp, &strat);
	if (ret)
		return ret;
	job = fp->set.job;
	if (!fp->preset) {
		errorf("%s: [%s]: no dataset= for the fio baseline", c->where, c->section);
		return -EINVAL;
	}
	if (fio_ok < 0)
		fio_ok = !fio_version(ver, sizeof(ver));
	if (!fio_ok) {
		snprintf(why, len, "fio is not installed: no fio baselines (apt-get "
			 "install fio)");
		return 1;
	}
	if (fio_job_env_check())
		return -EINVAL;
	if (job)
		ret = fio_job_path(job, fp->job, sizeof(fp->job));
	else if (strat)
		ret = fio_job_for(strat, fp->set.direct, fp->job, sizeof(fp->job));
	else
		ret = -ENOENT;
	if (ret && job) {
		errorf("%s: job: no fio job '%s' (fio-jobs/)", pconf_kv(c, "job")->where, job);
		return -EINVAL;
	}
	if (ret == -EINVAL)
		return ret; /* a job file without "; mirrors:", named */
	if (ret) {
		snprintf(why, len, "no fio job mirrors strategy '%s'%s; no baseline for it",
			 strat ? strat : "(none)", fp->set.direct ? " with direct=1" : "");
		return 1;
	}
	return 0;
}

static int fio_kind_check(const struct bench_ctx *ctx, const struct pconf *c, char *why,
		     size_t len)
{
	struct fiop fp;
	int ret = apply(c, &fp, why, len);

	(void)ctx;
	free(fp.clients);
	return ret;
}

static const char *job_stem(const char *job, char *buf, size_t len)
{
	const char *base = strrchr(job, '/') ? strrchr(job, '/') + 1 : job;

	snprintf(buf, len, "%.*s", (int)strcspn(base, "."), base);
	return buf;
}

/* DATASET/fio-JOB/ and the id parts of fio_settings: `iostrat fio` and a
 * bench's fio section alike (--client adds /host=HOST per row). */
static void fio_config_id(const struct fiop *fp, char *id, size_t len)
{
	const struct setting *const tables[] = { fio_settings, NULL };
	const void *const objs[] = { &fp->set };
	char stem[128], head[160];

	snprintf(head, sizeof(head), "fio-%s", job_stem(fp->job, stem, sizeof(stem)));
	config_id_make(id, len, fp->ds->label, head, tables, objs);
}

static int fio_kind_prepare(struct bench_ctx *ctx, struct bench_item *it)
{
	struct fiop *fp = calloc(1, sizeof(*fp));
	char why[256], stem[128];
	int ret;

	if (!fp)
		return -ENOMEM;
	ret = apply(it->pc, fp, why, sizeof(why));
	if (!ret)
		ret = bench_dataset_get(ctx, pconf_kv(it->pc, "dataset")->where,
					fp->preset, fp->scale, fp->seed, &fp->ds);
	if (ret) {
		free(fp->clients);
		free(fp);
		return ret < 0 ? ret : -EINVAL;
	}
	fio_config_id(fp, it->id, sizeof(it->id));
	job_stem(fp->job, stem, sizeof(stem));
	snprintf(it->label, sizeof(it->label), "fio %s bs=%llu %s", stem,
		 (unsigned long long)fp->set.bs, fp->ds->label);
	it->est_s = 0.3 + (double)bench_dataset_bytes(fp->preset, fp->scale) / 300e6;
	it->priv = fp;
	return 0;
}

/* Where fio's own JSON of a repetition is kept: a bench's under fio/,
 * `iostrat fio`'s beside its rows, as it always was. */
static int json_path(const struct bench_ctx *ctx, const struct bench_item *it,
		     unsigned rep, char *out, size_t len)
{
	const struct fiop *fp = it->priv;
	char dir[PATH_MAX], stem[128];
	int ret;

	job_stem(fp->job, stem, sizeof(stem));
	if (ctx->cmd) {
		snprintf(out, len, "%s/fio-%s-rep%u.json", ctx->res->path, stem, rep);
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/fio", ctx->res->path);
	ret = mkdir_p(dir, 0755);
	if (ret)
		return error_errno(ret, dir, "creating");
	snprintf(out, len, "%s/%s-%s-bs%llu-qd%u%s-%s-rep%u.json", dir,
		 fp->ds->label, stem, (unsigned long long)fp->set.bs, fp->set.qd,
		 fp->set.direct ? "-direct" : "", cache_mode_name(fp->set.cache), rep);
	return 0;
}

/* fio on every host (client=): an array of rows, one per host.  A host
 * whose job failed (-EIO) keeps its row with its error beside the others';
 * fio itself failing leaves none. */
static int run_clients(const struct fio_params *p, json_t **row)
{
	int ret = fio_run_clients(p, row);

	if (ret && ret != -EIO) {
		json_decref(*row);
		*row = NULL;
	}
	return ret;
}

static void label_row(const struct bench_ctx *ctx, const struct bench_item *it,
		      unsigned rep, json_t *row)
{
	const struct fiop *fp = it->priv;

	json_object_set_new(row, "rep", json_integer(rep));
	if (ctx->cmd) /* `iostrat fio`: no section, scale or seed */
		return;
	json_object_set_new(row, "section", json_text(it->pc->section));
	json_object_set_new(row, "scale", json_real(fp->scale));
	json_object_set_new(row, "seed", json_integer((json_int_t)fp->seed));
}

static int fio_kind_rep(struct bench_ctx *ctx, struct bench_item *it, unsigned rep,
		   json_t **row)
{
	struct fiop *fp = it->priv;
	char json_out[PATH_MAX];
	struct fio_params p = {
		.job = fp->job, .in_dir = fp->ds->dir, .fl = &fp->ds->fl,
		.scratch = fp->ds->out, .set = &fp->set, .config_id = it->id,
		.json_out = json_out, .bench = ctx->cmd ? NULL : ctx->name,
		.dataset = fp->ds->label, .clients = fp->clients,
		.nclients = fp->nclients,
	};
	json_t *one;
	size_t i;
	int ret;

	*row = NULL;
	ret = json_path(ctx, it, rep, json_out, sizeof(json_out));
	if (ret)
		return ret;
	/* the scratch of fio --client is on the hosts, not here */
	if (!fp->nclients && (ret = mkdir_p(fp->ds->out, 0755)))
		return error_errno(ret, fp->ds->out, "creating");
	ret = fp->nclients ? run_clients(&p, row) : fio_run(&p, row);
	if (ret && ctx->cmd && !fp->nclients) { /* `iostrat fio`: no row */
		json_decref(*row);
		*row = NULL;
	}
	if (json_is_array(*row))
		json_array_foreach(*row, i, one)
			label_row(ctx, it, rep, one);
	else if (*row)
		label_row(ctx, it, rep, *row);
	return ret;
}

static void fio_kind_release(struct bench_item *it)
{
	free(((struct fiop *)it->priv)->clients);
}

/* A baseline reads its table's keys and a run section's (the strategy,
 * the data set; the rest it has no use for) */
static bool fio_kind_inherits(const struct pconf *c, const struct pkv *kv,
			 char *why, size_t len)
{
	const struct setting *s = setting_find(fio_settings, kv->key);

	(void)c, (void)why, (void)len;
	return (s && (s->where & SET_PROFILE)) || bench_run_key(kv->key);
}

BENCH_KIND(fio, .release = fio_kind_release);
