/* SPDX-License-Identifier: MIT */
/* A bounded rate series (read and write MB/s per interval) and its compact text form. */
#ifndef IOSTRAT_SERIES_H
#define IOSTRAT_SERIES_H

#include <stddef.h>

/*
 * Read and write MB/s per interval of step_ms.  Samples come every
 * base_ms; at most SERIES_MAX intervals are kept: when full, each two
 * neighbours merge into one (their mean) and the step doubles, so a long
 * run keeps its whole span at a coarser step and the text stays under
 * SERIES_MAX * 16 bytes.
 *
 * Text: "STEP_MS:R/W R/W ...", rates with at most one decimal
 * ("100:12.5/0 13.1/4.2"); "STEP_MS:" when empty.
 */
#define SERIES_MAX 600

struct series {
	unsigned base_ms, step_ms;
	size_t n;
	float rd[SERIES_MAX], wr[SERIES_MAX];
	double acc_rd, acc_wr; /* base samples of the interval under way */
	unsigned acc_n;
};

void series_init(struct series *s, unsigned base_ms);
/* One base interval's rates. */
void series_add(struct series *s, double rd_mbs, double wr_mbs);
/* At most max intervals (max >= 1): neighbours merge, the step doubles,
 * as when full; an odd last interval goes (whole intervals only). */
void series_coarsen(struct series *s, size_t max);
/* The text form (malloc'd), NULL without memory. */
char *series_format(const struct series *s);
/* The text form back into *s (base_ms = step_ms): 0, or -EINVAL naming
 * nothing (the caller names the row). */
int series_parse(const char *text, struct series *s);

#endif
