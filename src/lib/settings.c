// SPDX-License-Identifier: MIT
/* The settings tables' one parser, help printer and lister: see settings.h. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h"
#include "lib/util.h"

#include <jansson.h>

bool setting_takes_arg(const struct setting *s)
{
	return s->type == SET_CALL ? s->arg : s->type != SET_BOOL;
}

/* Is name one of the '|'-separated words of list? */
static bool in_word_list(const char *list, const char *name)
{
	size_t len = strlen(name);

	if (strchr(name, '|'))
		return false;
	for (const char *w = list; w; w = strchr(w, '|'), w = w ? w + 1 : NULL)
		if (!strncmp(w, name, len) && (w[len] == '|' || !w[len]))
			return true;
	return false;
}

const struct setting *setting_find(const struct setting *table,
				   const char *name)
{
	for (const struct setting *s = table; s && (s->name || s->shortname); s++)
		if (s->name && (!strcmp(s->name, name) || in_word_list(s->aliases, name)))
			return s;
	return NULL;
}

/* v's names into buf, sep between them and last before the last one:
 * "a, b or c" (", ", " or "), "a|b|c" ("|", "|") */
static const char *join_text(const char *const *v, const char *sep,
			     const char *last, char *buf, size_t len)
{
	buf[0] = 0;
	for (const char *const *a = v; *a; a++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 a == v ? "" : a[1] ? sep : last, *a);
	return buf;
}

static int store_enum(const struct setting *s, int *out, const char *where,
		      const char *v)
{
	char list[256];

	for (int i = 0; v && s->values[i]; i++)
		if (!strcmp(v, s->values[i])) {
			*out = i;
			return 0;
		}
	errorf("%s: bad value '%s' (%s)", where, v ? v : "",
	       join_text(s->values, ", ", " or ", list, sizeof(list)));
	return -EINVAL;
}

static int store_double(const struct setting *s, double *out,
			const char *where, const char *v)
{
	double d;

	if (!v || parse_double(v, &d) || !isfinite(d)) {
		errorf("%s: bad value '%s' (a number)", where, v ? v : "");
		return -EINVAL;
	}
	if ((s->min || s->max) && (d < (double)s->min || d > (double)s->max)) {
		errorf("%s: bad value '%s' (%llu..%llu)", where, v,
		       (unsigned long long)s->min, (unsigned long long)s->max);
		return -ERANGE;
	}
	*out = d;
	return 0;
}

static int store_bool(bool *out, const char *where, const char *v)
{
	if (!v) {
		*out = true;
		return 0;
	}
	if (!parse_bool(v, out))
		return 0;
	errorf("%s: bad value '%s' (1/0, true/false, yes/no or on/off)", where, v);
	return -EINVAL;
}

static int store_list(struct setting_list *l, const char *v)
{
	char **grown = realloc(l->v, (l->n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	l->v = grown;
	l->v[l->n++] = (char *)v;
	return 0;
}

void setting_list_free(struct setting_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

int setting_store(const struct setting *s, void *obj, const char *where,
		  const char *v)
{
	void *p = (char *)obj + s->off;

	if (s->type == SET_BOOL)
		return store_bool(p, where, v);
	if (s->type == SET_CALL)
		return s->call(s, v, obj);
	if (!v) {
		errorf("%s: missing value", where);
		return -EINVAL;
	}
	switch (s->type) {
	case SET_STRING:
		*(const char **)p = v;
		return 0;
	case SET_UINT:
		return opt_uint(where, v, (unsigned)s->min, (unsigned)s->max, p);
	case SET_COUNT:
		return opt_count(where, v, s->min, s->max, p);
	case SET_SIZE:
		return opt_size(where, v, s->min, s->max, p);
	case SET_DOUBLE:
		return store_double(s, p, where, v);
	case SET_LIST:
		return store_list(p, v);
	default:
		return store_enum(s, p, where, v);
	}
}

void cmdopt_each(const struct cmd_opts *o, setting_fn fn, void *ctx)
{
	for (int t = 0; t < CMD_MAX_TABLES && o->tables[t]; t++)
		for (const struct setting *s = o->tables[t];
		     s->name || s->shortname; s++)
			if (!s->where || (s->where & SET_ARGV))
				fn(s, ctx);
	if (o->more)
		o->more(fn, ctx);
}

struct found {
	const struct setting *s;
	int table;
};

/* "--memory-max" names the setting memory_max: '-' on the command line
 * stands for '_' in a name (profiles keep the name as it is). */
static bool long_name_is(const char *name, const char *arg, size_t len)
{
	if (strlen(name) != len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (name[i] != arg[i] && !(name[i] == '_' && arg[i] == '-'))
			return false;
	return true;
}

/* The entry of o named by a ("--name[=v]" or "-X[v]") */
static struct found lookup(const struct cmd_opts *o, const char *a)
{
	size_t len = a[1] == '-' ? strcspn(a + 2, "=") : 0;

	for (int t = 0; t < CMD_MAX_TABLES && o->tables[t]; t++)
		for (const struct setting *s = o->tables[t];
		     s->name || s->shortname; s++) {
			if (s->where && !(s->where & SET_ARGV))
				continue;
			if (a[1] == '-' ? s->name && long_name_is(s->name, a + 2, len)
					: s->shortname == a[1])
				return (struct found){ s, t };
		}
	return (struct found){ NULL, -1 };
}

/* The value of the option at argv[*i], moving *i past a separate one:
 * 0, or -EINVAL after one line. */
static int option_value(const struct setting *s, int argc, char **argv,
			int *i, const char **v)
{
	const char *a = argv[*i];
	const char *eq = a[1] == '-' ? strchr(a, '=') : (a[2] ? a + 1 : NULL);

	*v = eq ? eq + 1 : NULL;
	if (!setting_takes_arg(s)) {
		if (*v && s->type != SET_BOOL) {
			errorf("%s: takes no value", a);
			return -EINVAL;
		}
		return 0;
	}
	if (*v)
		return 0;
	if (*i + 1 >= argc) {
		errorf("%s: missing value", a);
		return -EINVAL;
	}
	*v = argv[++*i];
	return 0;
}

static bool is_option(const char *a)
{
	return a[0] == '-' && a[1];
}

/* The edit distance of a[..la] and b (each '_' of b taken as '-'). */
static size_t edit_distance(const char *a, size_t la, const char *b)
{
	size_t lb = strlen(b), row[64], prev, cur;

	if (la >= 64 || lb >= 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			char c = b[j - 1] == '_' ? '-' : b[j - 1];

			cur = MIN(MIN(row[j], row[j - 1]) + 1,
				  prev + ((a[i - 1] == '_' ? '-' : a[i - 1]) != c));
			prev = row[j];
			row[j] = cur;
		}
	}
	return row[lb];
}

const char *setting_nearest(const struct setting *const *tables, size_t n,
			    unsigned where, const char *name, size_t len)
{
	const char *best = NULL;
	size_t bestd = len < 4 ? 1 : len < 8 ? 2 : 3, d;

	for (size_t t = 0; t < n && tables[t]; t++)
		for (const struct setting *s = tables[t]; s->name || s->shortname; s++) {
			if (!s->name || (s->where ? !(s->where & where) : where != SET_ARGV))
				continue;
			d = edit_distance(name, len, s->name);
			if (d && d <= bestd && (!best || d < bestd)) {
				best = s->name;
				bestd = d;
			}
		}
	return best;
}

struct named {
	const char *arg;
	size_t len;
	bool found;
};

static void is_named(const struct setting *s, void *ctx)
{
	struct named *n = ctx;

	n->found |= s->name && long_name_is(s->name, n->arg, n->len);
}

/* Is --a[..len] one of the options o->more lists (another strategy's)? */
static bool listed_elsewhere(const struct cmd_opts *o, const char *a, size_t len)
{
	struct named n = { a, len, false };

	if (o->more)
		o->more(is_named, &n);
	return n.found;
}

/* One line for an option o does not take: the nearest name it has, when
 * one is close and the option is nobody's. */
static int unknown_option(const struct cmd_opts *o, const char *a)
{
	int len = (int)strcspn(a, "=");
	const char *near = a[1] == '-' &&
		!listed_elsewhere(o, a + 2, (size_t)len - 2) ?
		setting_nearest(o->tables, CMD_MAX_TABLES, SET_ARGV, a + 2,
				(size_t)len - 2) : NULL;
	char spelt[64];

	if (near) {
		errorf("%.*s: unknown option; did you mean --%s? (iostrat %s --help)",
		       len, a, setting_spelling(near, spelt, sizeof(spelt)), o->cmd);
		return -EINVAL;
	}
	errorf("%.*s: unknown option%s%s (iostrat %s --help)", len, a,
	       o->unknown ? " " : "", o->unknown ? o->unknown : "", o->cmd);
	return -EINVAL;
}

static int one_option(const struct cmd_opts *o, void *const *objs, int argc,
		      char **argv, int *i)
{
	const char *a = argv[*i], *v;
	struct found f = lookup(o, a);
	char where[128];
	int ret;

	if (!f.s && (o->flags & CMDOPT_SKIP_UNKNOWN))
		return 0;
	if (!f.s)
		return unknown_option(o, a);
	ret = option_value(f.s, argc, argv, i, &v);
	if (ret)
		return ret;
	snprintf(where, sizeof(where), "%.*s", (int)strcspn(a, "="), a);
	if (a[1] != '-')
		where[2] = 0;
	return setting_store(f.s, objs[f.table], where, v);
}

int cmdopt_parse(const struct cmd_opts *o, void *const *objs, int argc,
		 char **argv)
{
	int npos = 0, ret;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--") || (!is_option(a) &&
					 (o->flags & CMDOPT_STOP_AT_ARG))) {
			i += !strcmp(a, "--");
			while (i < argc)
				argv[1 + npos++] = argv[i++];
			break;
		}
		if (!is_option(a)) {
			argv[1 + npos++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			cmdopt_help(o, stdout);
			return -ECANCELED;
		}
		ret = one_option(o, objs, argc, argv, &i);
		if (ret)
			return ret;
	}
	return npos;
}

const char *setting_spelling(const char *name, char *buf, size_t len)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++)
		buf[i] = name[i] == '_' ? '-' : name[i];
	buf[i] = 0;
	return buf;
}

/* "-o, --out DIR" for s */
static void flag_text(const struct setting *s, char *buf, size_t len)
{
	char vals[128], name[64];
	const char *meta = NULL;
	int n;

	if (setting_takes_arg(s))
		meta = s->metavar ? s->metavar
		       : s->type == SET_ENUM ? join_text(s->values, "|", "|", vals, sizeof(vals))
		       : "V";
	if (s->name)
		setting_spelling(s->name, name, sizeof(name));
	if (s->shortname && s->name)
		n = snprintf(buf, len, "-%c, --%s", s->shortname, name);
	else if (s->name)
		n = snprintf(buf, len, "--%s", name);
	else
		n = snprintf(buf, len, "-%c", s->shortname);
	if (meta && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " %s", meta);
}

void setting_help(const struct setting *s, FILE *f)
{
	char flag[128];
	const char *h = s->help, *nl;

	if (!h)
		return;
	flag_text(s, flag, sizeof(flag));
	fprintf(f, "  %-20s", flag);
	if (strlen(flag) > 20) /* its help below it */
		fprintf(f, "\n  %-20s", "");
	for (bool first = true; h; first = false, h = nl ? nl + 1 : NULL) {
		nl = strchr(h, '\n');
		if (!first)
			fprintf(f, "  %-20s", "");
		fprintf(f, " %.*s\n", nl ? (int)(nl - h) : (int)strlen(h), h);
	}
}

static void help_line(const struct setting *s, void *ctx)
{
	setting_help(s, ctx);
}

void cmdopt_help(const struct cmd_opts *o, FILE *f)
{
	if (o->usage)
		o->usage(f);
	cmdopt_each(o, help_line, f);
}

const struct setting *settings_column(const struct setting *table,
				      const char *col)
{
	for (const struct setting *s = table; s->name || s->shortname; s++)
		if (s->column && !strcmp(s->column, col))
			return s;
	return NULL;
}

void settings_defaults(const struct setting *table, void *obj)
{
	for (const struct setting *s = table; s->name || s->shortname; s++)
		if (s->def) /* a default that does not parse is a bug: tests/unit */
			setting_store(s, obj, s->name, s->def);
}

static uint64_t setting_number(const struct setting *s, const void *obj)
{
	const void *p = (const char *)obj + s->off;

	switch (s->type) {
	case SET_BOOL:
		return *(const bool *)p;
	case SET_UINT:
		return *(const unsigned *)p;
	case SET_ENUM:
		return (uint64_t)*(const int *)p;
	case SET_COUNT:
	case SET_SIZE:
		return *(const uint64_t *)p;
	default:
		return 0;
	}
}

const char *setting_text(const struct setting *s, const void *obj,
			 char *buf, size_t len)
{
	const void *p = (const char *)obj + s->off;

	if (s->type == SET_ENUM)
		return s->values[*(const int *)p];
	if (s->type == SET_STRING)
		return *(const char *const *)p ? *(const char *const *)p : "";
	if (s->type == SET_DOUBLE)
		snprintf(buf, len, "%g", *(const double *)p);
	else
		snprintf(buf, len, "%llu",
			 (unsigned long long)setting_number(s, obj));
	return buf;
}

bool setting_at_default(const struct setting *s, const void *obj)
{
	union { bool b; unsigned u; int i; uint64_t n; double d; const char *p; } v;
	struct setting scratch = *s;
	char a[64], b[64];

	if (scratch.type == SET_LIST) /* a list has no default: given or not */
		return !((const struct setting_list *)((const char *)obj + s->off))->n;
	memset(&v, 0, sizeof(v));
	scratch.off = 0;
	if (s->def && setting_store(&scratch, &v, s->name, s->def))
		return false;
	return !strcmp(setting_text(s, obj, a, sizeof(a)),
		       setting_text(&scratch, &v, b, sizeof(b)));
}

static json_t *setting_json(const struct setting *s, const void *obj)
{
	char buf[64];

	switch (s->type) {
	case SET_BOOL:
		return json_boolean(setting_number(s, obj));
	case SET_UINT:
	case SET_COUNT:
	case SET_SIZE:
		return json_integer((json_int_t)setting_number(s, obj));
	case SET_DOUBLE:
	{
		double v;

		memcpy(&v, (const char *)obj + s->off, sizeof(v));
		return json_real(v);
	}
	default:
		return json_text(setting_text(s, obj, buf, sizeof(buf)));
	}
}

void settings_row(const struct setting *table, const void *obj, json_t *row)
{
	for (const struct setting *s = table; s->name || s->shortname; s++) {
		if (!s->column || ((s->flags & SETF_COL_OPTIONAL) &&
				   !setting_number(s, obj)))
			continue;
		json_object_set_new(row, s->column, setting_json(s, obj));
	}
}

/* The value of s in obj as its id part writes it. */
static const char *id_text(const struct setting *s, const void *obj, char *buf,
			   size_t len)
{
	if (s->type == SET_ENUM && s->id_values)
		return s->id_values[*(const int *)((const char *)obj + s->off)];
	return setting_text(s, obj, buf, len);
}

size_t settings_id(const struct setting *table, const void *obj, char *buf,
		   size_t len, size_t at)
{
	char val[128];

	for (const struct setting *s = table; s->name || s->shortname; s++) {
		if (!s->id || at >= len ||
		    ((s->flags & SETF_ID_OPTIONAL) && setting_at_default(s, obj)))
			continue;
		if (s->type == SET_BOOL && !strchr(s->id, '%')) {
			if (setting_number(s, obj))
				at += (size_t)snprintf(buf + at, len - at, "/%s", s->id);
			continue;
		}
		buf[at++] = '/';
		at += (size_t)snprintf(buf + at, len - at, s->id, id_text(s, obj, val,
									 sizeof(val)));
	}
	return at < len ? at : len - 1;
}
