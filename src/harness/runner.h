/* SPDX-License-Identifier: MIT */
/* The runner: one strategy repetition in a forked child, measured and verified, as one row. */
#ifndef IOSTRAT_RUNNER_H
#define IOSTRAT_RUNNER_H

#include <stdbool.h>
#include <sys/types.h>

#include <jansson.h>

#include "cache.h"
#include "config/run_config.h"
#include "core/filelist.h"
#include "core/strategy.h"

/* Fill job->files/sizes/nfiles from fl (borrowed). */
void runner_set_files(struct run_config *cfg, const struct filelist *fl);
/* Reference checksum (hex) of the transform of the inputs at cfg's work. */
int runner_reference(const struct run_config *cfg, const struct filelist *fl,
		     char hex[17]);
/*
 * One measured repetition in a forked child, in a cgroup of its own
 * (harness/cgroup.h) with cfg->memory_max.  Always builds *row (with
 * "error" set on failure).  Returns 0, or -errno for a failed repetition
 * (strategy error, wrong output, child killed; -ENOMEM with oom_kill=true
 * when the limit's OOM killer ended it);
 * the one-line message is in the row's "error" column and printed.
 * ref_hex NULL: no verification (verified stays null).
 */
int runner_rep(const struct run_config *cfg, const struct filelist *fl,
	       unsigned rep, const char *ref_hex, json_t **row);
/* The config_id, one form for run and bench (so compare matches them):
 * DATASET/STRATEGY/tTHREADS/wWORK/CACHE/fsync=F[/bufsize=..][/chunk=..]
 * [/qd=..][/direct][/sink=null][/opt=v...], built from the settings, not
 * their text, so equal settings match whatever way they were written. */
void runner_config_id(const struct run_config *cfg, const char *dataset,
		      char *buf, size_t len);
/* The mark of an output directory iostrat owns (docs: "Guarantees"). */
#define OUTDIR_MARK ".iostrat-output"
/* Check IN/OUT before anything runs: IN a readable directory; OUT neither
 * IN nor inside it by device and inode (bind mounts, symlinks); OUT
 * created if missing (*made says so), writable, and empty or already
 * iostrat's own.  Prints the error. */
int runner_check_dirs(const char *in, const char *out, char *in_abs,
		      char *out_abs, size_t len, bool *made);
/* Undo a new OUT of a run that was refused or made nothing: removed if it
 * holds nothing but the mark; a directory with outputs stays. */
void runner_unmake_out(const char *out);
/* Mark OUT as iostrat's own (OUTDIR_MARK), so a later run may replace its
 * outputs: once every check passed, just before the first output. */
int runner_mark_out(const char *out);
/* The pid of the repetition's child while one runs, else 0: a signal
 * handler may kill it (async-signal-safe read). */
pid_t runner_child_pid(void);
/* Remove out/name and its temp file for every name (before a rep). */
void runner_clean_outputs(const char *out, const struct filelist *fl);
/* Remove only the temporaries (.NAME.iostrat-tmp) of an interrupted rep. */
void runner_clean_temporaries(const char *out, const struct filelist *fl);
/* fsync_mode_names: config/run_config.h. */
const char *fsync_mode_name(enum fsync_mode m);

#endif
