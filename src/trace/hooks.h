/* SPDX-License-Identifier: MIT */
/* The tracer's API for the runner's callers: hooks that add the eBPF probes' figures to each repetition's row. */
#ifndef IOSTRAT_TRACE_HOOKS_H
#define IOSTRAT_TRACE_HOOKS_H

#include <jansson.h>

#include "config/run_config.h"

/*
 * The eBPF tracer (hooks.c, always built; without probes it
 * says so through tracer_open's warning).
 * tracer_open: hooks that add the probes' figures to each row (and set
 * traced=true), or NULL after printing one warning (not root, no BTF,
 * built without eBPF...).  tracer_close(NULL) does nothing.
 */
const struct rep_hooks *tracer_open(const struct run_config *cfg);
void tracer_close(const struct rep_hooks *hooks);
/* 0, or -EINVAL after one error line when the environment's tracing
 * settings are bad (IOSTRAT_TRACE_MODE): checked before any work. */
int tracer_check(void);
/* A row of a repetition that tracer_open() gave no hooks for: its
 * trace_error says why (the warning's reason), so a figure or report made
 * from the rows can say it too. */
void tracer_mark_untraced(json_t *row);

#endif
