/* SPDX-License-Identifier: MIT */
/* Result rows: the core columns, JSON and CSV output, the rules a row read back is checked by. */
#ifndef IOSTRAT_ROW_H
#define IOSTRAT_ROW_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "lib/column.h"

struct setting;

/* One result row per measured repetition, the same names in results.jsonl
 * and results.csv (docs/results.md).  Bump when a column changes
 * meaning; adding a column does not. */
#define ROW_SCHEMA 1

/* The table of the columns (row.c): the core ones (COLF_CORE) in CSV
 * order, then a run row's own; { 0 }-terminated.  The entry of empty name
 * stands for the run settings' columns (column_is_settings), typed by
 * their table.  Strategies declare theirs in struct strategy .columns. */
extern const struct column row_columns[];
bool column_is_settings(const struct column *c);
/* A run setting's column as a table line into *c; false if it has none. */
bool column_of_setting(const struct setting *s, struct column *c);
/* Its values as "a|b" (a run setting's enum joined into buf), or NULL. */
const char *column_values(const struct column *c, char *buf, size_t len);
/* The column name from the table, the run settings, a strategy's
 * declared columns or a declaration handed down (row_columns_add), into
 * *out: 0, or -ENOENT (row_check.c). */
int column_find(const char *name, struct column *out);
/* "text", "time", ... */
const char *column_type_name(enum col_type t);

/*
 * The rooms above results (the kinds fio, net and sweep, the probes of
 * trace) declare their columns in tables of their own, which results
 * cannot include: the top (cmd's columns_hand_down, called by main at
 * start) hands each table down once.  A column declared twice with two
 * types is refused (the error names both rooms): -EINVAL; more tables
 * than the registry holds: -ENOSPC.  row_settings_add takes a settings
 * table's entries with a column as columns of room.
 */
int row_columns_add(const struct column *table);
int row_settings_add(const struct setting *table, const char *room);
/* The bench kinds whose rows are this iostrat's, handed down by the top
 * from the engine's table (NULL-terminated, kept, not copied); row_kinds
 * is that list (empty before: every kind is then unknown). */
void row_kinds_set(const char *const *names);
const char *const *row_kinds(void);
/* Forget every table handed down (the tests' fresh start). */
void row_columns_forget(void);
/* A column of a table handed down: 0 and *out, or -ENOENT. */
int row_declared_find(const char *name, struct column *out);
/* Every column known, once per declaration (a column two declare comes
 * twice): the core table with the run settings in place, the
 * strategies', then the tables handed down in their order. */
typedef void column_fn(const struct column *c, void *ctx);
void row_columns_each(column_fn *fn, void *ctx);

/* The core columns' names, in CSV order, NULL-terminated. */
const char *const *row_core_columns(void);

/* A row with every core column present and null, schema set. */
json_t *row_new(const char *bench, const char *kind);
/* Copy every key of extra into row (after the core columns). */
void row_merge(json_t *row, json_t *extra);
/* One line of JSON (compact, key order kept), with newline. */
int row_write_jsonl(FILE *f, json_t *row);
/* CSV of an array of rows: core columns first, then every other key in
 * order of first appearance; null -> empty, strings quoted when needed. */
int row_write_csv(FILE *f, json_t *rows);
/* Quote one CSV field into f. */
void csv_field(FILE *f, json_t *v);

/* A timed repetition's row (role "timed", or no role: results written
 * before traced repetitions existed are all timed); the statistics of
 * elapsed time, rates and CPU take only these.  false: role "traced",
 * the probes attached (the kernel view's figures). */
bool row_timed(json_t *row);
/* Does any row of rows answer pred(row, arg)?  The one loop of "is there
 * a row with ..." (a column, a number, a kind). */
typedef bool row_pred(json_t *row, const void *arg);
bool rows_any(json_t *rows, row_pred *pred, const void *arg);
/* The peak memory a repetition's cgroup was charged, in bytes:
 * mem_peak_bytes, else (v2 without memory.peak, Linux before 5.19) the
 * sampler's mem_peak_anon_bytes + mem_peak_file_bytes, *sampled set;
 * NAN when neither was measured (never 0 for "unknown"). */
double row_mem_peak(json_t *row, bool *sampled);
/* The round the row's repetition ran in (its rep where no round). */
unsigned row_round(json_t *row);

/* What a column holds, for the check of a row read back: its type in
 * the tables (column_find); COL_TEXT, unchecked, for a column no table
 * declares (results_load warns of it). */
enum col_type row_column_type(const char *name);
/* 0 if row has a config_id of one line, a measurement (no error) an
 * elapsed_s above 0, and every time, size, count and rate of row is null or a finite,
 * non-negative number (whole for a count); else -EINVAL and why (the
 * column, its value and the rule, e.g. "elapsed_s -1.0 is negative (a
 * time)"). */
int row_check(json_t *row, char *why, size_t len);

#endif
