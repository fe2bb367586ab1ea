// SPDX-License-Identifier: MIT
/* Report tables and their output formats (text, CSV, JSON, markdown, HTML). */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "results/row.h"
#include "table.h"
#include "lib/util.h"

/* HTML: a table of more columns than this, and at most HTML_SIDEWAYS_ROWS
 * rows, is printed sideways (a 29-column table does not fit 1,280 px). */
#define HTML_WIDE_COLS 12
#define HTML_SIDEWAYS_ROWS 8

const char *const rfmt_values[] = {
	"text", "csv", "json", "markdown", "html", "md", NULL
};

void rdoc_init(struct rdoc *d)
{
	memset(d, 0, sizeof(*d));
	d->meta = json_object();
}

void rdoc_free(struct rdoc *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->t[i].title);
		free(d->t[i].note);
		json_decref(d->t[i].cols);
		json_decref(d->t[i].rows);
	}
	free(d->t);
	json_decref(d->meta);
}

/* fmt's text, malloc'd (out of memory aborts, as the tables do). */
static char *vtext(const char *fmt, va_list ap)
{
	char *buf;

	if (vasprintf(&buf, fmt, ap) < 0)
		abort();
	return buf;
}

void rdoc_meta(struct rdoc *d, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *buf;

	va_start(ap, fmt);
	buf = vtext(fmt, ap);
	va_end(ap);
	json_object_set_new(d->meta, key, json_text(buf));
	free(buf);
}

struct rtable *rdoc_table(struct rdoc *d, const char *title,
			  const char *const *cols)
{
	struct rtable *t = realloc(d->t, (d->n + 1) * sizeof(*t));

	if (!t)
		abort();
	d->t = t;
	t = &d->t[d->n++];
	t->title = strdup(title);
	t->note = NULL;
	t->cols = json_array();
	t->rows = json_array();
	for (size_t i = 0; cols[i]; i++)
		json_array_append_new(t->cols, json_text(cols[i]));
	return t;
}

struct rtable *rdoc_table_once(struct rdoc *d, struct rtable **t, const char *title,
			       const char *const *cols, const char *note)
{
	if (!*t) {
		*t = rdoc_table(d, title, cols);
		if (note)
			rtable_note(*t, "%s", note);
	}
	return *t;
}

void rtable_note(struct rtable *t, const char *fmt, ...)
{
	va_list ap;
	char *buf;

	va_start(ap, fmt);
	buf = vtext(fmt, ap); /* fmt's arguments may be the old note */
	va_end(ap);
	free(t->note);
	t->note = buf;
}

void rtable_add(struct rtable *t, json_t *row)
{
	json_array_append_new(t->rows, row);
}

json_t *rnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A cell as text, whole (any length; the caller frees it): reals with 4
 * significant digits, no exponent. */
static char *cell_text(json_t *v)
{
	char *s = NULL;
	double x;
	int n;

	switch (json_typeof(v)) {
	case JSON_STRING:
		n = asprintf(&s, "%s", json_string_value(v));
		break;
	case JSON_INTEGER:
		n = asprintf(&s, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		x = json_real_value(v);
		n = asprintf(&s, fabs(x) >= 1000 ? "%.0f" : fabs(x) >= 10 ? "%.1f" :
			     x != 0 && fabs(x) < 0.001 ? "%.1e" : "%.3f", x);
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		n = asprintf(&s, "%s", bool_word(json_is_true(v)));
		break;
	default:
		n = asprintf(&s, "-");
	}
	if (n < 0)
		abort();
	return s;
}

/* A text or markdown header: the column's name, and its declared unit in
 * brackets ("median_s [s]"); the caller frees it. */
static char *header_text(const struct rtable *t, size_t j)
{
	const char *name = json_string_value(json_array_get(t->cols, j));
	struct column c;
	char *s;

	if (report_column_find(name, &c) || !c.unit)
		c.unit = NULL;
	if ((c.unit ? asprintf(&s, "%s [%s]", name, c.unit) : asprintf(&s, "%s", name)) < 0)
		abort();
	return s;
}

/* Numbers right-aligned, text left-aligned. */
static void put_cell(FILE *out, json_t *v, const char *txt, size_t w)
{
	if (json_is_number(v))
		fprintf(out, "%*s", (int)w, txt);
	else
		fprintf(out, "%-*s", (int)w, txt);
}

static void print_text(const struct rtable *t, FILE *out, int md)
{
	size_t nc = json_array_size(t->cols), i, j;
	size_t *w = calloc(nc ? nc : 1, sizeof(*w));
	char *buf;
	json_t *row;

	if (!w)
		return;
	for (j = 0; j < nc; j++) {
		buf = header_text(t, j);
		w[j] = strlen(buf);
		free(buf);
	}
	json_array_foreach(t->rows, i, row)
		for (j = 0; j < nc; j++) {
			buf = cell_text(json_array_get(row, j));
			if (strlen(buf) > w[j])
				w[j] = strlen(buf);
			free(buf);
		}
	fprintf(out, md ? "### %s\n\n" : "%s\n", t->title);
	for (j = 0; j < nc; j++) {
		buf = header_text(t, j);
		fputs(md ? "| " : "  ", out);
		fprintf(out, "%-*s", !md && j + 1 == nc ? 0 : (int)w[j], buf);
		fputs(md ? " " : "", out);
		free(buf);
	}
	fputs(md ? "|\n" : "\n", out);
	if (md) {
		for (j = 0; j < nc; j++) {
			fputs("|", out);
			for (size_t k = 0; k < w[j] + 2; k++)
				fputc('-', out);
		}
		fputs("|\n", out);
	}
	json_array_foreach(t->rows, i, row) {
		for (j = 0; j < nc; j++) {
			json_t *v = json_array_get(row, j);

			buf = cell_text(v);
			fputs(md ? "| " : "  ", out);
			if (!md && j + 1 == nc && !json_is_number(v))
				fputs(buf, out); /* no trailing blanks */
			else
				put_cell(out, v, buf, w[j]);
			fputs(md ? " " : "", out);
			free(buf);
		}
		fputs(md ? "|\n" : "\n", out);
	}
	if (!json_array_size(t->rows))
		fputs(md ? "\n(none)\n" : "  (none)\n", out);
	if (t->note)
		fprintf(out, md ? "\n%s\n" : "  %s\n", t->note);
	fputc('\n', out);
	free(w);
}

static void print_csv(const struct rtable *t, FILE *out)
{
	size_t i, j;
	json_t *row, *v;

	fprintf(out, "# %s\n", t->title);
	json_array_foreach(t->cols, j, v) {
		if (j)
			fputc(',', out);
		csv_field(out, v);
	}
	fputc('\n', out);
	json_array_foreach(t->rows, i, row) {
		json_array_foreach(row, j, v) {
			if (j)
				fputc(',', out);
			csv_field(out, v);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}

static json_t *table_json(const struct rtable *t)
{
	json_t *o = json_object(), *rows = json_array(), *row;
	size_t i, j;

	json_object_set_new(o, "title", json_text(t->title));
	json_object_set_new(o, "note", t->note ? json_text(t->note) : json_null());
	json_object_set(o, "columns", t->cols);
	json_array_foreach(t->rows, i, row) {
		json_t *r = json_object(), *c;

		json_array_foreach(t->cols, j, c)
			json_object_set(r, json_string_value(c), json_array_get(row, j) ?
					json_array_get(row, j) : json_null());
		json_array_append_new(rows, r);
	}
	json_object_set_new(o, "rows", rows);
	return o;
}

/* One cell as <td>: " *" marks the best (class best), numbers right. */
static void html_cell(json_t *v, FILE *out)
{
	char *buf = cell_text(v);
	size_t n = strlen(buf);

	if (n >= 2 && !strcmp(buf + n - 2, " *"))
		fputs("<td class=\"best\">", out);
	else
		fputs(json_is_number(v) ? "<td class=\"num\">" : "<td>", out);
	html_escape(out, buf);
	free(buf);
	fputs("</td>", out);
}

void rtable_note_columns(struct rtable *t, const char *lead,
			 const char *const *names)
{
	char note[1024];
	size_t n = (size_t)snprintf(note, sizeof(note), "%s", lead);
	struct column c;

	for (; *names && n < sizeof(note); names++)
		if (!report_column_find(*names, &c) && c.help)
			n += (size_t)snprintf(note + n, sizeof(note) - n, "; %s: %s",
					      *names, c.help);
	rtable_note(t, "%s", note);
}

/* A header cell; one that names a row column carries the column table's
 * help and unit as its title (the text shown on hovering). */
static void html_th(FILE *out, const char *name)
{
	struct column c;

	fputs("<th", out);
	if (name && !report_column_find(name, &c) && c.help) {
		fputs(" title=\"", out);
		html_escape(out, c.help);
		if (c.unit) {
			fputs(" (", out);
			html_escape(out, c.unit);
			fputc(')', out);
		}
		fputc('"', out);
	}
	fputc('>', out);
	html_escape(out, name);
	fputs("</th>", out);
}

/* A wide table of few rows turned on its side: one line per column, one
 * column per row, so it fits a 1,280 px screen without a scroll box. */
static void html_sideways(const struct rtable *t, FILE *out)
{
	json_t *row, *c;
	size_t i, j;

	json_array_foreach(t->cols, j, c) {
		fputs("<tr>", out);
		html_th(out, json_string_value(c));
		json_array_foreach(t->rows, i, row)
			html_cell(json_array_get(row, j), out);
		fputs("</tr>\n", out);
	}
}

static void html_rows(const struct rtable *t, FILE *out)
{
	json_t *row, *v;
	size_t i, j;

	fputs("<tr>", out);
	json_array_foreach(t->cols, j, v)
		html_th(out, json_string_value(v));
	fputs("</tr>\n", out);
	json_array_foreach(t->rows, i, row) {
		fputs("<tr>", out);
		json_array_foreach(row, j, v)
			html_cell(v, out);
		fputs("</tr>\n", out);
	}
}

void rtable_html(const struct rtable *t, FILE *out)
{
	bool wide = json_array_size(t->cols) > HTML_WIDE_COLS &&
		    json_array_size(t->rows) <= HTML_SIDEWAYS_ROWS;

	fputs("<h3>", out);
	html_escape(out, t->title);
	fputs(wide ? "</h3>\n<table class=\"sideways\">\n" : "</h3>\n<table>\n", out);
	if (wide)
		html_sideways(t, out);
	else
		html_rows(t, out);
	fputs("</table>\n", out);
	if (t->note) {
		fputs("<p class=\"note\">", out);
		html_escape(out, t->note);
		fputs("</p>\n", out);
	}
}

static void print_html(const struct rdoc *d, FILE *out)
{
	html_head(out, "iostrat");
	html_meta_table(out, d->meta);
	for (size_t i = 0; i < d->n; i++)
		rtable_html(&d->t[i], out);
	fputs("</body>\n</html>\n", out);
}

void rdoc_print(const struct rdoc *d, enum rfmt f, FILE *out)
{
	const char *k;
	json_t *v;

	if (f == RF_HTML) {
		print_html(d, out);
		return;
	}
	if (f == RF_JSON) {
		json_t *o = json_object(), *tabs = json_array();

		json_object_set_new(o, "schema", json_integer(1));
		json_object_set(o, "meta", d->meta);
		for (size_t i = 0; i < d->n; i++)
			json_array_append_new(tabs, table_json(&d->t[i]));
		json_object_set_new(o, "tables", tabs);
		json_dumpf(o, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			   JSON_REAL_PRECISION(9));
		fputc('\n', out);
		json_decref(o);
		return;
	}
	json_object_foreach(d->meta, k, v)
		fprintf(out, f == RF_CSV ? "# %s: %s\n" : f == RF_MD ? "- **%s**: %s\n" :
			"%-13s %s\n", k, json_string_value(v));
	fputc('\n', out);
	for (size_t i = 0; i < d->n; i++) {
		if (f == RF_CSV)
			print_csv(&d->t[i], out);
		else
			print_text(&d->t[i], out, f == RF_MD);
	}
}

const struct rtable *rdoc_find(const struct rdoc *d, const char *title)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->t[i].title && !strcmp(d->t[i].title, title))
			return &d->t[i];
	return NULL;
}

json_t *rtable_cell(const struct rtable *t, size_t row, const char *col)
{
	json_t *name;
	size_t j;

	json_array_foreach(t->cols, j, name)
		if (!strcmp(json_string_value(name), col))
			return json_array_get(json_array_get(t->rows, row), j);
	return NULL;
}

json_t *rtable_objects(const struct rtable *t)
{
	json_t *out = json_array(), *row;
	size_t i;

	json_array_foreach(t->rows, i, row) {
		json_t *o = json_object(), *name;
		size_t j;

		json_array_foreach(t->cols, j, name)
			json_object_set(o, json_string_value(name),
					json_array_get(row, j) ?: json_null());
		json_array_append_new(out, o);
	}
	return out;
}
