/* SPDX-License-Identifier: MIT */
/* The run settings of one configuration, shared by `iostrat run` options and profile keys. */
#ifndef IOSTRAT_JOBOPTS_H
#define IOSTRAT_JOBOPTS_H

#include <stdbool.h>
#include <stdio.h>

#include "cmdopt.h"
#include "harness/runner.h"

/*
 * The settings of one configuration, shared by `iostrat run` (--KEY VALUE)
 * and profiles (KEY=VALUE): threads, work, bufsize, chunk, qd, direct,
 * sink, fsync, cache, and the chosen strategy's own options.
 *
 * jobopt_set: 0, -ENOENT for an unknown key (the caller names it), or
 * -EINVAL/-ERANGE after printing "iostrat: WHERE: KEY: bad value ..."
 * (where = "--bufsize" or "file.ini:12").
 */
int jobopt_set(struct run_config *cfg, const char *where, const char *key,
	       const char *value);
/* Does KEY take a value?  (false for flags like --direct) */
bool jobopt_is_flag(const struct run_config *cfg, const char *key);
/* Whether jobopt_set takes KEY (for the strategy cfg names). */
bool jobopt_known(const struct run_config *cfg, const char *key);
/* Defaults: threads 1, work 0, fsync file, cache cold. */
void jobopt_defaults(struct run_config *cfg);
/* Free what jobopt_set allocated for strategy options. */
void jobopt_free(struct run_config *cfg);
/* Every key, as an option of `iostrat run`: the common ones, then every
 * strategy's own (cmdopt.h). */
void jobopt_each(cmd_opt_fn fn, void *ctx);
/* Help text for the common keys. */
void jobopt_help(FILE *f);

#endif
