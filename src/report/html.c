// SPDX-License-Identifier: MIT
/*
 * report.html (docs/verdict.md): one self-contained page per results
 * directory -- the verdict first, then every figure of DIR/plots inline
 * (the SVG markup itself, ids prefixed per figure so two figures' gnuplot
 * definitions never collide), the grids and other tables, the profile
 * that was run and the machine context.  No script, no network, no file
 * beside it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "headline.h"
#include "lib/util.h"
#include "report.h"

void html_escape(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

static const char css[] =
	"body{font-family:'DejaVu Sans',Arial,sans-serif;margin:1.5em auto;max-width:1250px;"
	"color:#222;padding:0 1em}"
	"h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:2em}"
	"h3{font-size:1em}"
	"table{border-collapse:collapse;margin:.5em 0 1em;font-size:.85em;max-width:100%}"
	"td,th{border:1px solid #ddd;padding:.2em .5em;text-align:left;vertical-align:top;"
	"overflow-wrap:anywhere}"
	"details{margin:1em 0}summary{cursor:pointer;font-weight:bold}"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}"
	"th{background:#f3f3f3}td.best{font-weight:bold;background:#fff3c4}"
	"table.meta th,table.env th{white-space:nowrap;overflow-wrap:normal}"
	"p.note{font-size:.8em;color:#555;margin-top:-.5em}"
	"ul.verdict li{margin:.4em 0}ul.verdict b{color:#000}"
	"figure{margin:1em 0}figure svg{max-width:100%;height:auto;display:block}"
	"figcaption{font-size:.8em;color:#555}pre{background:#f7f7f7;padding:.5em;"
	"overflow-x:auto;font-size:.8em}";

void html_head(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>", out);
	html_escape(out, title);
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n", css);
}

/* SVG markup with every id (and reference to one) prefixed by pfx. */
static void svg_inline(FILE *out, const char *svg, const char *pfx)
{
	static const char *const keys[] = { "id='", "id=\"", "href='#", "href=\"#",
		"url(#", NULL };
	const char *p = strstr(svg, "<svg");

	if (!p)
		return;
	while (*p) {
		size_t k;

		for (k = 0; keys[k]; k++)
			if (!strncmp(p, keys[k], strlen(keys[k])))
				break;
		if (keys[k]) {
			fprintf(out, "%s%s-", keys[k], pfx);
			p += strlen(keys[k]);
		} else {
			fputc(*p++, out);
		}
	}
}

static void figures(FILE *out, char *const *paths, size_t n)
{
	fputs("<h2 id=\"figures\">Figures</h2>\n", out);
	if (!n) {
		fputs("<p>No figures (none could be drawn: see <code>iostrat plot</code>).</p>\n",
		      out);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char *svg = NULL, pfx[16];
		const char *b = strrchr(paths[i], '/');
		size_t len;

		snprintf(pfx, sizeof(pfx), "f%zu", i + 1);
		if (!read_file_small(paths[i], &svg, &len) && strstr(svg, "<svg")) {
			fputs("<figure class=\"fig\">\n", out);
			svg_inline(out, svg, pfx);
			fputs("\n<figcaption>", out);
			html_escape(out, b ? b + 1 : paths[i]);
			fputs("</figcaption>\n</figure>\n", out);
		}
		free(svg);
	}
}

void html_meta_table(FILE *out, json_t *meta)
{
	const char *k;
	json_t *v;

	fputs("<table class=\"meta\">\n", out);
	json_object_foreach(meta, k, v) {
		fputs("<tr><th>", out);
		html_escape(out, k);
		fputs("</th><td>", out);
		html_escape(out, json_string_value(v));
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

const char *html_date(double epoch, char *buf, size_t len)
{
	time_t t = (time_t)epoch;
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(buf, len, "%.0f", epoch);
	return buf;
}

/* env.json flattened: one row per key (objects as KEY.SUB). */
static void env_rows(FILE *out, json_t *o, const char *prefix)
{
	const char *k;
	json_t *v;

	json_object_foreach(o, k, v) {
		char key[256];

		snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", k);
		if (json_is_object(v)) {
			env_rows(out, v, key);
			continue;
		}
		fputs("<tr><th>", out);
		html_escape(out, key);
		fputs("</th><td>", out);
		if (!strcmp(key, "captured_at") && json_is_number(v)) {
			char when[40];

			fputs(html_date(json_number_value(v), when, sizeof(when)), out);
		} else if (json_is_string(v)) {
			html_escape(out, json_string_value(v));
		} else {
			char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

			html_escape(out, s);
			free(s);
		}
		fputs("</td></tr>\n", out);
	}
}

static const struct rtable *find_table(const struct rdoc *d, const char *title)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->t[i].title, title))
			return &d->t[i];
	return NULL;
}

static bool is_headline(const struct rtable *t)
{
	return !strncmp(t->title, HEADLINE_PREFIX, strlen(HEADLINE_PREFIX));
}

static void verdict(FILE *out, const struct rdoc *d)
{
	const struct rtable *t = find_table(d, "verdict");
	json_t *row;
	size_t i;

	fputs("<h2 id=\"verdict\">Verdict</h2>\n", out);
	if (!t) {
		fputs("<p>No run configurations: no verdict.</p>\n", out);
		return;
	}
	for (size_t k = 0; k < d->n; k++)
		if (is_headline(&d->t[k]))
			rtable_html(&d->t[k], out);
	fputs("<h3>Why (the reasons, whole)</h3>\n<ul class=\"verdict\">\n", out);
	json_array_foreach(t->rows, i, row) {
		const char *s = json_string_value(json_array_get(row, 0));
		const char *colon = s ? strstr(s, ": ") : NULL;

		fputs("<li><b>", out);
		if (colon) {
			char *cell = strndup(s, (size_t)(colon - s));

			html_escape(out, cell);
			free(cell);
			fputs("</b>: ", out);
			html_escape(out, colon + 2);
		} else {
			fputs("</b>", out);
			html_escape(out, s);
		}
		fputs("</li>\n", out);
	}
	fputs("</ul>\n<p class=\"note\">", out);
	html_escape(out, t->note);
	fputs("</p>\n", out);
}

/* A text folded under its summary, the reader opens it when wanted;
 * nothing when text is NULL. */
static void folded(FILE *out, const char *summary, const char *text)
{
	if (!text)
		return;
	fprintf(out, "<details><summary>%s</summary>\n<pre>", summary);
	html_escape(out, text);
	fputs("</pre>\n</details>\n", out);
}

void report_html(const struct rrun *r, const struct rdoc *d, char *const *figs,
		 size_t nfigs, FILE *out)
{
	char *title;

	if (asprintf(&title, "iostrat report: %s (%s)", rrun_name(r), r->dir) < 0)
		abort();
	html_head(out, title);
	fputs("<h1>", out);
	html_escape(out, title);
	fputs("</h1>\n", out);
	free(title);
	html_meta_table(out, d->meta);
	verdict(out, d);
	figures(out, figs, nfigs);
	fputs("<h2 id=\"tables\">Grids and tables</h2>\n", out);
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->t[i].title, "verdict") && !is_headline(&d->t[i]))
			rtable_html(&d->t[i], out);
	fputs("<h2 id=\"config\">Configuration</h2>\n", out);
	folded(out, "the profile as written (profile.given.ini)", r->given);
	folded(out, "as run, one section per configuration (profile.ini)", r->profile);
	if (!r->given && !r->profile)
		fputs("<p>No profile in this results directory.</p>\n", out);
	fputs("<h2 id=\"machine\">Machine context (env.json)</h2>\n<table class=\"env\">\n", out);
	env_rows(out, r->env, "");
	fputs("</table>\n</body>\n</html>\n", out);
}
