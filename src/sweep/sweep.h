/* SPDX-License-Identifier: MIT */
/*
 * `iostrat sweep blocksize|bufsize|api`: the classic buffering
 * experiments (docs/design.md, questions 2-4).  Every measured variant runs in
 * its own forked child (measure.h), its data is checked against the
 * reference xxh3 before its time counts, and every repetition becomes a
 * result row (results.h) with the sweep's own columns after the core ones.
 *
 * The options are one settings table (opts.c) shared by the command line
 * (--KEY VALUE, cmdopt_parse) and profiles ([sweep-KIND] sections).
 */
#ifndef IOSTRAT_SWEEP_SWEEP_H
#define IOSTRAT_SWEEP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/strategy.h"
#include "harness/cache.h"
#include "lib/settings.h"
#include "results/config_id.h"
#include "results/results.h"
#include "measure.h"

enum sweep_kind { SWEEP_BLOCKSIZE, SWEEP_BUFSIZE, SWEEP_API, SWEEP_NKINDS };
enum sweep_op { OP_WRITE, OP_READ };

/* the APIs, in table order */
enum sweep_api { API_SYSCALL, API_STDIO, API_IOSTREAM, API_MMAP, API_N };

/*
 * The variants of the api sweep: an API and how its library buffer is
 * sized.  The original study used each library as programmers do, with the
 * buffer fopen/the filebuf constructor picks (LIBBUF_DEFAULT); setvbuf /
 * pubsetbuf to the call size (LIBBUF_CALL) takes batching away, so a
 * library call costs one system call like the raw one.  Both are kept:
 * each answers its own question (apivar.c holds the table).
 */
enum api_libbuf { LIBBUF_NONE, LIBBUF_DEFAULT, LIBBUF_CALL };
enum api_variant {
	AV_SYSCALL, AV_STDIO_DEFAULT, AV_IOSTREAM_DEFAULT, AV_STDIO_CALL,
	AV_IOSTREAM_CALL, AV_MMAP, AV_N
};

struct api_variant_def {
	const char *name;      /* the rows' variant: "stdio-default" */
	enum sweep_api api;
	enum api_libbuf libbuf;
	const char *what;      /* one line for help and docs */
};

const struct api_variant_def *sweep_api_variant(enum api_variant v);
/* The library buffer v asks for with calls of block bytes (0: the default). */
size_t sweep_api_libbuf(enum api_variant v, size_t block);
/*
 * Names for --apis/--variants and api= of the api sweep: the variants, and
 * aliases for groups ("stdio" = both stdio variants, "study" = the
 * original study's set).  Mask of 1 << AV_*; -EINVAL if unknown.
 */
int sweep_api_variant_mask(const char *name, unsigned *mask);
/* "syscall,stdio-default,...,stdio,iostream,study,callsize" for errors */
const char *sweep_api_variant_names(void);

/*
 * The sets of variants the api sweep scores: its table and overall order
 * are computed within a set, since points depend on who else competes.
 */
struct api_set {
	const char *name;      /* also an alias in --apis: "study" */
	const char *title;
	unsigned mask;         /* 1 << AV_* */
};

const struct api_set *sweep_api_sets(size_t *n);

#define SWEEP_MAX_SIZES 64
#define SWEEP_WHOLE ((size_t)0) /* in a size list: the whole file at once */

struct sweep_run;
struct sweep_opts {
	enum sweep_kind kind;
	/* runs r's configurations, the rows into each cfg: 0 or the
	 * engine's status (the command gives sweep_through_engine,
	 * engine/kind_sweep.h, from the room above this one) */
	int (*through)(struct sweep_run *r);
	const char *out;      /* results directory; NULL: results/<time>-sweep-KIND */
	const char *dir;      /* data files; NULL: OUT/data */
	const char *bench;    /* the rows' bench name; NULL: sweep-KIND */
	unsigned reps;
	uint64_t size;        /* bytes per file */
	unsigned files;       /* bufsize: number of files */
	double scale;         /* bufsize: multiplies size */
	size_t sizes[SWEEP_MAX_SIZES];     /* block/buffer sizes, SWEEP_WHOLE */
	size_t nsizes;
	size_t buffers[SWEEP_MAX_SIZES];   /* blocksize: extra stdio buffers */
	size_t nbuffers;
	unsigned ops;         /* 1 << OP_WRITE | 1 << OP_READ */
	unsigned apis;        /* 1 << API_* (blocksize: syscall, stdio) */
	unsigned avariants;   /* api sweep: 1 << AV_* */
	enum cache_mode cache;
	enum fsync_mode fsync; /* file or none (a sweep has no "end") */
	bool keep;
	double knee_tol;      /* percent */
	const char *corrupt;  /* test hook (IOSTRAT_SWEEP_CORRUPT=API) */
	const char *where;    /* the profile line being stored (sweep_opt_set),
			       * NULL on argv: errors of the lists name it */
};

/* Kind from "blocksize" etc.; -EINVAL when unknown. */
int sweep_kind_parse(const char *s, enum sweep_kind *k);
const char *sweep_kind_name(enum sweep_kind k);
const char *sweep_api_name(enum sweep_api a);
const char *sweep_op_name(enum sweep_op op);
/* Defaults of the issue for kind. */
void sweep_opts_defaults(struct sweep_opts *o, enum sweep_kind kind);
/*
 * The settings table (opts.c): sweep_settings holds every sweep's
 * entries, the others those of some sweeps; sweep_kind_cmdopts(k) gives
 * sweep k's tables (its argv and --help).
 */
extern const struct setting sweep_settings[];
extern const struct setting sweep_rw_settings[];        /* blocksize, api */
extern const struct setting sweep_blocksize_settings[];
extern const struct setting sweep_bufsize_settings[];
const struct cmd_opts *sweep_kind_cmdopts(enum sweep_kind k);
/* Sweep k's entry called key that may be given where (SET_PROFILE...), or NULL. */
const struct setting *sweep_setting_find(enum sweep_kind k, const char *key,
					 unsigned where);
/* Store value into s's field of o; where ("file.ini:12: key") names the
 * place in the one error line.  0, or -EINVAL/-ERANGE after printing. */
int sweep_opt_set(struct sweep_opts *o, const struct setting *s,
		  const char *where, const char *value);
/* How many values a list setting s holds in o (*what: "block size"...),
 * 1 for a setting that is no list (*what NULL). */
unsigned sweep_opt_count(const struct setting *s, const struct sweep_opts *o,
			 const char **what);
/* Checks across options (after all are set); prints, -EINVAL. */
int sweep_opts_check(const struct sweep_opts *o);

/*
 * One configuration's own values, as its row and config_id record them:
 * sweep_point_settings (opts.c) names their columns and id parts.
 */
struct sweep_point {
	const char *variant;    /* the rows' variant: "stdio-65536" */
	int op;                 /* enum sweep_op */
	int api;                /* enum sweep_api */
	uint64_t block;         /* bytes per call */
	bool whole;             /* the whole file at once */
};
extern const struct setting sweep_point_settings[];
/* The columns a sweep row adds beyond sweep_point_settings' (common.c). */
extern const struct column sweep_columns[];

/* One configuration: one variant at one size for one operation. */
struct sweep_cfg {
	char id[CONFIG_ID_MAX]; /* sweep_cfg_id() */
	char variant[48];       /* "syscall", "stdio", "stdio-65536", "mmap" */
	enum sweep_api api;
	enum sweep_op op;
	size_t block;           /* bytes per call; the file size for whole */
	bool whole;
	size_t lib_buf;         /* stdio/iostream buffer asked for, 0 = default */
	enum api_variant av;    /* api sweep: which variant (else unused) */
	variant_fn fn;
	/* filled while running: per repetition, then medians */
	double *el, *us, *sy, *sc;
	unsigned n;
	double med_el, med_us, med_sy, med_sc, med_mb_s;
	uint64_t lib_buf_used;
};

/* A sweep being run: opts, files, configurations, results. */
struct sweep_run {
	const struct sweep_opts *o;
	char out[4096], dir[4096];
	bool made_dir;          /* we created dir: remove it afterwards */
	bool made_out;          /* we created out (removed if the start fails) */
	char **data;            /* files to read (absolute) */
	size_t ndata;
	uint64_t data_size;     /* bytes per data file */
	char wpath[4096];       /* the file writes go to */
	uint64_t ref_read;      /* xxh3 of all data files, in order */
	uint64_t ref_write;     /* xxh3 of what a write must produce */
	struct sweep_cfg *cfgs;
	size_t ncfgs;
	bool results;           /* the results directory was made (r->out) */
	json_t *env;
	struct filelist *fl;    /* the data files, for cache_prepare */
};

/* One measured, verified repetition of c.  *row is set (with "error" on
 * failure, printed) unless nothing could be measured (-errno, printed).
 * Appending it is the caller's business. */
int sweep_rep(struct sweep_run *r, struct sweep_cfg *c, unsigned rep,
	      json_t **row);
/* Add a configuration; returns it (r->cfgs grows). NULL on ENOMEM. */
struct sweep_cfg *sweep_add_cfg(struct sweep_run *r, enum sweep_op op,
				enum sweep_api api, size_t block, bool whole,
				size_t lib_buf);
/* The same for a variant of the api sweep (named after it). */
struct sweep_cfg *sweep_add_api_cfg(struct sweep_run *r, enum sweep_op op,
				    enum api_variant av, size_t block, bool whole);
variant_fn sweep_variant_fn(enum sweep_api api, enum sweep_op op);

/* setup.c: the results directory made and checked fresh (the bench
 * engine writes it, common.c), data directory and files, references. */
int sweep_setup(struct sweep_run *r, const struct sweep_opts *o,
		unsigned nfiles, uint64_t size, bool need_write);
/* Only the data: o->dir (must be set) created if missing, the files to
 * read and the references (for the bench kind: no results directory). */
int sweep_data_setup(struct sweep_run *r, const struct sweep_opts *o,
		     unsigned nfiles, uint64_t size);
/* Free what a run holds (files stay). */
void sweep_data_free(struct sweep_run *r);
/* Remove the data files (unless --keep). */
int sweep_teardown(struct sweep_run *r, int status);

/* Set up (nfiles of size bytes), build the configurations, run them as
 * a profile of sections of the sweep kind through the bench engine
 * (every configuration R times, interleaved: rep 1 of all, then rep 2
 * ..., each repetition starting further down the list), medians into
 * each cfg, print the tables, tear down.  0, -errno (printed), or the
 * engine's status: 1 a repetition failed, 2 a configuration refused,
 * 128 + the stop signal (its line printed by the engine). */
int sweep_main(const struct sweep_opts *o, FILE *out, unsigned nfiles,
	       uint64_t size, int (*build)(struct sweep_run *r),
	       void (*print)(const struct sweep_run *r, FILE *f));

/* One sweep each: build configurations, execute, print the table. */
int sweep_blocksize(const struct sweep_opts *o, FILE *out);
int sweep_bufsize(const struct sweep_opts *o, FILE *out);
int sweep_api(const struct sweep_opts *o, FILE *out);

/* Dispatch on o->kind: 0, 1 (failure printed), 2, or 128 + a stop
 * signal. */
int sweep_run_opts(const struct sweep_opts *o, FILE *out);

/* c's values as a point (sweep_point_settings). */
struct sweep_point sweep_point_of(const struct sweep_cfg *c);
/* The data set of c's rows: "FILESxBYTES" (a write makes one file). */
const char *sweep_dataset(const struct sweep_run *r, const struct sweep_cfg *c,
			  char *buf, size_t len);

/* Human sizes for tables: "32", "4K", "1M", "whole". */
const char *sweep_size_str(size_t v, bool whole, char *buf, size_t len);

#endif
