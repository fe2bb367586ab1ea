/* SPDX-License-Identifier: MIT */
/* The bench engine's interface: kinds, configurations, data sets and repetitions of a profile. */
#ifndef IOSTRAT_BENCH_H
#define IOSTRAT_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/filelist.h"

struct xform;
#include "engine/profile.h"
#include "lib/column.h"
#include "lib/settings.h"
#include "results/race.h"
#include "results/results.h"

/*
 * The bench engine (engine.c) runs the configurations of a profile:
 * repetitions interleaved across configurations (round r runs rep r of
 * every configuration that still needs one), adaptive repetitions,
 * progress, the stop signals, resume.  It is the one repetition loop:
 * `iostrat bench` loads a profile from a file; run and fio (and net and
 * sweep) build one in memory and call engine_run_profile.  What one repetition of a
 * configuration means is the business of its kind (struct bench_kind):
 * "run" (kind_run.c) runs a strategy on a data set; sweep, net, fio ...
 * add their own kind and get matrices, repetitions, statistics, results
 * directories and reports for free.
 */

/* Data sets, generated once per bench into the data cache and shared. */
struct bench_dataset {
	char label[1024];      /* the preset name, the directory's name, or run's --dataset */
	char dir[4096];
	double scale;
	uint64_t seed;
	bool user_dir;         /* dataset=PATH: used as is, never generated */
	struct filelist fl;
	char out[4096];        /* scratch output directory for this data set */
	/* reference checksums, by transform and work */
	struct { unsigned work; const struct xform *x; char hex[17]; } *refs;
	size_t nrefs;
};

struct bench_ctx {
	const char *name;      /* bench (profile) name: the rows' "bench" */
	const char *data_root; /* data cache: data/<preset>-s<scale>-seed<N> */
	char scratch[4096];    /* outputs (removed at the end) */
	json_t *env;           /* env.json */
	struct results_dir *res;
	struct bench_dataset **ds;
	size_t nds;
	bool dry_run;
	bool quiet;
	/* A command's in-memory profile ("run", "fio"; NULL for a bench): its
	 * kinds keep the command's own row columns and file names. */
	const char *cmd;
	const char *out_dir;    /* the outputs go here (run's OUT, fio's
				 * --scratch), not into a scratch directory */
	const char *data_label; /* the data sets' label (run --dataset) */
};

/* One configuration being run. */
struct bench_item {
	const struct pconf *pc;
	char id[512];      /* config_id: stable across runs (resume, compare) */
	char label[256];   /* progress line: "uring threads=2 work=100 big" */
	unsigned reps, max_reps;
	double target_rsd; /* percent */
	int stop;          /* STOP_RULE_RSD or STOP_RULE_CI */
	unsigned trace_reps; /* traced repetitions (kinds with .traced) */
	uint64_t order_seed; /* the first item's: the shuffle's seed; 0: derived */
	double *samples;   /* the metric of each good timed repetition */
	unsigned *rounds;  /* the round each sample ran in */
	size_t nsamples;
	unsigned ntraced;  /* traced repetitions run (good or failed) */
	bool tracing;      /* set by the engine around a traced repetition */
	size_t cell;       /* index into the engine's cells */
	unsigned fails;
	bool oom;          /* a repetition of it was killed by memory_max */
	double est_s;      /* rough seconds per repetition (dry run, eta) */
	double wall_s;     /* seconds its timed repetitions took, all told */
	double min_effect; /* stop=ci: percent, the band of "equal within" */
	double time_budget; /* seconds the repetitions may take (0: no budget) */
	bool out;          /* stop=ci: left the race, behind another member */
	unsigned out_round; /* the rounds it had when it left */
	struct race_cmp race; /* its cell's last look at it */
	size_t race_vs;    /* the member race.vs names (items; SIZE_MAX: none) */
	void *priv;        /* the kind's */
};

/* The stopping rules (engine_settings' stop=). */
enum { STOP_RULE_RSD, STOP_RULE_CI };

/* reps, max_reps, target_rsd, stop, min_effect, time_budget, trace_reps, order_seed
 * over a bench_item: every section's keys. */
extern const struct setting engine_settings[];
/* The columns the engine adds to each row (engine_settings.c). */
extern const struct column engine_columns[];

/* A run section's keys that add configurations beside each of its own
 * (profile.c): fio=1.  run_section_settings' object. */
struct run_section {
	bool fio;
};
extern const struct setting run_section_settings[];

struct bench_kind {
	const char *name;
	/* Check one expanded configuration.  0 ok; 1 skip it (*why says
	 * why: a strategy not linked, a mode the file system of its data
	 * refuses...); negative after printing "iostrat: FILE:LINE: ..." for
	 * an unknown key or a bad value.  Engine keys (profile_engine_key)
	 * are checked already.  ctx: where the data sets and outputs go
	 * (bench_dataset_paths); nothing may be created. */
	int (*check)(const struct bench_ctx *ctx, const struct pconf *c, char *why,
		     size_t len);
	/* Fill it->id, it->label, it->est_s, it->priv; with ctx->dry_run
	 * nothing may be created.  0 or negative after printing. */
	int (*prepare)(struct bench_ctx *ctx, struct bench_item *it);
	/* One measured repetition.  *row is set (with "error" on failure)
	 * unless -ENOMEM, or is an array of rows (fio --client: one per
	 * host); returns 0 or negative for a failed repetition. */
	int (*rep)(struct bench_ctx *ctx, struct bench_item *it, unsigned rep,
		   json_t **row);
	/* Free what it->priv holds (called while it is set); the engine
	 * frees it->priv itself.  NULL: it holds nothing of its own. */
	void (*release)(struct bench_item *it);
	/* Does this kind take kv, a key section c inherits ([global] or -D)?
	 * c holds the section's keys before lists expand; c NULL asks whether
	 * any section of this kind would.  false: the key is left out of the
	 * section and listed by --dry-run (iostrat-profile(5)) with *why, or
	 * "not a key of kind NAME" when it leaves *why empty.  NULL: every
	 * key is taken. */
	bool (*inherits)(const struct pconf *c, const struct pkv *kv, char *why,
			 size_t len);
	/* The cell it belongs to: configurations that differ only by the
	 * thing compared (run: the strategy) share a key, and stop=ci stops
	 * them together.  NULL: every configuration is its own cell. */
	void (*cell)(const struct bench_item *it, char *key, size_t len);
	/* Does it want traced repetitions (trace=1 with the probes working)?
	 * The engine then runs it->trace_reps of them with it->tracing set;
	 * its timed repetitions run untraced.  NULL: never. */
	bool (*traced)(const struct bench_item *it);
};

/* An item's own state freed: what it->priv holds (its kind's release),
 * then the block; it->priv NULL after.  The one way an item is let go. */
void bench_item_release(const struct bench_kind *k, struct bench_item *it);

/* A kind's table, by the names its file gives its functions:
 * NAME_kind_check, _prepare, _rep and _inherits; the optional fields
 * (.release, .cell, .traced) follow as designated initializers. */
#define BENCH_KIND(NAME, ...)                                              \
	const struct bench_kind bench_kind_##NAME = {                      \
		.name = #NAME,                                             \
		.check = NAME##_kind_check,                                \
		.prepare = NAME##_kind_prepare,                            \
		.rep = NAME##_kind_rep,                                    \
		.inherits = NAME##_kind_inherits,                          \
		__VA_ARGS__                                                \
	}

/* The keys of a run section (kind_run.c), which the fio kind reads too:
 * strategy, dataset, scale, seed, trace, fio, the settings of iostrat run
 * and every strategy's options. */
bool bench_run_key(const char *key);

/* The kind table (profile.c): by name, NULL for an unknown name. */
const struct bench_kind *bench_kind_find(const char *name);
/* Every kind's name, in the table's order, NULL-terminated (handed down
 * to results, which checks a row's kind against them). */
const char *const *bench_kind_names(void);
/* The kind a section name selects by prefix, NULL if none. */
const char *bench_kind_by_section(const char *section);

/* The data-set keys of a configuration, for every kind that reads them:
 * dataset=PRESET|PATH, scale= in (0, 1000], seed=.  0 when kv was one of
 * them (stored), -ENOENT when not, -EINVAL after printing a bad value. */
int bench_data_key(const struct pkv *kv, const char **preset, double *scale,
		   uint64_t *seed);
/* The data cache: given (--data), else $IOSTRAT_DATA, else "data". */
const char *bench_data_root(const char *given);
/* Where a preset at scale/seed lives in the data cache under root. */
void bench_dataset_dir(const char *root, const char *preset, double scale,
		       uint64_t seed, char *out, size_t len);
/* Where a data set (preset at scale/seed, or the user's directory) is
 * read from (dir) and its outputs written (out), made or not: 0, or
 * -EINVAL for an unknown preset.  Nothing is registered or created. */
int bench_dataset_paths(const struct bench_ctx *ctx, const char *preset, double scale,
			uint64_t seed, char *dir, char *out, size_t len);
/* Find or generate a data set (preset at scale/seed), with its scratch
 * output directory.  Dry run: only the spec.  Prints its errors. */
int bench_dataset_get(struct bench_ctx *ctx, const char *where,
		      const char *preset, double scale, uint64_t seed,
		      struct bench_dataset **out);
/* Reference checksum of ds at work (computed once). */
int bench_dataset_ref(struct bench_dataset *ds, const struct xform *x, unsigned work,
		      const char **hex);
/* Generate (or reuse) every data set found so far; scratch dirs too. */
int bench_datasets_materialize(struct bench_ctx *ctx);
uint64_t bench_dataset_bytes(const char *preset, double scale);
void bench_datasets_free(struct bench_ctx *ctx);

struct bench_opts {
	const char *profile;  /* NULL with resume */
	const char *out;      /* results dir, NULL: results/<time>-<name> */
	const char *resume;
	const char *data;     /* data cache root */
	struct setting_list defs; /* -D KEY=VALUE, in the order given */
	bool dry_run;
	bool quiet;           /* with dry_run: the checks only, no matrix */
	bool data_anywhere;   /* resume onto data on another filesystem */
};

/* datarec.c: DIR/data.json, the data a bench measured (for --resume). */
int bench_data_record(const struct bench_ctx *ctx, const char *resdir);
/* The record, or NULL (a results directory from before it existed). */
json_t *bench_data_load(const char *resdir);
/* 0 if root is on the recorded filesystem (or nothing recorded), else
 * -EXDEV after printing. */
int bench_data_same_fs(json_t *rec, const char *root, const char *resdir);
/* 0 if every recorded data set still holds what it held, else -ESTALE
 * after printing which changed. */
int bench_data_check(const struct bench_ctx *ctx, json_t *rec,
		     const char *resdir);

/* The whole bench: 0 ok, 1 failures, 2 usage, 130 interrupted. */
int bench_main(const struct bench_opts *o);

/* ---- in-memory profiles: run, fio, net and sweep run through here ------ */

/* What a command that builds its own profile asks of the engine around
 * it; everything else (the repetition loop, the results directory with
 * its lock and row-by-row fsync, the stop policy) is bench's. */
struct engine_opts {
	const char *out;     /* results directory; NULL: results/<time>-<name> */
	bool no_results;     /* no results directory at all (run without
			      * --results): rows go to on_row only */
	bool resumable;      /* the "has results already" refusal names --resume */
	const char *data;    /* data cache root; NULL: $IOSTRAT_DATA, else data */
	json_t *env;         /* env.json (borrowed); NULL: captured here */
	bool quiet;          /* no progress lines, no closing "results:" line */
	bool stop_on_fail;   /* the first failed repetition (its row kept)
			      * ends the run: net, sweep */
	/* each row, after it is kept (written to the results directory) */
	void (*on_row)(void *arg, json_t *row);
	void *arg;
	const char *cmd;        /* bench_ctx.cmd: the command's name */
	const char *out_dir;    /* bench_ctx.out_dir (not removed; only the
				 * temporaries of a stopped repetition are) */
	const char *data_label; /* bench_ctx.data_label */
	bool never_hard;        /* a second signal does not end the process
				 * (run: OUT's temporaries must be removed) */
	char *dir;              /* if set: the results directory's path here */
	size_t dir_len;
};

/* Build a profile in memory: empty, named name (the rows' "bench", the
 * default results directory's suffix).  0 or -ENOMEM. */
int engine_profile_new(struct profile *p, const char *name);
/* Add one configuration of kind in section (where: "iostrat run", for
 * messages), its keys as key, value, ..., NULL (values copied).  The same
 * keys a profile section takes; engine keys (reps ...) too. */
int engine_profile_add(struct profile *p, const char *section,
		       const struct bench_kind *kind, const char *where,
		       const char *const *kv);
/* Set each of defs[n] (KEY=VALUE, -D) in every configuration of p, as
 * profile_load applies them last: a key there is replaced, another
 * added.  0, -EINVAL after one line (who as profile_defs_check), -ENOMEM. */
int engine_profile_define(struct profile *p, const char *who, char *const *defs,
			  size_t n);

/* Run prof, built in memory, as bench runs a loaded profile: plan, data
 * sets, repetitions, results, stop policy (on SIGINT/SIGTERM/SIGHUP the
 * running child is killed and its repetition is no row).  prof is freed.
 * 0 ok, 1 failures, 2 a bad configuration, 128 + the signal on a stop. */
int engine_run_profile(struct profile *prof, const struct engine_opts *o);

/* queue_retry.c: under the reboot queue, a retry of the entry resumes the
 * --out its cut-off attempt began (o->out becomes o->resume).  0, or
 * -errno with the error printed. */
int bench_queue_retry(struct bench_opts *o);

#endif
