/* SPDX-License-Identifier: MIT */
#ifndef IOSTRAT_ROW_H
#define IOSTRAT_ROW_H

#include <stdio.h>

#include <jansson.h>

/* One result row per measured repetition, the same names in results.jsonl
 * and results.csv (DESIGN.md "Result rows").  Bump when a column changes
 * meaning; adding a column does not. */
#define ROW_SCHEMA 1

extern const char *const row_core_columns[];

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

#endif
