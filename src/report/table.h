/* SPDX-License-Identifier: MIT */
/* A report as header facts and tables, printed in any of the report's formats. */
#ifndef IOSTRAT_REPORT_TABLE_H
#define IOSTRAT_REPORT_TABLE_H

#include <stdio.h>

#include <jansson.h>

#include "lib/column.h"

/*
 * A report is a few header facts and a list of tables; report and compare
 * build one and print it in any format:
 *   text      aligned columns          markdown  ### title + pipe tables
 *   csv       each table as "# title", a header line, rows; blank line
 *             between tables (gnuplot reads such blocks with `index`)
 *   json      {"schema", "meta": {...}, "tables": [{"title", "note",
 *             "columns", "rows": [{column: value}]}]}
 *   html      a self-contained page of the tables (report: html.c adds
 *             the verdict, the figures and the context)
 * Cells are JSON values: numbers stay numbers in csv and json.
 */
enum rfmt { RF_TEXT, RF_CSV, RF_JSON, RF_MD, RF_HTML };

struct rtable {
	char *title, *note;
	json_t *cols; /* array of strings */
	json_t *rows; /* array of arrays */
};

struct rdoc {
	json_t *meta; /* object: key -> string (kept in order) */
	struct rtable *t;
	size_t n;
};

/* The --format values (a SET_ENUM's values): enum rfmt's names in its
 * order, then "md", markdown's short name. */
extern const char *const rfmt_values[];
/* The format of rfmt_values[i]. */
static inline enum rfmt rfmt_of(int i)
{
	return i > RF_HTML ? RF_MD : (enum rfmt)i;
}
void rdoc_init(struct rdoc *d);
void rdoc_free(struct rdoc *d);
void rdoc_meta(struct rdoc *d, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A new table; cols is NULL-terminated.  The pointer is valid until the
 * next rdoc_table call. */
struct rtable *rdoc_table(struct rdoc *d, const char *title,
			  const char *const *cols);
/* A table made on its first line: *t, made (with note, if not NULL) when
 * it is NULL.  A report with no line for it has no such table. */
struct rtable *rdoc_table_once(struct rdoc *d, struct rtable **t, const char *title,
			       const char *const *cols, const char *note);
void rtable_note(struct rtable *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The note lead, then "; NAME: help" for each of names (NULL-ended)
 * from the column table: a column is explained by its table line. */
void rtable_note_columns(struct rtable *t, const char *lead,
			 const char *const *names);
/* Append a row (an array, reference stolen). */
void rtable_add(struct rtable *t, json_t *row);
void rdoc_print(const struct rdoc *d, enum rfmt f, FILE *out);
/* The table titled title, or NULL. */
const struct rtable *rdoc_find(const struct rdoc *d, const char *title);
/* Row row's cell in column col, or NULL (no such column or row). */
json_t *rtable_cell(const struct rtable *t, size_t row, const char *col);
/* Its rows as objects, column name -> cell (figure 6 reads compare's
 * spread table so, from memory). */
json_t *rtable_objects(const struct rtable *t);
/* HTML pieces (html.c): text escaped; the page head up to <body>; one
 * table (a cell ending " *" is the marked fastest one: class "best"). */
void html_escape(FILE *out, const char *s);
void html_head(FILE *out, const char *title);
/* An epoch time as "2026-11-28 05:12 UTC" into buf. */
const char *html_date(double epoch, char *buf, size_t len);
/* The header facts (key -> string) as a two-column table. */
void html_meta_table(FILE *out, json_t *meta);
void rtable_html(const struct rtable *t, FILE *out);
/* report_columns.c: what a header names: the row column of that name,
 * else the report's own (the figures it derives); -ENOENT when neither.
 * Text and markdown headers show its unit ("median_s [s]"), HTML its help
 * and unit on hovering; CSV and JSON keep the bare name, a key. */
int report_column_find(const char *name, struct column *c);
void report_columns_each(void (*fn)(const struct column *c, void *ctx), void *ctx);
/* A real, or null when v is not finite. */
json_t *rnum(double v);

#endif
