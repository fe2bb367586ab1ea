/* SPDX-License-Identifier: MIT */
/* The verdict's headline: per cell, one short table and one sentence ending in the next step. */
#ifndef IOSTRAT_REPORT_HEADLINE_H
#define IOSTRAT_REPORT_HEADLINE_H

#include <jansson.h>

#include "report.h"

/* Title prefix of the headline tables ("headline: CELL"). */
#define HEADLINE_PREFIX "headline: "

/* Per cell of verdict_cells() (cells), a table: strategy | median s [95%
 * CI of the median, order statistics] | x fastest [the race's anytime
 * interval, paired by round] | decision | limited by; its note the cell's
 * sentence. */
void report_headline(const struct rrun *r, json_t *cells, struct rdoc *d);

#endif
