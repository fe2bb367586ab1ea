// SPDX-License-Identifier: MIT
/* `iostrat limits`: the machine's measured limits on a data set, through the bench engine, as a table. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "config/datadir.h"
#include "engine/bench.h"
#include "engine/limits.h"
#include "core/xform.h"
#include "lib/util.h"

struct limits_args {
	const char *dataset, *scale, *seed, *fsync, *work, *limits, *reps, *reuse;
	const char *transform;
	const char *bs, *qd, *out, *data, *profile;
	struct setting_list defs;
	json_t *rows;              /* every row written */
};

static void usage(FILE *f)
{
	fputs("usage: iostrat limits [--dataset PRESET|DIR] [--fsync file|end|none]\n"
	      "                      [--work W,W...] [--transform T,T...] [--limits NAME,...]\n"
	      "                      [--reps N] [options]\n"
	      "       iostrat limits -p PROFILE [-D key=value]...\n\n"
	      "Measure the machine's own limits on a data set, each in rounds like a\n"
	      "bench (docs/limits.md): read_direct (cold O_DIRECT, io_uring qd 32 x 1 MiB),\n"
	      "write_new_buffered and write_new_direct (new files with the fsync class),\n"
	      "pagecache_copy (warm read to a new file), copy_file_range (the kernel's\n"
	      "copy, cold) and transform (each transform, the xor at each W, in memory,\n"
	      "one thread).\n"
	      "Prints each limit's median MB/s, its interval, n and CPU seconds per GB.\n\n", f);
}

static const struct setting limits_table[] = {
	{ .name = "dataset", .shortname = 'd', SETTING_STRING(struct limits_args, dataset),
	  .metavar = "PRESET|DIR", .help = "the data set (default medium)" },
	{ .name = "scale", SETTING_STRING(struct limits_args, scale), .metavar = "X",
	  .help = "the preset's scale (default 1)" },
	{ .name = "seed", SETTING_STRING(struct limits_args, seed), .metavar = "N",
	  .help = "the preset's seed (default 1)" },
	{ .name = "fsync", SETTING_STRING(struct limits_args, fsync),
	  .metavar = "file|end|none", .help = "the new files' fsync class (default file)" },
	{ .name = "work", .shortname = 'w', SETTING_STRING(struct limits_args, work),
	  .metavar = "W,W...", .help = "the transform's W list (default 0)" },
	{ .name = "transform", SETTING_STRING(struct limits_args, transform),
	  .metavar = "T,T...", .help = "the transforms the transform limit measures\n"
		  "(default xor; the W list applies to the xor)" },
	{ .name = "limits", .shortname = 'l', SETTING_STRING(struct limits_args, limits),
	  .metavar = "NAME,...", .help = "the limits measured (default all six)" },
	{ .name = "reps", .shortname = 'r', SETTING_STRING(struct limits_args, reps),
	  .metavar = "N", .help = "rounds (default 3)" },
	{ .name = "bs", SETTING_STRING(struct limits_args, bs), .metavar = "SIZE",
	  .help = "the I/O size (default 1m)" },
	{ .name = "qd", SETTING_STRING(struct limits_args, qd), .metavar = "N",
	  .help = "read_direct's queue depth (default 32)" },
	{ .name = "reuse", SETTING_STRING(struct limits_args, reuse), .metavar = "WINDOW",
	  .help = "reuse a limits run of the same key within WINDOW\n"
		  "(24h, 90m; default 0: measure)" },
	{ .name = "profile", .shortname = 'p', SETTING_STRING(struct limits_args, profile),
	  .metavar = "PROFILE", .help = "run PROFILE's [limits] sections instead" },
	{ .shortname = 'D', SETTING_LIST(struct limits_args, defs),
	  .metavar = "KEY=VALUE", .help = "set KEY in every configuration" },
	{ .name = "out", .shortname = 'o', SETTING_STRING(struct limits_args, out),
	  .metavar = "DIR", .help = "results directory" },
	{ .name = "data", SETTING_STRING(struct limits_args, data), .metavar = "DIR",
	  .help = "data set cache (default $IOSTRAT_DATA, else ./data)" },
	{ 0 },
};

const struct cmd_opts limits_cmdopts = {
	.cmd = "limits", .tables = { limits_table }, .usage = usage,
};

/* key=value pairs of one configuration, a later one of a key replacing
 * it, NULL-ended, grown as keys come; err: -ENOMEM once a key could not
 * be added. */
struct kvs {
	const char **kv;
	size_t n, cap;
	int err;
};

static void kv_set(struct kvs *k, const char *key, const char *value)
{
	const char **kv;

	for (size_t i = 0; i < k->n; i += 2)
		if (!strcmp(k->kv[i], key)) {
			k->kv[i + 1] = value;
			return;
		}
	if (k->n + 3 > k->cap) {
		kv = realloc(k->kv, (k->cap + 32) * sizeof(*kv));
		if (!kv) {
			k->err = -ENOMEM;
			return;
		}
		k->kv = kv;
		k->cap += 32;
	}
	k->kv[k->n++] = key;
	k->kv[k->n++] = value;
	k->kv[k->n] = NULL;
}

static void base_keys(const struct limits_args *a, struct kvs *k)
{
	kv_set(k, "dataset", a->dataset ? a->dataset : "medium");
	kv_set(k, "fsync", a->fsync ? a->fsync : "file");
	kv_set(k, "reps", a->reps ? a->reps : "3");
	if (a->scale)
		kv_set(k, "scale", a->scale);
	if (a->seed)
		kv_set(k, "seed", a->seed);
	if (a->bs)
		kv_set(k, "bs", a->bs);
	if (a->qd)
		kv_set(k, "qd", a->qd);
	if (a->reuse)
		kv_set(k, "reuse", a->reuse);
}

/* The lists --work and --transform expand to. */
struct lists {
	char **ws, **ts;
	size_t nw, nt;
};

/* Whether a transform takes the W list (it has passes: the xor); one
 * that does not load does too (the engine then names it). */
static bool has_passes(const char *spec)
{
	char why[PATH_MAX + 256];
	const struct xform *x = xform_get(spec, why, sizeof(why));

	return !x || x->in_place;
}

static int add_one(const struct limits_args *a, struct profile *p, const char *name,
		   const char *work, const char *transform)
{
	struct kvs k = { 0 };
	int ret;

	base_keys(a, &k);
	kv_set(&k, "limit", name);
	kv_set(&k, "work", work);
	kv_set(&k, "transform", transform);
	ret = k.err ? k.err : engine_profile_add(p, "limits", bench_kind_find("limits"),
						  "iostrat limits", k.kv);
	free(k.kv);
	return ret;
}

/* One configuration per limit; for transform, one per transform (per W
 * for the xor). */
static int add_limit(const struct limits_args *a, struct profile *p, const char *name,
		     const struct lists *l)
{
	int ret = 0;

	if (strcmp(name, "transform"))
		return add_one(a, p, name, "0", "xor");
	for (size_t t = 0; !ret && t < l->nt; t++) {
		bool passes = has_passes(l->ts[t]);

		for (size_t w = 0; !ret && w < (passes ? l->nw : 1); w++)
			ret = add_one(a, p, name, passes ? l->ws[w] : "0", l->ts[t]);
	}
	return ret;
}

static int build(struct limits_args *a, struct profile *p)
{
	const char *all = "read_direct,write_new_buffered,write_new_direct,"
			  "pagecache_copy,copy_file_range,transform";
	struct lists l = { 0 };
	char **names = NULL;
	size_t nn = 0;
	int ret;

	if (a->work && !a->work[strspn(a->work, " \t,")]) {
		errorf("limits: --work: empty W list (W,W...: whole numbers)");
		return -EINVAL;
	}
	ret = profile_expand_value("iostrat limits", "--work", a->work ? a->work : "0",
				   &l.ws, &l.nw);
	if (!ret)
		ret = profile_expand_value("iostrat limits", "--transform",
					   a->transform ? a->transform : "xor", &l.ts, &l.nt);
	if (!ret)
		ret = profile_expand_value("iostrat limits", "--limits",
					   a->limits ? a->limits : all, &names, &nn);
	if (!ret)
		ret = engine_profile_new(p, "limits");
	for (size_t i = 0; !ret && i < nn; i++)
		ret = add_limit(a, p, names[i], &l);
	if (!ret)
		ret = engine_profile_define(p, "limits: ", a->defs.v, a->defs.n);
	profile_free_items(names, nn);
	profile_free_items(l.ws, l.nw);
	profile_free_items(l.ts, l.nt);
	return ret;
}

static void take_row(void *arg, json_t *row)
{
	struct limits_args *a = arg;

	json_array_append(a->rows, row);
}

static int from_profile(struct limits_args *a, struct profile *p)
{
	char shipped[PATH_MAX];
	const char *path = a->profile;

	if (!strchr(path, '/') && access(path, F_OK) &&
	    !datadir_file("profiles", path, ".ini", shipped, sizeof(shipped)))
		path = shipped;
	return profile_load(path, a->defs.v, a->defs.n, p);
}

/* Only the profile's limits sections: the rest is bench's to run. */
static int keep_limits(struct profile *p)
{
	size_t k = 0;

	for (size_t i = 0; i < p->n; i++)
		if (p->confs[i].kind == bench_kind_find("limits"))
			p->confs[k++] = p->confs[i];
		else
			free(p->confs[i].kv);
	if (!k)
		errorf("%s: no [limits] section", p->path ? p->path : p->name);
	p->n = k;
	return k ? 0 : -EINVAL;
}

static int print_table(struct limits_args *a)
{
	struct limit_summary *s;
	size_t n;

	if (limits_summarize(a->rows, &s, &n))
		return 1;
	limits_print(s, n, stdout);
	free(s);
	return 0;
}

int cmd_limits(int argc, char **argv)
{
	struct limits_args a = { 0 };
	struct profile p = { 0 };
	struct engine_opts eo = { .on_row = take_row, .arg = &a };
	int ret;

	a.rows = json_array();
	if (!a.rows)
		ret = 1;
	else if ((ret = cmdopt_parse(&limits_cmdopts, (void *[]){ &a }, argc, argv)) < 0)
		ret = cmdopt_exit(ret);
	else if (ret > 0)
		ret = (errorf("limits: %s: unexpected argument (iostrat limits --help)",
			      argv[argc - ret]), 2);
	else if (a.profile ? from_profile(&a, &p) || keep_limits(&p) :
		 build(&a, &p)) {
		if (p.pool) /* built in part: the engine never had it */
			profile_free(&p);
		ret = 2;
	} else {
		eo.out = a.out;
		eo.data = a.data;
		eo.cmd = a.profile ? NULL : "limits"; /* its profile is its options */
		ret = engine_run_profile(&p, &eo);
		if (ret != 2 && json_array_size(a.rows))
			ret = print_table(&a) ? 1 : ret;
	}
	json_decref(a.rows);
	setting_list_free(&a.defs);
	return ret;
}
