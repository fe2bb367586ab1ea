// SPDX-License-Identifier: MIT
/*
 * The data cache of a bench: every data set a profile names is generated
 * once into DATA/<preset>-s<scale>-seed<N> (reused by later benches when
 * its manifest matches) with a scratch output directory beside the other
 * outputs of the bench.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/checksum.h"
#include "results/dataset.h"
#include "lib/util.h"
#include "bench.h"

uint64_t bench_dataset_bytes(const char *preset, double scale)
{
	struct dataset_spec spec;

	if (dataset_preset(preset, scale, &spec))
		return 0;
	return dataset_bytes(&spec);
}

int bench_data_key(const struct pkv *kv, const char **preset, double *scale,
		   uint64_t *seed)
{
	if (!strcmp(kv->key, "dataset")) {
		*preset = kv->value;
		return 0;
	}
	if (!strcmp(kv->key, "scale")) {
		if (!parse_double(kv->value, scale) && *scale > 0 && *scale <= 1000)
			return 0;
		errorf("%s: scale: bad value '%s' (a number in (0, 1000])",
		       kv->where, kv->value);
		return -EINVAL;
	}
	if (strcmp(kv->key, "seed"))
		return -ENOENT;
	if (!parse_u64(kv->value, seed))
		return 0;
	errorf("%s: seed: bad value '%s' (a whole number)", kv->where, kv->value);
	return -EINVAL;
}

const char *bench_data_root(const char *given)
{
	const char *env = getenv("IOSTRAT_DATA");

	if (given && *given)
		return given;
	return env && *env ? env : "data";
}

void bench_dataset_dir(const char *root, const char *preset, double scale,
		       uint64_t seed, char *out, size_t len)
{
	snprintf(out, len, "%s/%s-s%g-seed%llu", root, preset, scale,
		 (unsigned long long)seed);
}

/* A preset's directory in the data cache, or the user's directory. */
static int dataset_dir(const struct bench_ctx *ctx, const char *preset, double scale,
		       uint64_t seed, char *dir, size_t len)
{
	struct dataset_spec spec;

	if (strchr(preset, '/')) { /* a directory of the user's, used as is */
		snprintf(dir, len, "%s", preset);
		return 0;
	}
	if (dataset_preset(preset, scale, &spec))
		return -EINVAL;
	bench_dataset_dir(ctx->data_root, preset, scale, seed, dir, len);
	return 0;
}

/* The scratch output directory of the data set in dir. */
static void dataset_out(const struct bench_ctx *ctx, const char *dir, char *out,
			size_t len)
{
	const char *base = strrchr(dir, '/');

	base = base && base[1] ? base + 1 : dir;
	if (ctx->out_dir)
		snprintf(out, len, "%s", ctx->out_dir);
	else
		snprintf(out, len, "%s/%s", ctx->scratch, base);
}

int bench_dataset_paths(const struct bench_ctx *ctx, const char *preset, double scale,
			uint64_t seed, char *dir, char *out, size_t len)
{
	int ret = dataset_dir(ctx, preset, scale, seed, dir, len);

	if (!ret)
		dataset_out(ctx, dir, out, len);
	return ret;
}

int bench_dataset_get(struct bench_ctx *ctx, const char *where,
		      const char *preset, double scale, uint64_t seed,
		      struct bench_dataset **out)
{
	struct bench_dataset *ds, **nds;
	char dir[4096];
	const char *base;

	if (dataset_dir(ctx, preset, scale, seed, dir, sizeof(dir))) {
		errorf("%s: dataset: unknown data set '%s' (small, medium-short, "
		       "medium-long, big, or a directory path)", where, preset);
		return -EINVAL;
	}
	for (size_t i = 0; i < ctx->nds; i++)
		if (!strcmp(ctx->ds[i]->dir, dir)) {
			*out = ctx->ds[i];
			return 0;
		}
	nds = realloc(ctx->ds, (ctx->nds + 1) * sizeof(struct bench_dataset *));
	if (!nds) {
		errorf("out of memory");
		return -ENOMEM;
	}
	ctx->ds = nds;
	ds = calloc(1, sizeof(*ds));
	if (!ds) {
		errorf("out of memory");
		return -ENOMEM;
	}
	snprintf(ds->dir, sizeof(ds->dir), "%s", dir);
	base = strrchr(dir, '/');
	base = base && base[1] ? base + 1 : dir;
	if (ctx->data_label)
		snprintf(ds->label, sizeof(ds->label), "%s", ctx->data_label);
	else
		label_from_name(strchr(preset, '/') ? base : preset, ds->label,
				sizeof(ds->label));
	dataset_out(ctx, dir, ds->out, sizeof(ds->out));
	ds->scale = scale;
	ds->seed = seed;
	ds->user_dir = strchr(preset, '/') != NULL;
	ctx->ds[ctx->nds++] = ds;
	*out = ds;
	return 0;
}

static int materialize(struct bench_ctx *ctx, struct bench_dataset *ds)
{
	struct dataset_spec spec = { 0 };
	const char *bad;
	double t0 = now_mono();
	int reused = 1, ret;

	if (!ds->user_dir) {
		dataset_preset(ds->label, ds->scale, &spec);
		spec.seed = ds->seed;
		ret = dataset_generate(ds->dir, &spec, &reused);
		if (ret)
			return ret;
	}
	ret = filelist_scan(ds->dir, &ds->fl, &bad);
	if (ret)
		return error_errno(ret, bad, "data set");
	if (!ds->fl.n) {
		errorf("%s: data set has no files", ds->dir);
		return -ENOENT;
	}
	ret = mkdir_p(ds->out, 0755);
	if (ret)
		return error_errno(ret, ds->out, "creating scratch directory");
	if (!ctx->quiet)
		fprintf(stderr, "data: %s: %s, %zu files, %.1f MB (%.1fs)\n", ds->dir,
			reused ? "reused" : "generated", ds->fl.n,
			(double)ds->fl.total / 1e6, now_mono() - t0);
	return 0;
}

/* Scratch directories of benches that were killed (their pid is gone). */
static void remove_stale_scratch(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char p[4200];
		int pid;

		if (sscanf(de->d_name, ".scratch-%d", &pid) != 1 || pid <= 0 ||
		    pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		char q[4300];

		/* renamed first: a child of the dead bench still running
		 * finds its output directory gone instead of refilling it */
		snprintf(p, sizeof(p), "%s/%s", root, de->d_name);
		snprintf(q, sizeof(q), "%s/.stale-%d-%d", root, pid, (int)getpid());
		if (rename(p, q) == 0)
			rm_rf(q);
	}
	closedir(d);
}

/* The data cache is used (made, swept): a preset is generated there, or
 * a scratch directory made (not with the user's own output directory). */
static bool uses_data_root(const struct bench_ctx *ctx)
{
	for (size_t i = 0; i < ctx->nds; i++)
		if (!ctx->ds[i]->user_dir)
			return true;
	/* a command without data sets (net, sweep) has no scratch either */
	return !ctx->out_dir && !(ctx->cmd && !ctx->nds);
}

/* The outputs of every data set fit in the scratch directory, where each
 * data set's last repetition leaves them (a command's own OUT is checked
 * by the command): refused before the results directory is made. */
static int scratch_space(const struct bench_ctx *ctx)
{
	uint64_t need = 0;

	if (ctx->out_dir || !ctx->nds)
		return 0;
	for (size_t i = 0; i < ctx->nds; i++)
		need += ctx->ds[i]->fl.total;
	return space_check(ctx->scratch, need, 0, "the outputs of its data sets");
}

int bench_datasets_materialize(struct bench_ctx *ctx)
{
	int ret = uses_data_root(ctx) ? mkdir_p(ctx->data_root, 0755) : 0;

	if (ret)
		return error_errno(ret, ctx->data_root, "creating data directory");
	if (uses_data_root(ctx))
		remove_stale_scratch(ctx->data_root);
	for (size_t i = 0; i < ctx->nds; i++) {
		ret = materialize(ctx, ctx->ds[i]);
		if (ret)
			return ret;
	}
	return scratch_space(ctx);
}

int bench_dataset_ref(struct bench_dataset *ds, const struct xform *x, unsigned work,
		      const char **hex)
{
	const char *bad;
	uint64_t sum;
	void *n;
	int ret;

	for (size_t i = 0; i < ds->nrefs; i++)
		if (ds->refs[i].work == work && ds->refs[i].x == x) {
			*hex = ds->refs[i].hex;
			return 0;
		}
	ret = checksum_reference(ds->dir, &ds->fl, x, work, &sum, &bad);
	if (ret == -EINTR && checksum_stop)
		return ret; /* a stop signal: said once, by the engine */
	if (ret == -EILSEQ) { /* not deterministic: bad says so */
		errorf("%s", bad);
		return ret;
	}
	if (ret)
		return error_errno(ret, bad, "reading for the reference");
	n = realloc(ds->refs, (ds->nrefs + 1) * sizeof(*ds->refs));
	if (!n)
		return -ENOMEM;
	ds->refs = n;
	ds->refs[ds->nrefs].work = work;
	ds->refs[ds->nrefs].x = x;
	checksum_hex(sum, ds->refs[ds->nrefs].hex);
	*hex = ds->refs[ds->nrefs++].hex;
	return 0;
}

void bench_datasets_free(struct bench_ctx *ctx)
{
	for (size_t i = 0; i < ctx->nds; i++) {
		filelist_free(&ctx->ds[i]->fl);
		free(ctx->ds[i]->refs);
		free(ctx->ds[i]);
	}
	free(ctx->ds);
	ctx->ds = NULL;
	ctx->nds = 0;
}
