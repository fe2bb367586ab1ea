/* SPDX-License-Identifier: MIT */
/*
 * The strategy contract (fio's ioengine_ops pattern).
 *
 * A strategy is one file under src/core/strategies/ that fills one
 * `struct strategy` and is listed in src/core/strategies/registry.c.
 * The runner knows nothing strategy-specific: it builds a `struct job`, forks a child,
 * calls ->run() in the child and records what ->run() put in run_stats.
 *
 * Contract for ->run():
 *   - Transform every file job->files[i] of job->in_dir into
 *     job->out_dir/job->files[i] with transform_chunk() (byte-identical to
 *     the reference), unless the strategy has STRAT_NO_OUTPUT or
 *     job->sink_null is set.
 *   - Open outputs with out_open()/out_commit()/out_abort() (src/core/outfile.h)
 *     so a failed run never leaves a complete-looking output file, and so
 *     job->fsync is honoured the same way by every strategy.
 *   - Honour job->threads (see per_file.h for the common "N threads share
 *     the file list" driver), job->work, and job->bufsize/chunk/qd where
 *     meaningful; 0 means "the strategy's default", and the strategy
 *     records the value it actually used in st->extra.
 *   - Return 0, or a negative errno after stats_fail() recorded which file
 *     and what operation failed.  The message reaches the user as one line.
 *   - Add bytes read and written to st->bytes_in / st->bytes_out (atomic
 *     adds; threads share st).
 *   - Strategy knobs and figures go to st->extra via stats_set_*();
 *     they become extra columns of the result row, each declared in the
 *     strategy's .columns (its type, unit and help: results/row.h).
 */
#ifndef IOSTRAT_STRATEGY_H
#define IOSTRAT_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>

#include "lib/column.h"

enum fsync_mode {
	FSYNC_FILE = 0, /* fsync every output before it is renamed in place */
	FSYNC_END,      /* one syncfs() of the output filesystem at the end */
	FSYNC_NONE,     /* page-cache-only writes (the result says so) */
};

enum sink_mode {
	SINK_FILE = 0,  /* write the outputs */
	SINK_NULL,      /* read and transform, write nothing */
};

struct job {
	const char *in_dir;
	const char *out_dir;
	char **files;        /* names relative to in_dir, sorted */
	uint64_t *sizes;     /* sizes at job start */
	size_t nfiles;
	unsigned threads;    /* >= 1 */
	unsigned work;       /* transform passes per line (docs/design.md) */
	size_t bufsize;      /* 0 = strategy default */
	size_t chunk;        /* 0 = strategy default */
	unsigned qd;         /* 0 = strategy default */
	bool direct;         /* O_DIRECT where the strategy supports it */
	bool dontcache;      /* RWF_DONTCACHE reads and writes (STRAT_DONTCACHE) */
	enum sink_mode sink;
	enum fsync_mode fsync;
	const void *sopts;   /* the strategy's options: its struct, filled by
				its settings table (struct strategy .opts) */
	/* the transform: NULL or in_place, the study's XOR in place with
	 * work passes (transform_chunk); else its records through xform.h */
	const struct xform *xform;
};

#define STATS_ERRMSG_MAX 512

struct json_t;
struct setting;
struct xform;

struct run_stats {
	uint64_t bytes_in;   /* atomic adds */
	uint64_t bytes_out;  /* atomic adds */
	struct json_t *extra; /* object: strategy knobs and figures */
	pthread_mutex_t lock;
	int err;             /* first error, negative errno */
	char errmsg[STATS_ERRMSG_MAX];
};

enum {
	STRAT_NO_OUTPUT = 1 << 0, /* writes nothing: exempt from verification */
	STRAT_DIRECT = 1 << 1,    /* honours --direct (O_DIRECT); others refuse it */
	/* always O_DIRECT, without --direct: its fio baseline is a direct
	 * job, named NAME (not NAME+direct) in "; mirrors:" lines */
	STRAT_ALWAYS_DIRECT = 1 << 2,
	/* one of the plain ways the report sets every other strategy
	 * against: its grid shows their medians side by side, and each other
	 * strategy's cell its ratio to the best of them */
	STRAT_REPORT_BASE = 1 << 3,
	/* a control, not a way to do the job (it measures the harness): never
	 * named the fastest of a figure */
	STRAT_CONTROL = 1 << 4,
	/* honours --dontcache (buffered I/O with RWF_DONTCACHE: its pages
	 * dropped once done); others refuse it */
	STRAT_DONTCACHE = 1 << 5,
	/* holds a whole file in memory: what fits a memory limit is the
	 * largest file, not the data (the memory verdict's "files smaller
	 * than the limit") */
	STRAT_WHOLE_FILE = 1 << 6,
	/* the run settings it uses (--bufsize, --chunk, --qd): one it does
	 * not use is refused (run) or left out of its configuration (bench),
	 * never a config_id of its own */
	STRAT_BUFSIZE = 1 << 7,
	STRAT_CHUNK = 1 << 8,
	STRAT_QD = 1 << 9,
	/* runs any record transform (xform.h), not only the XOR in place:
	 * one it cannot run is refused (run) or skipped (bench) */
	STRAT_RECORDS = 1 << 10,
};

struct strategy {
	const char *name;
	const char *summary;     /* one line for `iostrat list` and --help */
	unsigned flags;
	/* Its own options: a settings table (lib/settings.h) filling a
	 * struct of opts_size bytes that the job carries as sopts; NULL if
	 * none.  Typed and checked when given, before anything runs. */
	const struct setting *opts;
	size_t opts_size;
	int (*run)(const struct job *job, struct run_stats *st);
	/* The I/O size without --chunk or --bufsize, and the --qd default
	 * (0: not used); the fio baseline beside a run mirrors them. */
	size_t default_io;
	unsigned default_qd;
	/* The memory it allocates whatever the data, from job's threads,
	 * chunk and qd (0: its defaults); NULL: none to speak of.  A kill by
	 * a memory limit below it is the pool's, not the data's. */
	size_t (*pool_bytes)(const struct job *job);
	/* Whether its own options (job->sopts) go together: 0, or 1 and one
	 * line in why ("--sq-thread-idle: only with --sqpoll"); NULL: they
	 * always do.  Checked with the modes, before anything runs. */
	int (*check)(const struct job *job, char *why, size_t len);
	/* Whether the file systems of job->in_dir and job->out_dir take its
	 * I/O (direct: not tmpfs or ramfs): 0, or 1 and one line in why;
	 * NULL: any.  Checked by job_check_where, before a cache is dropped. */
	int (*check_where)(const struct job *job, char *why, size_t len);
	/* The columns it adds to a row (st->extra), { 0 }-terminated; NULL
	 * if none.  A column two strategies add is declared alike by both. */
	const struct column *columns;
};

/* The fields a strategy's file (strategy_P in P.c) names after it: .name
 * "P" and .run P_run; with options, .opts P_settings filling struct
 * P_opts. */
#define STRATEGY(P) .name = #P, .run = P##_run
#define STRATEGY_OPTS(P) .opts = P##_settings, .opts_size = sizeof(struct P##_opts)

/* registry.c */
const struct strategy *strategy_find(const char *name);
/* Iterate: for (i = 0; (s = strategy_at(i)); i++) */
const struct strategy *strategy_at(size_t i);
/* The names of the strategies with flag, in registry order, joined by sep
 * ("stream/buffer"), into buf; returns buf. */
const char *strategy_names_with(unsigned flag, const char *sep, char *buf,
				size_t len);

/* stats.c */
void stats_init(struct run_stats *st);
void stats_destroy(struct run_stats *st);
/* Record the first failure (thread-safe) and return err (negative errno). */
int stats_fail(struct run_stats *st, int err, const char *path,
	       const char *what);
/* Record a failure with a custom reason instead of strerror(err). */
int stats_failf(struct run_stats *st, int err, const char *path,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
bool stats_failed(struct run_stats *st);
void stats_add_in(struct run_stats *st, uint64_t n);
void stats_add_out(struct run_stats *st, uint64_t n);
void stats_set_int(struct run_stats *st, const char *key, long long v);
void stats_set_str(struct run_stats *st, const char *key, const char *v);
void stats_set_real(struct run_stats *st, const char *key, double v);

/* job.c */
/* Whether job's transform is the XOR in place (transform_chunk, work
 * passes): no transform named, or "xor". */
bool job_xform_in_place(const struct job *job);
/* Build "in_dir/files[i]" into buf. */
void job_in_path(const struct job *job, size_t i, char *buf, size_t len);
/* Whether strategy s can run job's I/O modes (--direct, --dontcache),
 * from its capabilities: 0, or 1 and one line in why ("--direct: strategy
 * stream does not do direct I/O (...)"). */
int job_check_modes(const struct strategy *s, const struct job *job,
		    char *why, size_t len);
/* The run settings of job that s does not use (STRAT_BUFSIZE, _CHUNK,
 * _QD): 0, or 1 and one line in why ("--qd: strategy stream does not use
 * it (direct, uring do)"); with drop, they are cleared instead (a
 * profile's grid: left out of that strategy's configurations). */
int job_check_knobs(const struct strategy *s, struct job *job, bool drop,
		    char *why, size_t len);
/* Whether the kernel and the file systems of job->in_dir and job->out_dir
 * (or the parents they will be made in) take job's modes: --dontcache
 * tried there (dontcache_probe; out_dir only when s writes outputs).  0,
 * or 1 and one line in why. */
int job_check_where(const struct strategy *s, const struct job *job,
		    char *why, size_t len);

#endif
