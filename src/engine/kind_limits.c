// SPDX-License-Identifier: MIT
/*
 * The "limits" kind: a section [limits] (or [limits-NAME], or kind=limits)
 * measures the machine's own limits on a data set (docs/limits.md):
 *   limit=read_direct,write_new_buffered,write_new_direct,pagecache_copy,
 *         copy_file_range,transform
 *   work=0,100     the transform's W (the other limits take W 0)
 *   fsync=file|end|none   the run's fsync class, for the new files
 *   qd=32 bs=1m    read_direct's depth; bs the I/O size of every limit
 *   reuse=24h      copy the rows of a limits run of the same key within
 *                  the window instead of measuring (0: always measure)
 *   dataset= scale= seed=   the data set, as a run section's
 * One repetition = one forked child that measures one limit (the cache
 * made cold, or warm for pagecache_copy, first; the child in a cgroup of
 * its own; its CPU from wait4).  Copies are verified (xxh3 of the outputs
 * equals the inputs'), the transform against the reference checksum, the
 * new files by their sizes; the outputs are removed after every
 * repetition and after a stop.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/checksum.h"
#include "core/xform.h"
#include "harness/cache.h"
#include "harness/cgroup.h"
#include "harness/env.h"
#include "harness/kcost.h"
#include "harness/runner.h"
#include "harness/stop.h"
#include "results/config_id.h"
#include "results/row.h"
#include "lib/util.h"
#include "bench.h"
#include "limits.h"

struct limp {
	int limit;                 /* enum limit */
	unsigned work, qd;
	const char *transform;     /* transform only: as given, then its id form */
	const struct xform *x;     /* loaded (transform only; NULL: the xor) */
	uint64_t bs;
	int fsync;                 /* enum fsync_mode */
	double reuse_s;            /* 0: always measure */
	const char *preset;
	double scale;
	uint64_t seed;
	struct bench_dataset *ds;
	json_t *reused;            /* the rows found to reuse (NULL: not looked) */
	char from[PATH_MAX];       /* their directory */
};

static const struct setting limits_settings[] = {
	{ .name = "limit", SETTING_ENUM(struct limp, limit), .values = limit_names,
	  .where = SET_PROFILE, .column = "limit",
	  .help = "the limit measured (docs/limits.md)" },
	{ .name = "work", SETTING_UINT(struct limp, work), .max = 1000000, .def = "0",
	  .where = SET_PROFILE, .column = "work", .id = "w%s",
	  .help = "the transform's W (transform only)" },
	{ .name = "transform", SETTING_STRING(struct limp, transform), .def = "xor",
	  .where = SET_PROFILE, .column = "transform", .id = "xf=%s",
	  .flags = SETF_ID_OPTIONAL,
	  .help = "the transform measured (transform only; docs/transform.md)" },
	{ .name = "fsync", SETTING_ENUM(struct limp, fsync), .values = fsync_mode_names,
	  .def = "file", .where = SET_PROFILE, .column = "fsync", .id = "fsync=%s",
	  .help = "the new files' fsync class, as the run's" },
	{ .name = "qd", SETTING_UINT(struct limp, qd), .min = 0, .max = 4096, .def = "0",
	  .where = SET_PROFILE, .column = "qd", .id = "qd=%s",
	  .flags = SETF_ID_OPTIONAL | SETF_COL_OPTIONAL,
	  .help = "read_direct's queue depth (0: 32)" },
	{ .name = "bs", SETTING_SIZE(struct limp, bs), .max = 64ULL << 20, .def = "0",
	  .where = SET_PROFILE, .column = "bs", .id = "bs=%s",
	  .flags = SETF_ID_OPTIONAL | SETF_COL_OPTIONAL,
	  .help = "the I/O size, a multiple of 4 KiB (0: 1 MiB)" },
	{ 0 },
};

/* reuse=N[s|m|h|d]: the window in seconds. */
static int reuse_key(const struct pkv *kv, double *secs)
{
	char *end;
	double v = strtod(kv->value, &end);
	double unit = !*end ? 1 : !strcmp(end, "s") ? 1 : !strcmp(end, "m") ? 60 :
		      !strcmp(end, "h") ? 3600 : !strcmp(end, "d") ? 86400 : -1;

	if (end == kv->value || unit < 0 || !(v >= 0) || v > 1e6) {
		errorf("%s: reuse: bad value '%s' (a window: 24h, 90m, 3600s, 7d; 0: never)",
		       kv->where, kv->value);
		return -EINVAL;
	}
	*secs = v * unit;
	return 0;
}

static int one_key(struct limp *lp, const struct pkv *kv)
{
	const struct setting *s = setting_find(limits_settings, kv->key);
	char where[300];
	int ret;

	if (profile_engine_key(kv->key))
		return 0;
	if (!strcmp(kv->key, "reuse"))
		return reuse_key(kv, &lp->reuse_s);
	ret = bench_data_key(kv, &lp->preset, &lp->scale, &lp->seed);
	if (ret != -ENOENT)
		return ret;
	snprintf(where, sizeof(where), "%s: %s", kv->where, kv->key);
	if (s)
		return setting_store(s, lp, where, kv->value);
	errorf("%s: not a limits key (limit, work, transform, fsync, qd, bs, reuse, "
	       "dataset, scale, seed)", where);
	return -EINVAL;
}

/* What applies to the limit: W to transform, qd to read_direct, bs to
 * every limit but transform; the rest is 0 (no column, no id part). */
static void normalise(struct limp *lp)
{
	if (lp->limit != LIMIT_TRANSFORM) {
		lp->work = 0;
		lp->transform = "xor";
	} else {
		lp->bs = 0;
	}
	if (lp->limit != LIMIT_READ_DIRECT)
		lp->qd = 0;
}

/* The transform limit's transform, loaded (its id form in lp->transform):
 * 0, or -EINVAL after one line. */
static int load_transform(const struct pconf *c, struct limp *lp)
{
	char why[PATH_MAX + 256];

	lp->x = xform_get(lp->transform, why, sizeof(why));
	if (!lp->x) {
		errorf("%s: [%s]: %s", c->where, c->section, why);
		return -EINVAL;
	}
	if (!lp->x->in_place && lp->work) {
		errorf("%s: [%s]: work: %u passes, but transform %s has none (only xor has)",
		       c->where, c->section, lp->work, lp->x->name);
		return -EINVAL;
	}
	lp->transform = lp->x->id;
	return 0;
}

static int apply(const struct pconf *c, struct limp *lp)
{
	int ret = 0;

	memset(lp, 0, sizeof(*lp));
	settings_defaults(limits_settings, lp);
	lp->limit = -1;
	lp->scale = 1.0;
	lp->seed = 1;
	for (size_t i = 0; i < c->nkv && !ret; i++)
		ret = one_key(lp, &c->kv[i]);
	if (ret)
		return -EINVAL;
	if (lp->limit < 0 || !lp->preset) {
		errorf("%s: [%s]: needs %s", c->where, c->section,
		       lp->limit < 0 ? "limit= (read_direct, write_new_buffered, "
		       "write_new_direct, pagecache_copy, copy_file_range, transform)" :
		       "dataset=");
		return -EINVAL;
	}
	if (!lp->qd)
		lp->qd = 32;
	if (!lp->bs)
		lp->bs = 1 << 20;
	if (lp->limit != LIMIT_TRANSFORM && lp->bs % 4096) {
		errorf("%s: [%s]: bs: %llu is not a multiple of 4 KiB (O_DIRECT's alignment)",
		       c->where, c->section, (unsigned long long)lp->bs);
		return -EINVAL;
	}
	normalise(lp);
	return load_transform(c, lp);
}

static int limits_kind_check(const struct bench_ctx *ctx, const struct pconf *c,
			char *why, size_t len)
{
	struct limp lp;
	char dir[PATH_MAX], out[PATH_MAX];

	(void)why;
	(void)len;
	if (apply(c, &lp))
		return -EINVAL;
	if (bench_dataset_paths(ctx, lp.preset, lp.scale, lp.seed, dir, out, sizeof(dir))) {
		errorf("%s: [%s]: dataset: unknown preset '%s'", c->where, c->section, lp.preset);
		return -EINVAL;
	}
	return 0;
}

/* The free bytes where path (or its nearest existing parent) lives;
 * IOSTRAT_FAKE_FREE_BYTES=N says N (a test seam). */
static int free_bytes(const char *path, uint64_t *out)
{
	const char *fake = getenv("IOSTRAT_FAKE_FREE_BYTES");
	char p[PATH_MAX];
	struct statvfs sv;

	if (fake && *fake)
		return parse_u64(fake, out);
	snprintf(p, sizeof(p), "%s", path);
	while (statvfs(p, &sv) < 0) {
		char *slash = strrchr(p, '/');

		if (errno != ENOENT || !slash || slash == p)
			return -errno;
		*slash = 0;
	}
	*out = (uint64_t)sv.f_bavail * sv.f_frsize;
	return 0;
}

/* A directory data set's size (a preset's is known before it is made). */
static uint64_t dir_bytes(const struct bench_dataset *ds)
{
	struct filelist fl = { 0 };
	const char *bad;
	uint64_t n = 0;

	if (ds->user_dir && !filelist_scan(ds->dir, &fl, &bad))
		n = fl.total;
	filelist_free(&fl);
	return n;
}

/* The new files must fit, before any is written. */
static int room_for(const struct bench_item *it, const struct limp *lp)
{
	uint64_t need = MAX(bench_dataset_bytes(lp->preset, lp->scale),
			    dir_bytes(lp->ds)), have = 0;

	if (lp->limit == LIMIT_READ_DIRECT || lp->limit == LIMIT_TRANSFORM)
		return 0;
	need += need / 16 + (16 << 20); /* the filesystem's own, a margin */
	if (free_bytes(lp->ds->out, &have) || have >= need)
		return 0;
	errorf("%s: [%s]: %s: no free space for %s's new files (%.1f MB needed, %.1f MB free)",
	       it->pc->where, it->pc->section, lp->ds->out, limit_names[lp->limit],
	       (double)need / 1e6, (double)have / 1e6);
	return -ENOSPC;
}

static void limits_id(const struct limp *lp, char *id, size_t len)
{
	const struct setting *const tables[] = { limits_settings, NULL };
	const void *const objs[] = { lp };
	char head[64];

	snprintf(head, sizeof(head), "limits-%s", limit_names[lp->limit]);
	config_id_make(id, len, lp->ds->label, head, tables, objs);
}

static int limits_kind_prepare(struct bench_ctx *ctx, struct bench_item *it)
{
	struct limp *lp = calloc(1, sizeof(*lp));
	int ret;

	if (!lp)
		return -ENOMEM;
	ret = apply(it->pc, lp);
	if (!ret)
		ret = bench_dataset_get(ctx, pconf_kv(it->pc, "dataset")->where,
					lp->preset, lp->scale, lp->seed, &lp->ds);
	if (!ret && !ctx->dry_run)
		ret = room_for(it, lp);
	if (ret) {
		free(lp);
		return ret < 0 ? ret : -EINVAL;
	}
	limits_id(lp, it->id, sizeof(it->id));
	if (lp->limit == LIMIT_TRANSFORM)
		snprintf(it->label, sizeof(it->label), "limits transform %s work=%u %s",
			 lp->x->name, lp->work, lp->ds->label);
	else
		snprintf(it->label, sizeof(it->label), "limits %s %s",
			 limit_names[lp->limit], lp->ds->label);
	it->est_s = 0.3 + (double)bench_dataset_bytes(lp->preset, lp->scale) / 300e6;
	it->priv = lp;
	return 0;
}

/* ---- one repetition ------------------------------------------------------ */

static volatile pid_t limit_child;

static bool stop_child(int sig, unsigned count)
{
	pid_t c = limit_child;

	(void)sig;
	(void)count;
	if (c > 0)
		kill(c, SIGKILL);
	return false;
}

static enum cache_mode cache_of(const struct limp *lp)
{
	return lp->limit == LIMIT_PAGECACHE_COPY ? CACHE_WARM : CACHE_COLD;
}

static void child(const struct limp *lp, int fd)
{
	struct limit_job j = {
		.limit = (enum limit)lp->limit, .in = lp->ds->dir, .out = lp->ds->out,
		.fl = &lp->ds->fl, .fsync = lp->fsync, .work = lp->work, .x = lp->x,
		.qd = lp->qd, .bs = lp->bs,
	};
	struct limit_result r;

	stop_in_child();
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* iostrat gone: no writer left behind */
	limit_measure(&j, &r);
	_exit(write(fd, &r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 3);
}

/* Fork, measure, reap: *r the child's report, *ru its CPU. */
static int spawn(const struct limp *lp, json_t *row, struct limit_result *r,
		 struct rusage *ru)
{
	struct cgroup_rep cg;
	struct kcost kc;
	int p[2], status = 0, ret = 0;
	bool cgroup = !cgroup_rep_open(&cg, 0);
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	/* the kernel threads' CPU too: the limits figure's x is all of it */
	kcost_begin(&kc, json_string_value(json_object_get(row, "device")));
	fflush(NULL);
	stop_block(true);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		child(lp, p[1]);
	}
	limit_child = pid;
	stop_block(false);
	close(p[1]);
	if (pid > 0 && cgroup && cgroup_rep_enter(&cg, pid))
		cgroup = false;
	if (pid > 0 && read_full(p[0], r, sizeof(*r)) != (ssize_t)sizeof(*r))
		ret = -ECHILD;
	close(p[0]);
	while (pid > 0 && wait4(pid, &status, 0, ru) < 0 && errno == EINTR)
		;
	limit_child = 0;
	kcost_end(&kc, row);
	if (cgroup)
		cgroup_rep_finish(&cg, row);
	else
		json_object_set_new(row, "cgroup_error", json_text(cg.why));
	cgroup_rep_close(&cg);
	if (pid < 0)
		return -errno;
	return ret ? ret : (WIFEXITED(status) && !WEXITSTATUS(status)) ? 0 : -ECHILD;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* The outputs against what they must hold: 0, or -EBADMSG with why. */
static int verify(struct limp *lp, const struct limit_result *r, char *why, size_t len)
{
	const char *hex, *bad;
	uint64_t in, out;
	char got[17];
	int ret;

	if (r->bytes != lp->ds->fl.total) {
		snprintf(why, len, "moved %llu bytes of %llu", (unsigned long long)r->bytes,
			 (unsigned long long)lp->ds->fl.total);
		return -EBADMSG;
	}
	if (lp->limit == LIMIT_TRANSFORM) {
		if ((ret = bench_dataset_ref(lp->ds, lp->x, lp->work, &hex)))
			return ret;
		checksum_hex(r->sum, got);
		snprintf(why, len, "output xxh3 %s, the reference's %s", got, hex);
		return strcmp(got, hex) ? -EBADMSG : 0;
	}
	if (lp->limit != LIMIT_PAGECACHE_COPY && lp->limit != LIMIT_COPY_FILE_RANGE)
		return 0; /* read: no output; new files: their sizes, above */
	if ((ret = checksum_files(lp->ds->dir, &lp->ds->fl, &in, &bad)) ||
	    (ret = checksum_files(lp->ds->out, &lp->ds->fl, &out, &bad))) {
		snprintf(why, len, "%s: %s", bad, strerror(-ret));
		return ret;
	}
	snprintf(why, len, "the copy's xxh3 %016llx, the input's %016llx",
		 (unsigned long long)out, (unsigned long long)in);
	return in == out ? 0 : -EBADMSG;
}

/* The results directory's name: the run the row belongs to. */
static json_t *run_id(const struct bench_ctx *ctx)
{
	const char *slash;

	if (!ctx->res || !ctx->res->path[0])
		return json_null();
	slash = strrchr(ctx->res->path, '/');
	return json_text(slash ? slash + 1 : ctx->res->path);
}

static void fill(const struct bench_ctx *ctx, const struct bench_item *it,
		 const struct limp *lp, unsigned rep, json_t *row)
{
	json_t *in = ctx->env ? json_object_get(ctx->env, "in") : NULL;

	json_object_set_new(row, RC_CONFIG_ID, json_text(it->id));
	json_object_set_new(row, "rep", json_integer(rep));
	json_object_set_new(row, "role", json_text("timed"));
	json_object_set_new(row, RC_DATASET, json_text(lp->ds->label));
	json_object_set_new(row, "files", json_integer((json_int_t)lp->ds->fl.n));
	json_object_set_new(row, "scale", json_real(lp->scale));
	json_object_set_new(row, "seed", json_integer((json_int_t)lp->seed));
	json_object_set_new(row, "cache", json_text(cache_mode_name(cache_of(lp))));
	settings_row(limits_settings, lp, row);
	json_object_set_new(row, "traced", json_false());
	json_object_set_new(row, "host", json_text(env_host()));
	json_object_set_new(row, "run_id", run_id(ctx));
	json_object_set_new(row, "measured_at", json_integer((json_int_t)time(NULL)));
	if (in)
		json_object_set(row, "scheduler", json_object_get(in, "scheduler"));
	limits_key_row(row, ctx->env);
	if (!ctx->cmd)
		json_object_set_new(row, "section", json_text(it->pc->section));
}

static void measured(json_t *row, const struct limit_result *r, const struct rusage *ru)
{
	json_object_set_new(row, "bytes", json_integer((json_int_t)r->bytes));
	json_object_set_new(row, RC_BYTES_IN, json_integer((json_int_t)r->bytes));
	json_object_set_new(row, RC_ELAPSED, json_real(r->secs));
	json_object_set_new(row, RC_MB_S, json_real(r->secs > 0 ? r->bytes / 1e6 / r->secs : 0));
	json_object_set_new(row, "cpu_user_s", json_real(r->user_s));
	json_object_set_new(row, "cpu_sys_s", json_real(r->sys_s));
	json_object_set_new(row, RC_USER, json_real(tv_s(ru->ru_utime)));
	json_object_set_new(row, RC_SYS, json_real(tv_s(ru->ru_stime)));
	json_object_set_new(row, RC_MAXRSS, json_integer(ru->ru_maxrss));
}

static int failed(const struct bench_item *it, json_t *row, int err, const char *what)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s: %s", what, strerror(-err));
	json_object_set_new(row, "error", json_text(msg));
	if (!stop_caught())
		errorf("[%s] %s: %s", it->pc->section, it->label, msg);
	return err;
}

/* Cache state, the child, the check; the outputs removed whatever came. */
static int measure(struct bench_item *it, struct limp *lp, json_t *row)
{
	struct limit_result r = { 0 };
	struct rusage ru = { 0 };
	const char *how, *bad = lp->ds->dir;
	char why[256];
	int ret;

	runner_clean_outputs(lp->ds->out, &lp->ds->fl);
	ret = mkdir_p(lp->ds->out, 0755);
	if (!ret)
		ret = cache_prepare(lp->ds->dir, &lp->ds->fl, cache_of(lp), &how, &bad);
	if (ret)
		return failed(it, row, ret, bad);
	json_object_set_new(row, "cache_method", json_text(how));
	stop_catch(STOP_SECOND_ENDS, stop_child, true);
	ret = spawn(lp, row, &r, &ru);
	stop_release();
	if (!ret && r.err)
		ret = failed(it, row, r.err, r.what);
	else if (ret)
		ret = failed(it, row, ret, stop_caught() ? "stopped" : "the child");
	if (!ret) {
		measured(row, &r, &ru);
		ret = verify(lp, &r, why, sizeof(why));
		json_object_set_new(row, "verified", json_boolean(!ret));
		if (ret)
			failed(it, row, ret, why);
	}
	runner_clean_outputs(lp->ds->out, &lp->ds->fl);
	return ret;
}

/* A reused repetition: the old row as it was, marked, renumbered. */
static int reuse_rep(const struct bench_ctx *ctx, const struct limp *lp,
		     unsigned rep, json_t **row)
{
	json_t *old = json_array_get(lp->reused, rep - 1);

	*row = json_deep_copy(old);
	if (!*row)
		return -ENOMEM;
	json_object_set_new(*row, "bench", ctx->name ? json_text(ctx->name) : json_null());
	json_object_set_new(*row, "rep", json_integer(rep));
	json_object_set_new(*row, "reused_from", json_text(lp->from));
	json_object_set_new(*row, "run_id", run_id(ctx));
	return 0;
}

/* The rows to reuse, looked up once: under the results root, the
 * directory holding this run's. */
static void look_for_reuse(const struct bench_ctx *ctx, const struct bench_item *it,
			   struct limp *lp)
{
	char root[PATH_MAX];
	json_t *key = json_object();

	lp->reused = json_array();
	if (!lp->reuse_s || !ctx->res || !ctx->res->path[0] || !key)
		goto out;
	snprintf(root, sizeof(root), "%s", ctx->res->path);
	if (strrchr(root, '/'))
		*strrchr(root, '/') = 0;
	else
		snprintf(root, sizeof(root), ".");
	limits_key_row(key, ctx->env);
	json_object_set_new(key, "scale", json_real(lp->scale));
	json_object_set_new(key, "seed", json_integer((json_int_t)lp->seed));
	json_object_set_new(key, "bytes", json_integer((json_int_t)lp->ds->fl.total));
	json_decref(lp->reused);
	lp->reused = limits_reusable(root, ctx->res->path, it->id, key, lp->reuse_s,
				     lp->from, sizeof(lp->from));
out:
	json_decref(key);
}

static int limits_kind_rep(struct bench_ctx *ctx, struct bench_item *it, unsigned rep,
		      json_t **row)
{
	struct limp *lp = it->priv;

	if (!lp->reused)
		look_for_reuse(ctx, it, lp);
	if (rep >= 1 && rep <= json_array_size(lp->reused))
		return reuse_rep(ctx, lp, rep, row);
	*row = row_new(ctx->name, "limits");
	if (!*row)
		return -ENOMEM;
	fill(ctx, it, lp, rep, *row);
	return measure(it, lp, *row);
}

static void limits_kind_release(struct bench_item *it)
{
	json_decref(((struct limp *)it->priv)->reused);
}

static bool limits_kind_inherits(const struct pconf *c, const struct pkv *kv,
			    char *why, size_t len)
{
	(void)c, (void)why, (void)len;
	return setting_find(limits_settings, kv->key) || !strcmp(kv->key, "reuse") ||
	       !strcmp(kv->key, "dataset") || !strcmp(kv->key, "scale") ||
	       !strcmp(kv->key, "seed");
}

BENCH_KIND(limits, .release = limits_kind_release);
