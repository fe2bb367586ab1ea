/* SPDX-License-Identifier: MIT */
/* Result rows: the core columns, JSON and CSV output, the rules a row read back is checked by. */
#ifndef IOSTRAT_ROW_H
#define IOSTRAT_ROW_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

/* One result row per measured repetition, the same names in results.jsonl
 * and results.csv (docs/results.md).  Bump when a column changes
 * meaning; adding a column does not. */
#define ROW_SCHEMA 1

/* The core columns, in CSV order: the run settings' columns among them
 * (their table is the schema of those), NULL-terminated. */
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
/* The peak memory a repetition's cgroup was charged, in bytes:
 * mem_peak_bytes, else (v2 without memory.peak, Linux before 5.19) the
 * sampler's mem_peak_anon_bytes + mem_peak_file_bytes, *sampled set;
 * NAN when neither was measured (never 0 for "unknown"). */
double row_mem_peak(json_t *row, bool *sampled);
/* The round the row's repetition ran in (its rep where no round). */
unsigned row_round(json_t *row);

/* What a numeric column holds (row_check.c): the rule a row read back is
 * checked by.  ROWCOL_OTHER: text, flags and signed figures, not checked. */
enum row_col_type { ROWCOL_OTHER, ROWCOL_TIME, ROWCOL_SIZE, ROWCOL_COUNT, ROWCOL_RATE };
enum row_col_type row_column_type(const char *name);
/* 0 if row has a config_id of one line, a measurement (no error) an
 * elapsed_s above 0, and every time, size, count and rate of row is null or a finite,
 * non-negative number (whole for a count); else -EINVAL and why (the
 * column, its value and the rule, e.g. "elapsed_s -1.0 is negative (a
 * time)"). */
int row_check(json_t *row, char *why, size_t len);

#endif
