// SPDX-License-Identifier: MIT
/* The columns the rooms above results declare (the kinds', the probes'), handed down at start. */
#include <errno.h>
#include <string.h>

#include "row.h"
#include "config/jobopts.h"
#include "core/strategy.h"
#include "lib/util.h"

/* One declaration handed down: a column table, or a settings table whose
 * entries with a column are columns of room. */
struct decl {
	const struct column *cols;
	const struct setting *sets;
	const char *room;
};

#define DECLS_MAX 32

static struct decl decls[DECLS_MAX];
static size_t ndecls;

static const char *const type_word[] = {
	[COL_TEXT] = "text", [COL_FLAG] = "flag", [COL_SIGNED] = "signed",
	[COL_TIME] = "time", [COL_SIZE] = "size", [COL_COUNT] = "count",
	[COL_RATE] = "rate",
};

const char *column_type_name(enum col_type t)
{
	return type_word[t];
}

/* A column a declaration adds: none already known, or the same type. */
static int agrees(const struct column *c)
{
	struct column old;

	if (column_find(c->name, &old) || old.type == c->type)
		return 0;
	errorf("column %s: declared a %s by %s and a %s by %s", c->name,
	       type_word[old.type], old.room, type_word[c->type], c->room);
	return -EINVAL;
}

static int add(const struct column *cols, const struct setting *sets,
	       const char *room)
{
	struct column c;

	for (const struct column *t = cols; t && t->name; t++)
		if (agrees(t))
			return -EINVAL;
	for (const struct setting *s = sets; s && s->name; s++) {
		if (!column_of_setting(s, &c))
			continue;
		c.room = room;
		if (agrees(&c))
			return -EINVAL;
	}
	if (ndecls == DECLS_MAX) {
		errorf("column tables: more than %d handed down", DECLS_MAX);
		return -ENOSPC;
	}
	decls[ndecls++] = (struct decl){ cols, sets, room };
	return 0;
}

int row_columns_add(const struct column *table)
{
	return add(table, NULL, NULL);
}

int row_settings_add(const struct setting *table, const char *room)
{
	return add(NULL, table, room);
}

void row_columns_forget(void)
{
	ndecls = 0;
}

int row_declared_find(const char *name, struct column *out)
{
	for (size_t i = 0; i < ndecls; i++) {
		const struct setting *s = decls[i].sets ?
			settings_column(decls[i].sets, name) : NULL;

		for (const struct column *c = decls[i].cols; c && c->name; c++)
			if (!strcmp(c->name, name)) {
				*out = *c;
				return 0;
			}
		if (s && column_of_setting(s, out)) {
			out->room = decls[i].room;
			out->flags = 0;
			return 0;
		}
	}
	return -ENOENT;
}

/* The settings of table that are columns, as lines of room. */
static void each_setting(const struct setting *table, const char *room,
			 unsigned flags, column_fn *fn, void *ctx)
{
	struct column c;

	for (const struct setting *s = table; s && s->name; s++)
		if (column_of_setting(s, &c)) {
			c.room = room;
			c.flags = flags;
			fn(&c, ctx);
		}
}

static void each_line(const struct column *t, column_fn *fn, void *ctx)
{
	for (; t && t->name; t++) {
		if (column_is_settings(t))
			each_setting(run_settings, "config", COLF_CORE, fn, ctx);
		else
			fn(t, ctx);
	}
}

void row_columns_each(column_fn *fn, void *ctx)
{
	const struct strategy *s;

	each_line(row_columns, fn, ctx);
	for (size_t i = 0; (s = strategy_at(i)); i++) {
		each_line(s->columns, fn, ctx);
		each_setting(s->opts, "core", 0, fn, ctx);
	}
	for (size_t i = 0; i < ndecls; i++) {
		each_line(decls[i].cols, fn, ctx);
		each_setting(decls[i].sets, decls[i].room, 0, fn, ctx);
	}
}

static const char *const *kinds_known;

void row_kinds_set(const char *const *names)
{
	kinds_known = names;
}

const char *const *row_kinds(void)
{
	static const char *const none[] = { NULL };

	return kinds_known ? kinds_known : none;
}
