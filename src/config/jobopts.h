/* SPDX-License-Identifier: MIT */
/* The run settings of one configuration, shared by `iostrat run` options and profile keys. */
#ifndef IOSTRAT_JOBOPTS_H
#define IOSTRAT_JOBOPTS_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/settings.h"
#include "config/run_config.h"

/* The run settings (threads, work, cache, fsync, bufsize, chunk, qd,
 * direct, dontcache, sink) over struct run_config: their one declaration, in
 * config_id order. */
extern const struct setting run_settings[];

/*
 * jobopt_set: KEY, a run setting or one of the chosen strategy's, from
 * argv or a profile: 0, -ENOENT for an unknown key (the caller names it),
 * or -EINVAL/-ERANGE after "iostrat: WHERE: KEY: bad value ...".
 */
int jobopt_set(struct run_config *cfg, const char *where, const char *key,
	       const char *value);
/* Choose the strategy called name, its options at their defaults:
 * 0, -ENOENT (unknown; the caller names it) or -ENOMEM. */
int jobopt_strategy(struct run_config *cfg, const char *name);
/* Whether jobopt_set takes KEY (for the strategy cfg names). */
bool jobopt_known(const struct run_config *cfg, const char *key);
/* Every setting at its default. */
void jobopt_defaults(struct run_config *cfg);
/* The transform cfg->transform names, loaded (job.xform) and its id form
 * in cfg->transform (the given in transform_spec): 0, or -EINVAL after
 * one line (a transform that does not load; --work with a transform that
 * has no passes: only xor has). */
int jobopt_transform(struct run_config *cfg);
/* Free the strategy's options. */
void jobopt_free(struct run_config *cfg);

#endif
