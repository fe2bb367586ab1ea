/* SPDX-License-Identifier: MIT */
/* The sweep kind's side of `iostrat sweep`: the command's data files lent to the kind, and its configurations run through the engine. */
#ifndef IOSTRAT_ENGINE_KIND_SWEEP_H
#define IOSTRAT_ENGINE_KIND_SWEEP_H

#include "sweep/sweep.h"

/* kind_sweep.c: the command's data files, lent to the sweep kind for the
 * configurations of their shape until sweep_kind_unlend. */
int sweep_kind_lend(const struct sweep_run *r);
void sweep_kind_unlend(void);
/* sweep_through.c: r's configurations through the bench engine, the
 * measured repetitions into each cfg (el, us, sy, sc, n); the engine's
 * status (0, 1 failed, 2 refused, 128 + a stop signal), its errors
 * printed.  The command gives it as sweep_opts.through. */
int sweep_through_engine(struct sweep_run *r);

#endif
