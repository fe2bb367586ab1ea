// SPDX-License-Identifier: MIT
/* The small data files gnuplot reads, one per figure, and the jobs that render them. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "plot.h"

int dat_begin(struct dat *d)
{
	memset(d, 0, sizeof(*d));
	d->f = open_memstream(&d->buf, &d->len);
	return d->f ? 0 : -ENOMEM;
}

void dat_label(struct dat *d, const char *s)
{
	/* gnuplot reads "..." as one column; it has no escape for '"'. */
	fputc('"', d->f);
	for (; s && *s; s++)
		fputc(*s == '"' ? '\'' : (*s == '\n' ? ' ' : *s), d->f);
	fputc('"', d->f);
}

void dat_num(struct dat *d, double v, bool ok)
{
	if (!ok || !isfinite(v))
		fputs(" NaN", d->f);
	else
		fprintf(d->f, " %.6g", v);
}

void dat_block(struct dat *d, size_t i)
{
	if (i)
		fputs("\n\n", d->f);
}

void dat_summary(struct dat *d, const struct summary *s)
{
	dat_num(d, s->median, s->n);
	dat_num(d, s->min, s->n);
	dat_num(d, s->max, s->n);
}

void dat_colour(struct dat *d, const char *strategy, int other)
{
	int c = plot_colour(strategy);

	fprintf(d->f, " %d", c ? c : other);
}

void safe_name(char *out, size_t len, const char *s)
{
	size_t i = 0;

	for (; s && *s && i + 1 < len; s++)
		out[i++] = (isalnum((unsigned char)*s) || strchr("._-", *s)) ? *s : '_';
	out[i] = 0;
}

static int add_job(struct plot_ctx *c, const char *fig, const char *name,
		   const char *data, const char *title)
{
	struct plot_job *j;

	if (c->njobs == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct plot_job *n = realloc(c->jobs, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		c->jobs = n;
		c->cap = cap;
	}
	j = &c->jobs[c->njobs++];
	memset(j, 0, sizeof(*j));
	j->fig = fig;
	snprintf(j->name, sizeof(j->name), "%s", name);
	snprintf(j->data, sizeof(j->data), "%s", data);
	snprintf(j->title, sizeof(j->title), "%s", title);
	return 0;
}

int dat_commit(struct plot_ctx *c, struct dat *d, const char *fig,
	       const char *name, const char *title)
{
	char path[PATH_MAX];
	int ret;

	if (fclose(d->f)) {
		free(d->buf);
		return error_errno(-ENOMEM, name, "building plot data");
	}
	d->f = NULL;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s.dat", c->datadir, name) >=
	    sizeof(path)) {
		free(d->buf);
		return error_errno(-ENAMETOOLONG, c->datadir, "plot data");
	}
	ret = write_file_atomic(path, d->buf, d->len);
	free(d->buf);
	d->buf = NULL;
	if (ret)
		return error_errno(ret, path, "writing");
	return add_job(c, fig, name, path, title);
}

int dat_finish(struct plot_ctx *c, struct dat *d, size_t n, const char *fig,
	       const char *title, char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (n)
		return dat_commit(c, d, fig, fig, title);
	fclose(d->f);
	free(d->buf);
	d->f = NULL;
	d->buf = NULL;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return 0;
}
