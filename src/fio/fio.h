/* SPDX-License-Identifier: MIT */
#ifndef IOSTRAT_FIO_H
#define IOSTRAT_FIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "../cache.h"
#include "../filelist.h"

/*
 * fio baselines: the job files in fio-jobs/ run on the very files of a
 * data set, with the same cache state, and fio's JSON becomes a result
 * row of kind "fio".  Parameters reach the job files as environment
 * variables: IOSTRAT_FILES (inputs, ':'-separated, in name order),
 * IOSTRAT_OUTFILES (as many scratch outputs), IOSTRAT_SIZE (total input
 * bytes), IOSTRAT_BS, IOSTRAT_QD, IOSTRAT_DIRECT (0/1), IOSTRAT_FSYNC (0/1).
 * Each job file says which strategies it mirrors in a "; mirrors:" line
 * (NAME, or NAME+direct for the strategy's --direct variant, or -).
 */
struct fio_params {
	const char *job;         /* path of the job file */
	const char *in_dir;
	const struct filelist *fl;
	const char *scratch;     /* directory for the write phase's files */
	uint64_t bs;
	unsigned qd;
	bool direct;
	bool fsync;
	enum cache_mode cache;
	const char *json_out;    /* fio's own JSON is kept here */
	const char *bench;       /* row's bench, may be NULL */
	const char *dataset;     /* row's dataset label, may be NULL */
};

/* fio --version into buf ("fio-3.33"); -ENOENT when fio is missing. */
int fio_version(char *buf, size_t len);
/* The fio-jobs directory: $IOSTRAT_FIO_JOBS, next to the binary's tree
 * (build/iostrat -> fio-jobs/), or PREFIX/share/iostrat/fio-jobs. */
int fio_job_dir(char *out, size_t len);
/* NAME -> DIR/NAME.fio when NAME has no '/', else NAME itself. */
int fio_job_path(const char *name, char *out, size_t len);
/* The job mirroring a strategy (direct: its --direct variant); -ENOENT. */
int fio_job_for(const char *strategy, bool direct, char *out, size_t len);
/* The "; mirrors:" list of a job file ("stream buffer"), "" if none. */
int fio_job_mirrors(const char *path, char *buf, size_t len);
/* The block size a strategy's baseline runs at: its chunk if set, else
 * its buffer size, else the strategy's default_io, else 1 MiB. */
uint64_t fio_bs_for(const char *strategy, uint64_t chunk, uint64_t bufsize);
/* --qd if set, else the strategy's declared default, else 8. */
unsigned fio_qd_for(const char *strategy, unsigned qd);
/* Does a "; mirrors:" list name NAME (strategy, or strategy+direct)? */
bool fio_mirrors_has(const char *list, const char *name);
/* Run one job (cache prepared as p->cache) and build its row.  Prints
 * one clear error and returns -errno when fio fails or is missing. */
int fio_run(const struct fio_params *p, json_t **row);
/* Fill a row from fio's parsed JSON output.  -EINVAL (with *why set)
 * when a field the row needs is missing. */
int fio_parse_json(json_t *fio, json_t *row, const char **why);

#endif
