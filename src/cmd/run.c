// SPDX-License-Identifier: MIT
/* `iostrat run`: one strategy on one directory, R verified and measured repetitions. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "engine/bench.h"
#include "harness/env.h"
#include "config/jobopts.h"
#include "report/report.h"
#include "results/row.h"
#include "harness/runner.h"
#include "trace/hooks.h"
#include "results/stats_math.h"
#include "lib/util.h"

static void run_usage(FILE *f)
{
	fputs("usage: iostrat run --strategy NAME IN OUT [options]\n\n"
	      "Transform every file of IN into OUT with one strategy, R times,\n"
	      "each repetition a forked child, verified against the reference.\n"
	      "A strategy's own options (below the run settings) are taken with\n"
	      "that strategy only.\n\n", f);
}

struct run_args {
	struct run_config cfg;
	const char *strategy, *in, *out, *results, *dataset;
	unsigned reps;
	bool json, trace;
	bool no_space_check;
	json_t *rows; /* the rows, for the summary */
};

static int dataset_label(const struct setting *s, const char *v, void *obj)
{
	struct run_args *a = obj;

	(void)s;
	a->dataset = v;
	return label_check("--dataset", v);
}

/* run's own options; the run settings and the strategy's follow them */
static const struct setting run_table[] = {
	{ .name = "strategy", .shortname = 's', SETTING_STRING(struct run_args, strategy),
	  .metavar = "NAME", .help = "one of `iostrat list`" },
	{ .name = "reps", .shortname = 'r', SETTING_UINT(struct run_args, reps),
	  .min = 1, .max = 100000, .metavar = "R", .help = "repetitions (default 3)" },
	{ .name = "json", SETTING_BOOL(struct run_args, json),
	  .help = "one JSON object per repetition on stdout" },
	{ .name = "trace", SETTING_BOOL(struct run_args, trace),
	  .help = "eBPF figures in each row (root)" },
	{ .name = "dataset", .type = SET_CALL, .arg = true, .call = dataset_label,
	  .metavar = "LABEL", .help = "label for the rows (default: the name of IN)" },
	{ .name = "no-space-check", SETTING_BOOL(struct run_args, no_space_check),
	  .help = "start even if OUT's free space looks too small for\n"
		  "the outputs (compressing filesystems; tests of a\n"
		  "disk filling up mid-run)" },
	{ .name = "results", SETTING_STRING(struct run_args, results), .metavar = "DIR",
	  .help = "also write a results directory: env.json (the machine\n"
		  "context), results.jsonl/csv, summary.csv" },
	{ 0 },
};

/* Every strategy's own options, for the listing and the help. */
static void strategy_options(setting_fn fn, void *ctx)
{
	const struct strategy *st;

	for (size_t i = 0; (st = strategy_at(i)); i++)
		for (const struct setting *s = st->opts; s && s->name; s++)
			fn(s, ctx);
}

const struct cmd_opts run_cmdopts = {
	.cmd = "run", .tables = { run_table, run_settings },
	.more = strategy_options, .usage = run_usage,
};

/* Every option, the chosen strategy's among them; IN and OUT. */
static int parse_with_strategy(struct run_args *a, int argc, char **argv)
{
	char unknown[96];
	struct cmd_opts o = run_cmdopts;
	int npos;

	snprintf(unknown, sizeof(unknown), "for strategy %s", a->cfg.strat->name);
	o.tables[2] = a->cfg.strat->opts; /* o.more: the others', named apart */
	o.unknown = unknown;
	npos = cmdopt_parse(&o, (void *[]){ a, &a->cfg, a->cfg.sopts }, argc, argv);
	if (npos < 0)
		return npos;
	if (npos != 2) {
		errorf("run: need IN and OUT directories (got %d paths)", npos);
		return -EINVAL;
	}
	a->in = argv[1];
	a->out = argv[2];
	a->cfg.dataset = a->dataset;
	return 0;
}

/* The strategy first (a first pass over a copy of argv: its options are
 * known only once it is), then every option by the three tables. */
static int parse_args(struct run_args *a, int argc, char **argv)
{
	struct cmd_opts o = run_cmdopts;
	char **copy = calloc((size_t)argc + 1, sizeof(char *));
	int npos;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, argv, (size_t)argc * sizeof(char *));
	o.flags |= CMDOPT_SKIP_UNKNOWN;
	npos = cmdopt_parse(&o, (void *[]){ a, &a->cfg }, argc, copy);
	free(copy);
	if (npos < 0)
		return npos;
	if (!a->strategy) {
		errorf("run: --strategy is required (iostrat list)");
		return -EINVAL;
	}
	if (jobopt_strategy(&a->cfg, a->strategy)) {
		errorf("%s: unknown strategy (iostrat list shows them)", a->strategy);
		return -EINVAL;
	}
	return parse_with_strategy(a, argc, argv);
}

/* With --trace: which repetitions were traced and what the probes cost. */
static void print_probe_cost(json_t *all)
{
	json_t *first = json_array_get(all, 0);
	const char *id = json_string_value(json_object_get(first, RC_CONFIG_ID));
	struct probe_cost pc;

	if (!id)
		return;
	probe_cost_of(all, id, &pc);
	if (!pc.ntraced)
		return;
	printf("  probes   traced reps %s (not in the figures above): median %.3f s, ",
	       pc.traced_reps, pc.traced_s);
	if (isnan(pc.cost))
		printf("cost not a figure (%s)\n", pc.cost_by);
	else
		printf("%.2fx the untraced (%s %.2f-%.2f)\n", pc.cost, pc.cost_by,
		       pc.cost_lo, pc.cost_hi);
}

/* The timed repetitions' rows (the traced ones are left out). */
static json_t *timed_rows(json_t *all)
{
	json_t *out = json_array(), *r;
	size_t i;

	json_array_foreach(all, i, r)
		if (row_timed(r))
			json_array_append(out, r);
	return out;
}

/* A size as given: 4M, 64k, 1G, else bytes. */
static const char *size_words(uint64_t v, char *buf, size_t len)
{
	static const char unit[] = "kMGT";
	int u = -1;

	while (v && !(v % 1024) && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, unit[u]);
	return buf;
}

/* ", dontcache, memory-max 4M, qd 8": every entry of table not at its
 * default in obj but those the header says anyway, spelt as options. */
static void print_not_default(const struct setting *table, const void *obj)
{
	static const char *const said[] = { "threads", "work", "cache", "fsync", NULL };
	char buf[64], name[64];

	for (const struct setting *s = table; s && s->name; s++) {
		bool skip = false;

		for (size_t i = 0; said[i]; i++)
			skip |= !strcmp(s->name, said[i]);
		if (skip || setting_at_default(s, obj))
			continue;
		printf(", %s", setting_spelling(s->name, name, sizeof(name)));
		if (s->type == SET_SIZE)
			printf(" %s", size_words(strtoull(setting_text(s, obj, buf, sizeof(buf)),
							  NULL, 10), buf, sizeof(buf)));
		else if (s->type != SET_BOOL)
			printf(" %s", setting_text(s, obj, buf, sizeof(buf)));
	}
}

static void print_summary(const struct run_args *a, json_t *all)
{
	json_t *rows = timed_rows(all);
	size_t n = json_array_size(rows);
	double *el = calloc(n ? n : 1, sizeof(double));
	double mb = 0, us = 0, ss = 0;
	long long rss = 0, minf = 0, majf = 0, vcs = 0, ivcs = 0;
	struct summary sm;
	json_t *r;
	size_t i;

	if (!el || !n) {
		free(el);
		json_decref(rows);
		return;
	}
	json_array_foreach(rows, i, r) {
		el[i] = json_real_value(json_object_get(r, RC_ELAPSED));
		us += json_real_value(json_object_get(r, RC_USER));
		ss += json_real_value(json_object_get(r, RC_SYS));
		rss = MAX(rss, json_integer_value(json_object_get(r, RC_MAXRSS)));
		minf += json_integer_value(json_object_get(r, "minflt"));
		majf += json_integer_value(json_object_get(r, "majflt"));
		vcs += json_integer_value(json_object_get(r, "nvcsw"));
		ivcs += json_integer_value(json_object_get(r, "nivcsw"));
	}
	summarize(el, n, &sm);
	r = json_array_get(rows, 0);
	mb = sm.median > 0 ? (double)json_integer_value(json_object_get(r, RC_BYTES_IN)) /
		sm.median / 1e6 : 0;
	printf("%s: %zu files, %.1f MB, threads %u, work %u, cache %s, fsync %s",
	       a->cfg.strat->name, a->cfg.job.nfiles,
	       (double)json_integer_value(json_object_get(r, RC_BYTES_IN)) / 1e6,
	       a->cfg.job.threads, a->cfg.job.work, cache_mode_name(a->cfg.cache),
	       fsync_mode_name(a->cfg.job.fsync));
	print_not_default(run_settings, &a->cfg);
	print_not_default(a->cfg.strat->opts, a->cfg.sopts);
	putchar('\n');
	printf("  elapsed  median %.3f s  min %.3f  max %.3f  (n=%zu, rsd %.1f%%)\n",
	       sm.median, sm.min, sm.max, n, sm.rsd_pct);
	printf("  rate     %.1f MB/s (input bytes / median elapsed)\n", mb);
	printf("  cpu      user %.3f s  sys %.3f s  (mean per rep)\n", us / (double)n,
	       ss / (double)n);
	printf("  memory   peak RSS %lld KiB\n", rss);
	printf("  faults   minor %lld  major %lld;  ctx switches vol %lld  invol %lld (mean)\n",
	       minf / (long long)n, majf / (long long)n, vcs / (long long)n,
	       ivcs / (long long)n);
	printf("  output   %s, xxh3 %s\n",
	       json_is_true(json_object_get(r, "verified")) ? "verified" :
	       json_is_null(json_object_get(r, "verified")) ? "not checked (no output)" :
	       "WRONG", json_is_string(json_object_get(r, "checksum")) ?
	       json_string_value(json_object_get(r, "checksum")) : "-");
	print_probe_cost(all);
	free(el);
	json_decref(rows);
}


static void take_row(void *arg, json_t *row)
{
	struct run_args *a = arg;

	if (a->json) {
		row_write_jsonl(stdout, row);
		fflush(stdout);
	}
	json_array_append(a->rows, row);
}

#define RUN_MAX_KEYS 64

/* The run settings and the strategy's not at their defaults, as the profile's keys (their values
 * as text in text[]): appended to kv at n; the new n. */
static size_t settings_as_keys(const struct run_args *a, const char **kv,
			       size_t n, char text[][64])
{
	const struct setting *tables[] = { run_settings, a->cfg.strat->opts };
	const void *objs[] = { &a->cfg, a->cfg.sopts };
	size_t k = 0;

	for (size_t t = 0; t < 2; t++)
		for (const struct setting *s = tables[t]; s && s->name && k < RUN_MAX_KEYS; s++) {
			if (setting_at_default(s, objs[t]))
				continue;
			kv[n++] = s->name;
			kv[n++] = setting_text(s, objs[t], text[k], sizeof(text[k]));
			k++;
		}
	return n;
}

/* The run as a profile of one configuration, through the bench engine
 * (its repetition loop, results directory and stop policy).  The exit
 * status: 0, 1, or 128 + a stop signal. */
static int run_reps(struct run_args *a)
{
	const char *labels[] = { "in", "out", NULL };
	const char *paths[] = { a->cfg.job.in_dir, a->cfg.job.out_dir, NULL };
	const char *kv[2 * RUN_MAX_KEYS + 9];
	char text[RUN_MAX_KEYS][64];
	struct engine_opts eo = {
		.out = a->results, .no_results = !a->results, .quiet = true,
		.on_row = take_row, .arg = a, .cmd = "run",
		.out_dir = a->cfg.job.out_dir, .data_label = a->cfg.dataset,
		.never_hard = true,
	};
	struct profile prof;
	char reps[16];
	size_t n = 0;
	int ret;

	snprintf(reps, sizeof(reps), "%u", a->reps);
	kv[n++] = "strategy", kv[n++] = a->cfg.strat->name;
	kv[n++] = "dataset", kv[n++] = a->cfg.job.in_dir;
	kv[n++] = "reps", kv[n++] = reps;
	if (a->trace)
		kv[n++] = "trace", kv[n++] = "1";
	n = settings_as_keys(a, kv, n, text);
	kv[n] = NULL;
	if (engine_profile_new(&prof, "run") ||
	    engine_profile_add(&prof, "run", bench_kind_find("run"),
			       "iostrat run", kv)) {
		profile_free(&prof);
		errorf("out of memory");
		return 1;
	}
	eo.env = env_capture(labels, paths);
	a->rows = json_array();
	ret = engine_run_profile(&prof, &eo);
	if (!ret && !a->json)
		print_summary(a, a->rows);
	json_decref(a->rows);
	json_decref(eo.env);
	return ret == 2 ? 1 : ret;
}

/* The outputs must fit in OUT: an input's total, less what the outputs
 * of the same names already there hold (they are removed before a rep). */
static int check_out_space(const struct run_args *a, const struct filelist *fl)
{
	uint64_t have = 0;
	char p[PATH_MAX];

	if (a->no_space_check || a->cfg.job.sink == SINK_NULL ||
	    (a->cfg.strat->flags & STRAT_NO_OUTPUT))
		return 0;
	for (size_t i = 0; i < fl->n; i++) {
		struct stat sb;

		snprintf(p, sizeof(p), "%s/%s", a->cfg.job.out_dir, fl->names[i]);
		if (!stat(p, &sb) && S_ISREG(sb.st_mode))
			have += (uint64_t)sb.st_size;
	}
	return space_check(a->cfg.job.out_dir, fl->total > have ? fl->total - have : 0,
			   0, "the outputs");
}

/* The modes tried where this run reads and writes (--dontcache on the
 * file systems of IN and OUT): refused in one line before any repetition. */
static int check_where(const struct run_args *a)
{
	char why[1024];

	if (!job_check_where(a->cfg.strat, &a->cfg.job, why, sizeof(why)))
		return 0;
	errorf("%s", why);
	return -EINVAL;
}

/* IN scanned, OUT checked and marked, the repetitions: the exit status. */
static int run_in_dirs(struct run_args *a, const char *in_abs, const char *out_abs)
{
	static char label[NAME_MAX * 4 + 1];
	struct filelist fl;
	int ret;

	if (a->results && (path_inside_dir(a->results, in_abs) ||
			   path_inside_dir(a->results, out_abs))) {
		errorf("%s: --results inside the %s directory (%s); refusing: the "
		       "next run would take its files for data", a->results,
		       path_inside_dir(a->results, in_abs) ? "input" : "output",
		       path_inside_dir(a->results, in_abs) ? in_abs : out_abs);
		return 1;
	}
	if (filelist_read(in_abs, &fl))
		return 1;
	if (fl.hidden)
		warnf("%s: %zu hidden file%s skipped (%s%s): dotfiles are not data",
		      a->in, fl.hidden, fl.hidden > 1 ? "s" : "", fl.first_hidden,
		      fl.hidden > 1 ? ", ..." : "");
	if (!fl.n) { /* a verified 0.0 MB/s would be a success on nothing */
		errorf("%s: no input files (names starting with '.' are skipped): "
		       "nothing to run", a->in);
		filelist_free(&fl);
		return 1;
	}
	a->cfg.job.in_dir = in_abs;
	if (!a->cfg.dataset) { /* as bench labels a directory: its name */
		label_from_name(strrchr(in_abs, '/')[1] ? strrchr(in_abs, '/') + 1 : in_abs,
				label, sizeof(label));
		a->cfg.dataset = label;
	}
	a->cfg.job.out_dir = out_abs;
	runner_set_files(&a->cfg, &fl);
	if (check_where(a) || check_out_space(a, &fl) || runner_mark_out(out_abs))
		ret = 1;
	else
		ret = run_reps(a);
	filelist_free(&fl);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	static char in_abs[PATH_MAX], out_abs[PATH_MAX];
	struct run_args a = { .reps = 3 };
	bool made = false;
	int ret;

	jobopt_defaults(&a.cfg);
	ret = parse_args(&a, argc, argv);
	if (ret == -ECANCELED) { /* --help */
		jobopt_free(&a.cfg);
		return 0;
	}
	if (!ret && a.trace)
		ret = tracer_check();
	if (!ret)
		ret = jobopt_transform(&a.cfg);
	if (!ret) {
		char why[256];

		/* not ignored: the row would say direct: true, and the
		 * config_id would differ from the same run without it */
		if (job_check_modes(a.cfg.strat, &a.cfg.job, why, sizeof(why)) ||
		    job_check_knobs(a.cfg.strat, &a.cfg.job, false, why, sizeof(why))) {
			errorf("%s", why);
			ret = -EINVAL;
		}
	}
	if (ret) {
		jobopt_free(&a.cfg);
		return 2;
	}
	if (runner_check_dirs(a.in, a.out, in_abs, out_abs, sizeof(in_abs), &made))
		ret = 1;
	else
		ret = run_in_dirs(&a, in_abs, out_abs);
	if (ret && made) /* a refused run leaves nothing */
		runner_unmake_out(out_abs);
	jobopt_free(&a.cfg);
	return ret;
}
