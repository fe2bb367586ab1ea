/* SPDX-License-Identifier: MIT */
/* time_budget: which raced cells the time left holds another round of. */
#ifndef IOSTRAT_ENGINE_BUDGET_H
#define IOSTRAT_ENGINE_BUDGET_H

#include <stddef.h>

#include "cells.h"

/*
 * Before a round, with `left` seconds of the budget left for the raced
 * cells (the round's other repetitions already taken off): the open
 * cells in order of the seconds their projected rounds take (the nearest
 * to a decision first; none in sight last) each take their next round's
 * seconds (cell_round_s) from what is left.  A cell from round
 * RACE_FUTILE_FROM on whose projected rounds do not fit what is left
 * closes as futile; one whose next round does not fit closes for the
 * budget (cell_close).  A cell under its least rounds is not asked.
 */
void budget_round(struct cell *cells, size_t ncells, const struct bench_item *items,
		  size_t n, double left);

#endif
