// SPDX-License-Identifier: MIT
/* The settings table: argv and profile alike, the bool vocabulary, errors, help, rows and config_id. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "config/jobopts.h"
#include "harness/runner.h"
#include "core/strategy.h"
#include "lib/util.h"
#include "results/config_id.h"

/* A value other than the default for each run setting, by name. */
static const char *const other[][2] = {
	{ "threads", "2" }, { "work", "3" }, { "transform", "hex" }, { "cache", "warm" },
	{ "fsync", "end" }, { "bufsize", "4k" }, { "chunk", "8192" },
	{ "qd", "4" }, { "direct", "on" }, { "dontcache", "on" },
	{ "sink", "null" }, { "memory_max", "64M" },
	{ "accounting", "yes" },
};

static const char *other_value(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(other); i++)
		if (!strcmp(other[i][0], name))
			return other[i][1];
	return NULL;
}

static int config(struct run_config *c, const char *strategy)
{
	memset(c, 0, sizeof(*c));
	jobopt_defaults(c);
	return jobopt_strategy(c, strategy);
}

UNIT(every_run_setting_has_a_test_value)
{
	for (const struct setting *s = run_settings; s->name; s++)
		CHECK(other_value(s->name), "no test value for %s: add it here", s->name);
	CHECK(ARRAY_SIZE(other) == 13, "%zu test values for 13 settings", ARRAY_SIZE(other));
	return 0;
}

/* a and b hold the same value of every run setting */
static int same_settings(const struct run_config *a, const struct run_config *b)
{
	for (const struct setting *u = run_settings; u->name; u++) {
		char ta[64], tb[64];

		if (strcmp(setting_text(u, a, ta, sizeof(ta)), setting_text(u, b, tb, sizeof(tb))))
			return 0;
	}
	return 1;
}

UNIT(argv_and_profile_set_the_same)
{
	for (const struct setting *s = run_settings; s->name; s++) {
		struct run_config a, b, d;

		CHECK(!config(&a, "stream") && !config(&b, "stream") && !config(&d, "stream"),
		      "config");
		CHECK(!jobopt_set(&a, "run", s->name, other_value(s->name)), "argv %s", s->name);
		CHECK(!jobopt_set(&b, "p.ini:3", s->name, other_value(s->name)), "ini %s", s->name);
		CHECK(same_settings(&a, &b), "%s differs between argv and profile", s->name);
		CHECK(!same_settings(&a, &d), "%s=%s left the default", s->name,
		      other_value(s->name));
		jobopt_free(&a);
		jobopt_free(&b);
		jobopt_free(&d);
	}
	return 0;
}

UNIT(bool_vocabulary_is_one_and_closed)
{
	static const char *const t[] = { "1", "true", "yes", "on" };
	static const char *const f[] = { "0", "false", "no", "off" };
	static const char *const bad[] = { "", "2", "On", "y", "maybe", "enable" };
	bool b;

	for (size_t i = 0; i < 4; i++) {
		CHECK(!parse_bool(t[i], &b) && b, "%s is true", t[i]);
		CHECK(!parse_bool(f[i], &b) && !b, "%s is false", f[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK(parse_bool(bad[i], &b) == -EINVAL, "'%s' refused", bad[i]);
	return 0;
}

/* errorf's line for jobopt_set(key, value), in buf */
static int error_line(const char *key, const char *value, char *buf, size_t len)
{
	struct run_config c;
	FILE *tmp = tmpfile();
	int saved = dup(2), ret;
	size_t n;

	CHECK(tmp && saved >= 0 && !config(&c, "mmap"), "setup");
	fflush(stderr);
	dup2(fileno(tmp), 2);
	ret = jobopt_set(&c, "p.ini:7", key, value);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = 0;
	fclose(tmp);
	jobopt_free(&c);
	return ret;
}

UNIT(bad_values_name_the_key_and_the_value)
{
	static const char *const cases[][2] = {
		{ "threads", "0" }, { "threads", "x" }, { "work", "-1" },
		{ "cache", "tepid" }, { "fsync", "file,end" }, { "bufsize", "2g" },
		{ "direct", "maybe" }, { "sink", "pipe" }, { "madvise", "random" },
		{ "mmap-out", "sometimes" },
	};
	char line[512], want[128];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		CHECK(error_line(cases[i][0], cases[i][1], line, sizeof(line)) < 0,
		      "%s=%s accepted", cases[i][0], cases[i][1]);
		snprintf(want, sizeof(want), "p.ini:7: %s: bad value '%s'", cases[i][0],
			 cases[i][1]);
		CHECK(strstr(line, want) && !strchr(strchr(line, '\n') + 1, '\n'),
		      "one line with '%s': got '%s'", want, line);
	}
	CHECK(error_line("frob", "1", line, sizeof(line)) == -ENOENT && !line[0],
	      "an unknown key is -ENOENT, named by the caller: '%s'", line);
	return 0;
}

UNIT(every_table_default_parses)
{
	const struct strategy *st;
	struct run_config c;

	for (const struct setting *s = run_settings; s->name; s++)
		CHECK(s->help && s->column && s->id, "%s: help, column and id part", s->name);
	for (size_t i = 0; (st = strategy_at(i)); i++) {
		CHECK(!config(&c, st->name), "%s", st->name);
		for (const struct setting *s = st->opts; s && s->name; s++)
			CHECK(s->help && s->def && s->id, "%s --%s: help, default, id", st->name, s->name);
		jobopt_free(&c);
	}
	return 0;
}

UNIT(row_has_every_setting_column)
{
	static const char *const cols[] = { "threads", "work", "transform", "cache", "fsync",
		"bufsize", "chunk", "qd", "direct", "dontcache", "sink", "memory_max", "accounting" };
	struct run_config c;
	json_t *row = json_object();

	CHECK(!config(&c, "stream"), "config");
	for (size_t i = 0; i < ARRAY_SIZE(other); i++)
		CHECK(!jobopt_set(&c, "t", other[i][0], other[i][1]), "%s", other[i][0]);
	settings_row(run_settings, &c, row);
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		CHECK(json_object_get(row, cols[i]), "no column %s", cols[i]);
	CHECK(json_integer_value(json_object_get(row, "bufsize")) == 4096 &&
	      json_is_true(json_object_get(row, "direct")) &&
	      !strcmp(json_string_value(json_object_get(row, "fsync")), "end") &&
	      !strcmp(json_string_value(json_object_get(row, "sink")), "null"),
	      "typed values");
	CHECK(json_object_size(row) == ARRAY_SIZE(cols), "%zu columns",
	      json_object_size(row));
	json_decref(row);
	jobopt_free(&c);
	return 0;
}

/* runner_config_id of strategy with the settings kv (NULL-terminated pairs) */
static int id_of(const char *strategy, const char *const *kv, char *id, size_t len)
{
	struct run_config c;

	CHECK(!config(&c, strategy), "config");
	for (; kv && kv[0]; kv += 2)
		CHECK(!jobopt_set(&c, "t", kv[0], kv[1]), "%s", kv[0]);
	runner_config_id(&c, "ds", id, len);
	jobopt_free(&c);
	return 0;
}

UNIT(config_id_golden_run)
{
	static const char *const all[] = { "threads", "2", "work", "3", "cache", "warm",
		"fsync", "end", "bufsize", "4k", "chunk", "8192", "qd", "4",
		"direct", "yes", "dontcache", "on", "sink", "null", NULL };
	static const char *const flags[] = { "madvise", "willneed", "mmap-out", "on",
		"direct", "off", "dontcache", "off", NULL };
	static const char *const dflt[] = { "madvise", "sequential", "sink", "file", NULL };
	char id[CONFIG_ID_MAX];

	CHECK(!id_of("stream", NULL, id, sizeof(id)), "id");
	CHECK(!strcmp(id, "ds/stream/t1/w0/cold/fsync=file"), "defaults: %s", id);
	CHECK(!id_of("stream", all, id, sizeof(id)), "id");
	CHECK(!strcmp(id, "ds/stream/t2/w3/warm/fsync=end/bufsize=4096/chunk=8192/qd=4/direct/dontcache/sink=null"),
	      "every setting: %s", id);
	CHECK(!id_of("mmap", flags, id, sizeof(id)), "id");
	CHECK(!strcmp(id, "ds/mmap/t1/w0/cold/fsync=file/madvise=willneed/mmap-out=1"),
	      "strategy options: %s", id);
	CHECK(!id_of("stream", (const char *const[]){ "memory_max", "256M", NULL }, id,
		    sizeof(id)), "id");
	CHECK(!strcmp(id, "ds/stream/t1/w0/cold/fsync=file/memory_max=268435456"),
	      "memory limit: %s", id);
	CHECK(!id_of("mmap", dflt, id, sizeof(id)), "id");
	CHECK(!strcmp(id, "ds/mmap/t1/w0/cold/fsync=file"), "defaults given: %s", id);
	return 0;
}

/* A repeatable option (-D K=V -D ...) keeps every value, in the order
 * given, however many. */
UNIT(list_setting_keeps_every_value_in_order)
{
	struct with_list {
		struct setting_list defs;
	} o = { { NULL, 0 } };
	static const struct setting table[] = {
		{ .shortname = 'D', SETTING_LIST(struct with_list, defs) },
		{ 0 },
	};
	char v[100][8];

	for (int i = 0; i < 100; i++) {
		snprintf(v[i], sizeof(v[i]), "k%d=1", i);
		CHECK(!setting_store(&table[0], &o, "-D", v[i]), "store %d", i);
	}
	CHECK(o.defs.n == 100 && o.defs.v[0] == v[0] && o.defs.v[99] == v[99],
	      "%zu values", o.defs.n);
	CHECK(setting_takes_arg(&table[0]), "-D takes no value");
	setting_list_free(&o.defs);
	CHECK(!o.defs.v && !o.defs.n, "not freed");
	return 0;
}

UNIT(setting_find_answers_its_aliases_whole_words_only)
{
	struct with_alias {
		unsigned n;
	};
	static const struct setting table[] = {
		{ .name = "ops", SETTING_UINT(struct with_alias, n), .aliases = "op|operation" },
		{ 0 },
	};

	CHECK(setting_find(table, "ops") == &table[0], "by its name");
	CHECK(setting_find(table, "op") == &table[0], "first alias");
	CHECK(setting_find(table, "operation") == &table[0], "last alias");
	CHECK(!setting_find(table, "oper"), "a prefix of an alias");
	CHECK(!setting_find(table, "o"), "a prefix of both");
	CHECK(!setting_find(table, ""), "the empty key");
	CHECK(!setting_find(table, "op|operation"), "the list itself");
	return 0;
}
