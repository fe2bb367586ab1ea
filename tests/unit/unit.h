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

static const char *unit_skip_reason = "";
#define SKIP(why) do { unit_skip_reason = (why); return UNIT_SKIP; } while (0)

/* The binary's cases: each UNIT(name) adds itself at load, and main runs
 * them in the order they are written, so a case cannot be left out of a
 * list.  A case returns 0 (pass), 77 (skip), else fails. */
struct unit_case {
	const char *name;
	int (*fn)(void);
	int line;
};

static struct unit_case unit_cases[64];
static size_t unit_ncases;

static void unit_add(const char *name, int (*fn)(void), int line)
{
	size_t i = unit_ncases++;

	if (unit_ncases > sizeof(unit_cases) / sizeof(unit_cases[0])) {
		fprintf(stderr, "unit.h: more than %zu cases\n", i);
		exit(1);
	}
	for (; i && unit_cases[i - 1].line > line; i--)
		unit_cases[i] = unit_cases[i - 1];
	unit_cases[i] = (struct unit_case){ name, fn, line };
}

#define UNIT(fn)                                                           \
	static int fn(void);                                               \
	__attribute__((constructor)) static void unit_add_##fn(void)       \
	{                                                                  \
		unit_add(#fn, fn, __LINE__);                               \
	}                                                                  \
	static int fn(void)

/* What a binary does before its first case (0, or 1 to stop) and after
 * its last (its exit status from failed); set once by UNIT_FIXTURE. */
static int (*unit_before)(void);
static int (*unit_after)(int failed);

#define UNIT_FIXTURE(before, after)                                        \
	__attribute__((constructor)) static void unit_fixture(void)        \
	{                                                                  \
		unit_before = (before);                                    \
		unit_after = (after);                                      \
	}

static void unit_run(const struct unit_case *c)
{
	int r = c->fn();

	if (r == 0)
		printf("PASS: %s\n", c->name);
	else if (r == UNIT_SKIP)
		printf("SKIP: %s: %s\n", c->name, unit_skip_reason);
	else {
		printf("FAIL: %s: see above\n", c->name);
		unit_failed = 1;
	}
	fflush(stdout);
}

int main(void)
{
	if (unit_before && unit_before())
		return 1;
	if (!unit_ncases) {
		printf("FAIL: no UNIT cases in this binary\n");
		return 1;
	}
	for (size_t i = 0; i < unit_ncases; i++)
		unit_run(&unit_cases[i]);
	return unit_after ? unit_after(unit_failed) : unit_failed;
}

#endif
