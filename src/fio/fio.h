/* SPDX-License-Identifier: MIT */
/* fio baselines: finding a strategy's job, running fio, reading its JSON into a row. */
#ifndef IOSTRAT_FIO_H
#define IOSTRAT_FIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/resource.h>

#include <jansson.h>

#include "lib/settings.h"
#include "harness/cache.h"
#include "core/filelist.h"
#include "core/strategy.h"

/*
 * fio baselines: the job files in fio-jobs/ run on the very files of a
 * data set, with the same cache state, and fio's JSON becomes a result
 * row of kind "fio".  Parameters reach the job files as environment
 * variables: IOSTRAT_FILES (inputs, ':'-separated, in name order),
 * IOSTRAT_OUTFILES (as many scratch outputs), IOSTRAT_SIZE (total input
 * bytes), IOSTRAT_BS, IOSTRAT_QD, IOSTRAT_DIRECT (0/1), and the fsync setting
 * as fio's two options: IOSTRAT_FSYNC_ON_CLOSE (0/1: fsync=file) and
 * IOSTRAT_END_FSYNC (0/1: fsync=end), both 0 for fsync=none.
 * Each job file says which strategies it mirrors in a "; mirrors:" line
 * (NAME, or NAME+direct for the strategy's --direct variant, or -).
 */
/* A host running `fio --server`, as --client names it: HOST[:PORT]
 * ([ADDR]:PORT for IPv6), fio's default port 8765. */
#define FIO_CLIENTS_MAX 64
#define FIO_DEFAULT_PORT 8765
struct fio_client {
	char host[256];
	unsigned port;
	char label[280]; /* the rows' host: HOST, or HOST:PORT off the default port */
	char opt[300];   /* fio's option: --client=ip:HOST,PORT (ip6: for IPv6) */
};

/* The settings of one fio baseline: `iostrat fio`'s options and a fio
 * section's keys alike, by the one table fio_settings (fio_opts.c), which
 * also makes the row's columns and config_id. */
struct fio_config {
	const char *job;         /* job=: a name in fio-jobs/ or a path */
	enum cache_mode cache;
	uint64_t bs, chunk, bufsize; /* 0: unset */
	unsigned qd;             /* 0: unset */
	bool direct;
	enum fsync_mode fsync;   /* file: fsync_on_close, end: end_fsync */
	const char *client;      /* HOST[:PORT],...: fio --client */
};
extern const struct setting fio_settings[];
/* The columns a fio row adds beyond its settings' (fio_columns.c). */
extern const struct column fio_columns[];
/* The block size, depth and direct a baseline runs at: bs, else chunk,
 * else bufsize, else the strategy's; qd, else the strategy's; direct, or
 * always for a strategy that is always O_DIRECT. */
void fio_config_resolve(struct fio_config *c, const char *strategy,
			bool always_direct);

struct fio_params {
	const char *job;         /* path of the job file */
	const char *in_dir;
	const struct filelist *fl;
	const char *scratch;     /* directory for the write phase's files */
	const struct fio_config *set; /* resolved (fio_config_resolve) */
	const char *config_id;   /* the row's (config_id_make) */
	const char *json_out;    /* fio's own JSON is kept here */
	const char *bench;       /* row's bench, may be NULL */
	const char *dataset;     /* row's dataset label, may be NULL */
	const struct fio_client *clients; /* run on these fio servers (fio_client.c) */
	size_t nclients;
};

/* fio --version into buf ("fio-3.33"); -ENOENT when fio is missing. */
int fio_version(char *buf, size_t len);
/* The fio-jobs directory: $IOSTRAT_FIO_JOBS, next to the binary's tree
 * (build/iostrat -> fio-jobs/), or PREFIX/share/iostrat/fio-jobs. */
int fio_job_dir(char *out, size_t len);
/* $IOSTRAT_FIO_JOBS, when set, must be a readable directory: else one line
 * naming the variable and -errno. */
int fio_job_env_check(void);
/* The one line for a job NAME fio_job_path could not find (error ERR):
 * where it was looked for, and whether IOSTRAT_FIO_JOBS chose that. */
void fio_job_error(const char *prefix, const char *name, int err);
/* NAME -> DIR/NAME.fio when NAME has no '/', else NAME itself. */
int fio_job_path(const char *name, char *out, size_t len);
/* The job mirroring a strategy (direct: its --direct variant), found by
 * reading the "; mirrors:" line of every job of fio_job_dir: the first in
 * name order that names it.  -ENOENT when none does; -EINVAL after one
 * line naming a job file that has no "; mirrors:" line. */
int fio_job_for(const char *strategy, bool direct, char *out, size_t len);
/* The "; mirrors:" list of a job file ("stream buffer"; "" for "-");
 * -ENODATA when its opening comment has no such line. */
int fio_job_mirrors(const char *path, char *buf, size_t len);
/* What a "; mirrors:" list says for a strategy's runs: NAME, or
 * NAME+direct for its --direct variant (a strategy that is always
 * O_DIRECT, STRAT_ALWAYS_DIRECT, is NAME alone). */
void fio_mirror_token(const char *strategy, bool direct, char *buf, size_t len);
/* The block size a strategy's baseline runs at: its chunk if set, else
 * its buffer size, else the strategy's default_io, else 1 MiB. */
uint64_t fio_bs_for(const char *strategy, uint64_t chunk, uint64_t bufsize);
/* --qd if set, else the strategy's declared default, else 8. */
unsigned fio_qd_for(const char *strategy, unsigned qd);
/* Does a "; mirrors:" list name NAME (strategy, or strategy+direct)? */
bool fio_mirrors_has(const char *list, const char *name);
/* fio_pair.c: which fio rows (or summaries) f stand beside a run's s.
 * The same ground: data set, cache state and fsync class (none, or an
 * fsync of some kind). */
bool fio_same_ground(json_t *f, json_t *s);
/* Can any fio job mirror run s like for like?  Not a --dontcache run:
 * iostrat gives fio no uncached=1 (fio 3.33 has none), so every fio job
 * runs through the page cache. */
bool fio_can_mirror(json_t *s);
/* Run one job (cache prepared as p->cache) and build its row.  Prints
 * one clear error and returns -errno when fio fails or is missing. */
int fio_run(const struct fio_params *p, json_t **row);
/* Fill a row from fio's parsed JSON output.  -EINVAL (with *why set)
 * when a field the row needs is missing. */
int fio_parse_json(json_t *fio, json_t *row, const char **why);

/* The pieces of fio_run that fio_run_clients shares (fio_run.c):
 * IOSTRAT_* into the environment, fio as a child (p->clients: through
 * fio's own --client, one per host), fio's reason from its log, and the
 * row's columns from the parameters. */
int fio_job_env(const struct fio_params *p);
int fio_spawn(const struct fio_params *p, const char *errlog, struct rusage *ru,
	      double *wall);
void fio_first_error(const char *log, char *buf, size_t len);
void fio_fill_row(const struct fio_params *p, json_t *row, double resident,
		  const struct rusage *ru, double wall);

/* fio_client.c.  "H1,H2:PORT,[::1]:PORT" into *c (malloc'd); one clear
 * line and -EINVAL on a bad host or port. */
int fio_clients_parse(const char *list, struct fio_client **c, size_t *n);
/* Each host resolved and its port answering (a TCP connect, timeout_ms
 * each); one line naming the first that is not and -errno. */
int fio_clients_reach(const struct fio_client *c, size_t n, int timeout_ms);
/* fio's output of a --client run: its text lines first, then the JSON. */
json_t *fio_json_load(const char *path, json_error_t *e);
/* Run p->job on every p->clients through fio --client: one row per host
 * (*rows, an array), labelled by the host, from fio's per-host
 * client_stats.  A host whose jobs failed gets a row with its error. */
int fio_run_clients(const struct fio_params *p, json_t **rows);
/* The rows of a --client output (base: the columns every row shares). */
int fio_client_rows(json_t *fio, const struct fio_client *c, size_t n, json_t *base,
		    json_t *rows);

#endif
