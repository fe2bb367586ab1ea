/* SPDX-License-Identifier: MIT */
/* One configuration of a run as the run settings fill it (struct run_config), and the names of its modes. */
#ifndef IOSTRAT_RUN_CONFIG_H
#define IOSTRAT_RUN_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "core/strategy.h"

/* The input's cache state made before each repetition (harness/cache.c). */
enum cache_mode { CACHE_COLD, CACHE_WARM, CACHE_ASIS };
/* The modes' names, in enum order, NULL-terminated (run_settings.c). */
extern const char *const cache_mode_names[];
extern const char *const fsync_mode_names[];

/*
 * Hooks around one measured repetition, for observers such as the eBPF
 * probes.  started() runs in the parent after fork and before the child is
 * let go (the child waits on a pipe), so a probe can filter on its pid.
 * after() adds the observer's figures to the row.
 */
struct rep_hooks {
	int (*before)(void *arg);
	int (*started)(void *arg, pid_t child);
	void (*after)(void *arg, json_t *row);
	void *arg;
};

struct run_config {
	const struct strategy *strat;
	struct job job;
	enum cache_mode cache;
	uint64_t memory_max;   /* bytes, 0: no limit (the repetition's cgroup) */
	bool accounting;       /* a cgroup per repetition also without a limit */
	void *sopts;           /* the strategy's options (jobopt_strategy) */
	const char *bench;     /* NULL for `iostrat run` */
	const char *dataset;   /* label, NULL if none */
	const char *config_id; /* NULL: derived from the settings */
	const char *transform; /* as given (transform=); after jobopt_transform
				  the id's form: NAME[:ARG], a plug-in NAME.HASH8[:ARG] */
	const char *transform_spec; /* as given, kept for the row */
	const struct rep_hooks *hooks;
	json_t *env;           /* env.json content: kernel, disk, ... */
};

#endif
