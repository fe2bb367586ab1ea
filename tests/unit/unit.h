/* SPDX-License-Identifier: MIT */
/* A tiny unit-test protocol, the same lines as tests/lib.sh:
 * "PASS: name", "FAIL: name: why", "SKIP: name: reason". */
#ifndef IOSTRAT_UNIT_H
#define IOSTRAT_UNIT_H

#include <stdio.h>
#include <stdlib.h>

static int unit_failed;

/* Rows are read as iostrat reads them: with the engine's kinds handed
 * down to results, as the top does at start (cmd/columns.c). */
const char *const *bench_kind_names(void);
void row_kinds_set(const char *const *names);
__attribute__((constructor)) static void unit_kinds_hand_down(void)
{
	row_kinds_set(bench_kind_names());
}

#define CHECK(cond, ...) do {                                              \
	if (!(cond)) {                                                     \
		printf("  check failed at %s:%d: %s: ", __FILE__, __LINE__, \
		       #cond);                                             \
		printf(__VA_ARGS__);                                       \
		printf("\n");                                              \
		return 1;                                                  \
	}                                                                  \
} while (0)

#define UNIT_SKIP 77

/* Run one case: a function returning 0 (pass), 77 (skip), else fail. */
#define RUN(fn) do {                                                       \
	int _r = fn();                                                     \
	if (_r == 0)                                                       \
		printf("PASS: %s\n", #fn);                                 \
	else if (_r == UNIT_SKIP)                                          \
		printf("SKIP: %s: %s\n", #fn, unit_skip_reason);           \
	else {                                                             \
		printf("FAIL: %s: see above\n", #fn);                      \
		unit_failed = 1;                                           \
	}                                                                  \
	fflush(stdout);                                                    \
} while (0)

static const char *unit_skip_reason = "";
#define SKIP(why) do { unit_skip_reason = (why); return UNIT_SKIP; } while (0)

#endif
