/* SPDX-License-Identifier: MIT */
/* The kernel view's spread: a probe column over a configuration's traced repetitions, and when it may be quoted. */
#ifndef IOSTRAT_KSPREAD_H
#define IOSTRAT_KSPREAD_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/*
 * A probe figure of one configuration over its traced repetitions (rows
 * with role "traced" that completed; rows written before the role, where
 * every repetition was traced, count as they are): n, median, min, max.
 * n == 0: no row has it (med, lo, hi NAN).
 */
struct kspread {
	size_t n;
	double med, lo, hi;
};

/*
 * The rule a figure must meet to be quoted as a fact (docs/kernel-view.md):
 *   n >= KSPREAD_MIN_N traced repetitions, and
 *   a percentage (unit "%"):   max - min <= KSPREAD_PCT_POINTS points,
 *   a ratio 0..1 (unit "ratio"): max - min <= KSPREAD_PCT_POINTS / 100,
 *   any other figure:            the median within KSPREAD_REL_PCT % of
 *                                both ends (max - med and med - min).
 * A figure with fewer repetitions is said with their number ("spread
 * unknown"), one beyond the rule as a range ("varies: 49-76% ...").
 */
#define KSPREAD_MIN_N 3
#define KSPREAD_PCT_POINTS 15.0
#define KSPREAD_REL_PCT 25.0

enum kspread_say {
	KS_NONE,    /* nothing traced */
	KS_FEW,     /* fewer than KSPREAD_MIN_N: the median, spread unknown */
	KS_STEADY,  /* within the rule: the median */
	KS_VARIES,  /* beyond it: the range */
};

/* Column col of config id's rows, into *ks. */
void kspread_of(json_t *rows, const char *id, const char *col, struct kspread *ks);
/* Of the values v[0..n) (reordered), into *ks. */
void kspread_from(double *v, size_t n, struct kspread *ks);
/* What may be said of column col's spread ks. */
enum kspread_say kspread_rule(const char *col, const struct kspread *ks);
/* The kernel view's cell: "62" (one repetition or all equal), "62
 * (49-76)", "62 (49-76) varies" beyond the rule; "" when n == 0. */
const char *kspread_cell(const char *col, const struct kspread *ks, char *buf, size_t len);

#endif
