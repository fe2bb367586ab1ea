// SPDX-License-Identifier: MIT
/* `iostrat fio JOB`: an fio baseline job run on a data set, alone or against fio servers. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/engine/bench.h"
#include "commands.h"
#include "results/dataset.h"
#include "harness/env.h"
#include "fio/fio.h"
#include "results/results.h"
#include "results/row.h"
#include "lib/util.h"

struct fio_args {
	const char *job, *dataset, *out, *scratch, *parse_only, *client;
	struct fio_client *clients;
	size_t nclients;
	bool cache_set;
	double scale;
	uint64_t bs;
	unsigned qd, reps;
	bool direct, fsync, json;
	enum cache_mode cache;
};

static void fio_usage(FILE *f)
{
	fputs("usage: iostrat fio JOB [--dataset PRESET|DIR] [--scale F] [--bs B] [--qd N]\n"
	      "                       [--direct] [--cache cold|warm|asis] [--no-fsync]\n"
	      "                       [--reps R] [--out DIR] [--scratch DIR] [--json]\n"
	      "                       [--client HOST[:PORT][,HOST[:PORT]...]]\n\n"
	      "Run one fio baseline (fio-jobs/JOB.fio, or a path) on the files of a data\n"
	      "set: a directory, or a preset generated at --scale (default 0.01) into\n"
	      "$IOSTRAT_DATA (default data/).  Rows (kind=fio) and fio's own JSON go to\n"
	      "the results directory (--out, default results/<time>-fio-JOB).\n"
	      "Defaults: --bs 1M --qd 8 --cache cold, fsync on close.\n\n"
	      "--client HOSTS runs the job on every host at once through fio's own\n"
	      "client (each host runs `fio --server`, port 8765 unless given): one row\n"
	      "per host, labelled by it.  The data set must be at the same path on\n"
	      "every host and here (its file list is read here: a preset made with\n"
	      "the same IOSTRAT_DATA and --scale is the same files), --scratch\n"
	      "(default /tmp) on every host too; the cache is as the hosts left it\n"
	      "(asis; iostrat cannot drop a remote cache).\n\n"
	      "       iostrat fio --parse FIO.json\n"
	      "Read an fio JSON output (--output-format=json) and print the row iostrat\n"
	      "makes of it.\n", f);
}

static int parse(struct fio_args *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int ret = 0, takes = 1;

		if (!strcmp(o, "--direct") || !strcmp(o, "--no-fsync") || !strcmp(o, "--json")) {
			*(!strcmp(o, "--direct") ? &a->direct : !strcmp(o, "--json") ?
			  &a->json : &a->fsync) = strcmp(o, "--no-fsync") != 0;
			continue;
		}
		if (o[0] != '-') {
			if (a->job) {
				errorf("fio: one JOB only ('%s' and '%s')", a->job, o);
				return -EINVAL;
			}
			a->job = o;
			continue;
		}
		if (!v) {
			errorf("%s: missing value", o);
			return -EINVAL;
		}
		if (!strcmp(o, "--parse"))
			a->parse_only = v;
		else if (!strcmp(o, "--client"))
			a->client = v;
		else if (!strcmp(o, "--dataset"))
			a->dataset = v;
		else if (!strcmp(o, "--out"))
			a->out = v;
		else if (!strcmp(o, "--scratch"))
			a->scratch = v;
		else if (!strcmp(o, "--scale")) {
			if (parse_double(v, &a->scale) || a->scale <= 0) {
				errorf("--scale: bad value '%s'", v);
				ret = -EINVAL;
			}
		} else if (!strcmp(o, "--bs"))
			ret = opt_size("--bs", v, 512, 1ULL << 30, &a->bs);
		else if (!strcmp(o, "--qd"))
			ret = opt_uint("--qd", v, 1, 4096, &a->qd);
		else if (!strcmp(o, "--reps"))
			ret = opt_uint("--reps", v, 1, 1000, &a->reps);
		else if (!strcmp(o, "--cache")) {
			a->cache_set = true;
			if (cache_mode_parse(v, &a->cache)) {
				errorf("--cache: bad value '%s' (cold, warm or asis)", v);
				ret = -EINVAL;
			}
		} else {
			errorf("%s: unknown option (iostrat fio --help)", o);
			ret = -EINVAL;
			takes = 0;
		}
		if (ret)
			return ret;
		i += takes;
	}
	if (!a->job && !a->parse_only) {
		errorf("fio: JOB is required (a name in fio-jobs/ or a path)");
		return -EINVAL;
	}
	if (a->client) {
		if (a->cache_set && a->cache != CACHE_ASIS) {
			errorf("--client: --cache %s cannot be prepared on other hosts "
			       "(their cache is as they left it: asis)", cache_mode_name(a->cache));
			return -EINVAL;
		}
		a->cache = CACHE_ASIS;
		if (!a->scratch)
			a->scratch = "/tmp";
		return fio_clients_parse(a->client, &a->clients, &a->nclients);
	}
	return 0;
}

/* The data set: a directory (its name labels the rows, as bench does) or
 * a preset, generated (once) by the engine into $IOSTRAT_DATA.  *key is
 * the profile's dataset= (a directory with a '/' in it), dir where the
 * files are. */
static int resolve_dataset(struct fio_args *a, char *key, char *dir, size_t len,
			   char *label, size_t llen)
{
	struct dataset_spec s = { .seed = 1 };
	struct stat sb;

	if (!a->dataset)
		a->dataset = "big";
	if (!stat(a->dataset, &sb) && S_ISDIR(sb.st_mode)) {
		const char *base;

		snprintf(dir, len, "%s", a->dataset);
		while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
			dir[strlen(dir) - 1] = 0;
		base = strrchr(dir, '/');
		snprintf(label, llen, "%s", base && base[1] ? base + 1 : dir);
		snprintf(key, len, "%s%s", strchr(dir, '/') ? "" : "./", dir);
		return 0;
	}
	if (dataset_preset(a->dataset, a->scale, &s)) {
		errorf("%s: neither a directory nor a preset (small, medium-short, "
		       "medium-long, big)", a->dataset);
		return -EINVAL;
	}
	/* the directory a bench of the same preset uses: generated once */
	bench_dataset_dir(bench_data_root(NULL), a->dataset, a->scale, s.seed, dir,
			  len);
	snprintf(key, len, "%s", a->dataset);
	label[0] = 0;
	return 0;
}

static void print_row(json_t *r, bool host)
{
	if (host)
		printf("%-22s ", json_string_value(json_object_get(r, "host")));
	if (!json_is_null(json_object_get(r, "error"))) {
		printf("%-22s failed: %s\n", json_string_value(json_object_get(r, "strategy")),
		       json_string_value(json_object_get(r, "error")));
		return;
	}
	printf("%-22s %8.1f MB/s  read %8.1f MB/s (%.0f IOPS, clat p50 %.0f us p99 %.0f us)  "
	       "write %8.1f MB/s  elapsed %.3f s  mirrors: %s\n",
	       json_string_value(json_object_get(r, "strategy")),
	       json_real_value(json_object_get(r, "mb_s")),
	       json_real_value(json_object_get(r, "read_mb_s")),
	       json_real_value(json_object_get(r, "read_iops")),
	       json_real_value(json_object_get(r, "read_clat_p50_us")),
	       json_real_value(json_object_get(r, "read_clat_p99_us")),
	       json_real_value(json_object_get(r, "write_mb_s")),
	       json_real_value(json_object_get(r, "elapsed_s")),
	       *json_string_value(json_object_get(r, "baseline_of")) ?
	       json_string_value(json_object_get(r, "baseline_of")) : "-");
}

static void take_row(void *arg, json_t *row)
{
	const struct fio_args *a = arg;

	if (a->json)
		row_write_jsonl(stdout, row);
	else
		print_row(row, a->nclients > 0);
}

/* The job as a profile of one fio configuration: its options as the
 * fio kind's keys (bs as chunk=, the --no-fsync as fsync=none). */
static int build_profile(const struct fio_args *a, const char *job,
			 const char *key, const char *name, struct profile *prof)
{
	char scale[32], bs[32], qd[16], reps[16];
	const char *kv[32] = {
		"job", job, "dataset", key, "scale", scale, "seed", "1",
		"chunk", bs, "qd", qd, "direct", a->direct ? "1" : "0",
		"cache", cache_mode_name(a->cache), "reps", reps,
	};
	size_t n = 18;

	snprintf(scale, sizeof(scale), "%.17g", a->scale);
	snprintf(bs, sizeof(bs), "%llu", (unsigned long long)a->bs);
	snprintf(qd, sizeof(qd), "%u", a->qd);
	snprintf(reps, sizeof(reps), "%u", a->reps);
	if (!a->fsync)
		kv[n++] = "fsync", kv[n++] = "none";
	if (a->client)
		kv[n++] = "client", kv[n++] = a->client;
	kv[n] = NULL;
	if (engine_profile_new(prof, name) ||
	    engine_profile_add(prof, name, bench_kind_find("fio"),
			       "iostrat fio", kv)) {
		errorf("out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* Through the bench engine: the repetitions, the results directory (by
 * default results/TIME-fio-JOB, made here: it is also the scratch) and
 * the stop policy.  The exit status. */
static int run_all(struct fio_args *a, const char *job, const char *key,
		   const char *dir, const char *label)
{
	const char *labels[] = { "in", NULL }, *paths[] = { dir, NULL };
	const char *base = strrchr(job, '/') ? strrchr(job, '/') + 1 : job;
	char out[PATH_MAX], name[160];
	struct engine_opts eo = {
		.out = a->out, .quiet = true, .on_row = take_row, .arg = a,
		.cmd = "fio", .out_dir = a->scratch, .dir = out,
		.dir_len = sizeof(out), .data_label = *label ? label : NULL,
	};
	struct profile prof;
	int ret;

	snprintf(name, sizeof(name), "fio-%.*s", (int)strcspn(base, "."), base);
	if (!a->out) {
		ret = results_make_default_dir(out, sizeof(out), name);
		if (ret)
			return error_errno(ret, "results", "creating results directory"), 1;
		eo.out = out;
	}
	if (!eo.out_dir)
		eo.out_dir = eo.out;
	if (build_profile(a, job, key, name, &prof)) {
		profile_free(&prof);
		return 1;
	}
	eo.env = env_capture(labels, paths);
	ret = engine_run_profile(&prof, &eo);
	json_decref(eo.env);
	if (!ret && !a->json)
		printf("results: %s\n", out);
	if (ret && !a->out)
		rmdir(out); /* the default directory, when nothing came into it */
	return ret == 2 ? 1 : ret;
}

/* A --client output: a row per host it names (hostname and port). */
static int parse_clients(json_t *j)
{
	struct fio_client c[FIO_CLIENTS_MAX];
	json_t *e, *rows = json_array(), *base = row_new(NULL, "fio"), *row;
	size_t n = 0, i;
	int ret;

	json_array_foreach(json_object_get(j, "client_stats"), i, e) {
		char spec[300];
		struct fio_client *one = NULL;
		size_t got;
		const char *h = json_string_value(json_object_get(e, "hostname")) ?: "";

		snprintf(spec, sizeof(spec), strchr(h, ':') ? "[%s]:%lld" : "%s:%lld", h,
			 (long long)json_integer_value(json_object_get(e, "port")));
		if (n == FIO_CLIENTS_MAX || fio_clients_parse(spec, &one, &got)) {
			free(one);
			continue;
		}
		for (got = 0; got < n && strcmp(c[got].label, one->label); got++)
			;
		if (got == n)
			c[n++] = *one;
		free(one);
	}
	ret = fio_client_rows(j, c, n, base, rows);
	json_array_foreach(rows, i, row)
		row_write_jsonl(stdout, row);
	json_decref(rows);
	json_decref(base);
	return ret;
}

static int parse_file(const char *path)
{
	json_error_t e;
	json_t *j = fio_json_load(path, &e), *row;
	const char *why;
	int ret;

	if (!j) {
		/* jansson's "unable to open" comes with line -1: say it our way */
		if (access(path, R_OK))
			errorf("%s: %s", path, strerror(errno));
		else
			errorf("%s: not fio JSON (%s, line %d)", path, e.text, e.line);
		return 1;
	}
	if (json_object_get(j, "client_stats")) {
		ret = parse_clients(j);
		json_decref(j);
		return ret ? 1 : 0;
	}
	row = row_new(NULL, "fio");
	ret = fio_parse_json(j, row, &why);
	if (ret)
		errorf("%s: fio JSON lacks the '%s' section", path, why);
	else
		row_write_jsonl(stdout, row);
	json_decref(row);
	json_decref(j);
	return ret ? 1 : 0;
}

static int fio_main(struct fio_args *a, int argc, char **argv);

int cmd_fio(int argc, char **argv)
{
	struct fio_args a = { .scale = 0.01, .bs = 1 << 20, .qd = 8, .reps = 1,
			      .fsync = true, .cache = CACHE_COLD };
	int ret = fio_main(&a, argc, argv);

	free(a.clients);
	return ret;
}

static int fio_main(struct fio_args *a, int argc, char **argv)
{
	char job[PATH_MAX], dir[PATH_MAX], key[PATH_MAX], ver[64];
	char label[NAME_MAX + 1];
	int ret;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fio_usage(stdout);
			return 0;
		}
	ret = parse(a, argc, argv); /* a->clients: cmd_fio frees them */
	if (ret)
		return 2;
	if (a->parse_only)
		return parse_file(a->parse_only);
	if (fio_version(ver, sizeof(ver))) {
		errorf("fio: not installed (apt-get install fio, or make deps)");
		return 1;
	}
	/* an unreachable host is said before anything is written */
	if (a->nclients && fio_clients_reach(a->clients, a->nclients, 3000))
		return 1;
	if (fio_job_env_check())
		return 1;
	ret = fio_job_path(a->job, job, sizeof(job));
	if (ret) {
		fio_job_error("", a->job, ret);
		return 1;
	}
	if (resolve_dataset(a, key, dir, sizeof(dir), label, sizeof(label)))
		return 1;
	return run_all(a, job, key, dir, label);
}

/* Every option the parser above takes (settings.h): main.c refuses the rest. */
static const struct setting fio_table[] = {
	{ .name = "parse", .type = SET_STRING }, { .name = "dataset", .type = SET_STRING }, { .name = "scale", .type = SET_STRING },
	{ .name = "bs", .type = SET_STRING }, { .name = "qd", .type = SET_STRING }, { .name = "direct" },
	{ .name = "cache", .type = SET_STRING }, { .name = "no-fsync" }, { .name = "reps", .type = SET_STRING },
	{ .name = "out", .type = SET_STRING }, { .name = "scratch", .type = SET_STRING }, { .name = "json" },
	{ .name = "client", .type = SET_STRING }, { 0 },
};

const struct cmd_opts fio_cmdopts = { .cmd = "fio", .tables = { fio_table } };
