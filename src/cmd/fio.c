// SPDX-License-Identifier: MIT
/* `iostrat fio JOB`: an fio baseline job run on a data set, alone or against fio servers. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/bench.h"
#include "commands.h"
#include "results/dataset.h"
#include "harness/env.h"
#include "fio/fio.h"
#include "results/results.h"
#include "results/row.h"
#include "lib/util.h"

/* What `iostrat fio`'s own options fill; the baseline's settings are
 * fio_settings' (fio/fio_opts.c), as a bench's fio section reads them. */
struct fio_args {
	const char *job, *dataset, *out, *scratch, *parse_only;
	struct fio_client *clients;
	size_t nclients;
	double scale;
	unsigned reps;
	bool json;
	struct fio_config set;
};

/* --cache not given (it is asis with --client, the table's default else) */
#define CACHE_UNSET ((enum cache_mode)-1)

static void fio_usage(FILE *f)
{
	fputs("usage: iostrat fio JOB [--dataset PRESET|DIR] [--scale F] [--bs B] [--qd N]\n"
	      "                       [--direct] [--cache cold|warm|asis]\n"
	      "                       [--fsync file|end|none] [--reps R] [--out DIR]\n"
	      "                       [--scratch DIR] [--json]\n"
	      "                       [--client HOST[:PORT][,HOST[:PORT]...]]\n"
	      "       iostrat fio --parse FIO.json\n\n"
	      "Run one fio baseline (fio-jobs/JOB.fio, or a path) on the files of a data\n"
	      "set: a directory, or a preset generated at --scale (default 0.01) into\n"
	      "$IOSTRAT_DATA (default data/).  Rows (kind=fio) and fio's own JSON go to\n"
	      "the results directory (--out, default results/<time>-fio-JOB).\n\n"
	      "--client HOSTS runs the job on every host at once through fio's own\n"
	      "client (each host runs `fio --server`, port 8765 unless given): one row\n"
	      "per host, labelled by it.  The data set must be at the same path on\n"
	      "every host and here (its file list is read here: a preset made with\n"
	      "the same IOSTRAT_DATA and --scale is the same files), --scratch\n"
	      "(default /tmp) on every host too; the cache is as the hosts left it\n"
	      "(asis; iostrat cannot drop a remote cache).\n\n"
	      "--parse reads an fio JSON output (--output-format=json) and prints the\n"
	      "row iostrat makes of it.\n\n", f);
}

/* The command's own options; fio_settings' argv entries follow them. */
static const struct setting fio_cmd_table[] = {
	{ .name = "dataset", SETTING_STRING(struct fio_args, dataset),
	  .metavar = "PRESET|DIR", .help = "a directory, or a preset (small, medium-short,\n"
	  "medium-long, big; default big)" },
	{ .name = "scale", SETTING_DOUBLE(struct fio_args, scale),
	  .max = 1000, .metavar = "F", .help = "the preset's scale (above 0, default 0.01)" },
	{ .name = "reps", SETTING_UINT(struct fio_args, reps),
	  .min = 1, .max = 1000, .def = "1", .metavar = "R",
	  .help = "repetitions (1..1000, default 1)" },
	{ .name = "out", SETTING_STRING(struct fio_args, out),
	  .metavar = "DIR", .help = "the results directory (default results/<time>-fio-JOB)" },
	{ .name = "scratch", SETTING_STRING(struct fio_args, scratch),
	  .metavar = "DIR", .help = "where the job writes its outputs" },
	{ .name = "json", SETTING_BOOL(struct fio_args, json),
	  .help = "the rows as JSON on standard output" },
	{ .name = "parse", SETTING_STRING(struct fio_args, parse_only),
	  .metavar = "FIO.json", .help = "print the row of an fio JSON output; run nothing" },
	{ 0 },
};

const struct cmd_opts fio_cmdopts = {
	.cmd = "fio", .tables = { fio_cmd_table, fio_settings }, .usage = fio_usage,
};

/* --client: the hosts' cache is as they left it (asis), the scratch /tmp. */
static int client_settings(struct fio_args *a)
{
	if (a->set.cache != CACHE_UNSET && a->set.cache != CACHE_ASIS) {
		errorf("--client: --cache %s cannot be prepared on other hosts "
		       "(their cache is as they left it: asis)", cache_mode_name(a->set.cache));
		return -EINVAL;
	}
	a->set.cache = CACHE_ASIS;
	if (!a->scratch)
		a->scratch = "/tmp";
	return fio_clients_parse(a->set.client, &a->clients, &a->nclients);
}

/* argv by the tables: JOB the one argument left. */
static int parse(struct fio_args *a, int argc, char **argv)
{
	enum cache_mode def = a->set.cache;
	int n;

	a->set.cache = CACHE_UNSET;
	n = cmdopt_parse(&fio_cmdopts, (void *[]){ a, &a->set }, argc, argv);
	if (n < 0)
		return n;
	if (n > 1) {
		errorf("fio: one JOB only ('%s' and '%s')", argv[1], argv[2]);
		return -EINVAL;
	}
	a->job = n ? argv[1] : NULL;
	if (a->scale <= 0) {
		errorf("--scale: bad value '%g' (above 0)", a->scale);
		return -EINVAL;
	}
	if (!a->job && !a->parse_only) {
		errorf("fio: JOB is required (a name in fio-jobs/ or a path)");
		return -EINVAL;
	}
	if (a->set.client)
		return client_settings(a);
	if (a->set.cache == CACHE_UNSET)
		a->set.cache = def;
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
		printf("%-22s failed: %s\n", json_string_value(json_object_get(r, RC_STRATEGY)),
		       json_string_value(json_object_get(r, "error")));
		return;
	}
	printf("%-22s %8.1f MB/s  read %8.1f MB/s (%.0f IOPS, clat p50 %.0f us p99 %.0f us)  "
	       "write %8.1f MB/s  elapsed %.3f s  mirrors: %s\n",
	       json_string_value(json_object_get(r, RC_STRATEGY)),
	       json_real_value(json_object_get(r, RC_MB_S)),
	       json_real_value(json_object_get(r, "read_mb_s")),
	       json_real_value(json_object_get(r, "read_iops")),
	       json_real_value(json_object_get(r, "read_clat_p50_us")),
	       json_real_value(json_object_get(r, "read_clat_p99_us")),
	       json_real_value(json_object_get(r, "write_mb_s")),
	       json_real_value(json_object_get(r, RC_ELAPSED)),
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

/* Is text, s's value, one to pass on ("" or 0 is unset: the kind's
 * default)? */
static bool given(const struct setting *s, const char *text)
{
	return *text && (s->type == SET_BOOL || strcmp(text, "0"));
}

/* The job as a profile of one fio configuration: every fio_settings entry
 * given as the fio kind's key of the same name, the data set's keys and
 * reps. */
static int build_profile(const struct fio_args *a, const char *job,
			 const char *key, const char *name, struct profile *prof)
{
	char scale[32], reps[16], vals[16][64];
	const char *kv[48] = {
		"job", job, "dataset", key, "scale", scale, "seed", "1", "reps", reps,
	};
	size_t n = 10, v = 0;

	snprintf(scale, sizeof(scale), "%.17g", a->scale);
	snprintf(reps, sizeof(reps), "%u", a->reps);
	for (const struct setting *s = fio_settings; s->name && v < 16; s++) {
		const char *t;

		if ((s->where & SET_BOTH) != SET_BOTH)
			continue;
		t = setting_text(s, &a->set, vals[v], sizeof(vals[v]));
		if (!given(s, t))
			continue;
		kv[n++] = s->name;
		kv[n++] = t;
		v++;
	}
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
	struct fio_args a = { .scale = 0.01 };
	int ret;

	settings_defaults(fio_cmd_table, &a);
	settings_defaults(fio_settings, &a.set);
	ret = fio_main(&a, argc, argv);
	free(a.clients);
	return ret;
}

static int fio_main(struct fio_args *a, int argc, char **argv)
{
	char job[PATH_MAX], dir[PATH_MAX], key[PATH_MAX], ver[64];
	char label[NAME_MAX + 1];
	int ret;

	ret = parse(a, argc, argv); /* a->clients: cmd_fio frees them */
	if (ret)
		return cmdopt_exit(ret);
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
