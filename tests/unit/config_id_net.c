// SPDX-License-Identifier: MIT
/* The net settings table: golden config_ids, every id part and column present, argv and profile alike. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "lib/util.h"
#include "net/net.h"
#include "results/config_id.h"

/* A value other than the default for each net setting given as an option
 * or a key, by name (io_max is io-max's other spelling). */
static const char *const other[][2] = {
	{ "mode", "pingpong-pipelined" }, { "size", "4k" }, { "count", "300" },
	{ "buffer", "8k" }, { "batch", "16" }, { "timeout", "2.5" },
	{ "sndbuf", "64k" }, { "rcvbuf", "128k" }, { "nagle", "yes" },
	{ "io-max", "7" }, { "io_max", "9" }, { "unix", "/tmp/x.sock" },
};

static const char *other_value(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(other); i++)
		if (!strcmp(other[i][0], name))
			return other[i][1];
	return NULL;
}

/* o from the defaults and KEY, VALUE pairs, as a profile section sets it */
static int opts_of(struct net_opts *o, const char *const *kv)
{
	net_opts_defaults(o);
	for (size_t i = 0; kv && kv[i]; i += 2) {
		const struct setting *s = net_profile_key(kv[i]);

		if (!s || setting_store(s, o, kv[i], kv[i + 1]))
			return -1;
	}
	return net_opts_check(o, "");
}

static int id_of(const char *const *kv, char *id)
{
	struct net_opts o;

	if (opts_of(&o, kv))
		return -1;
	net_config_id(&o, id, CONFIG_ID_MAX);
	return 0;
}

UNIT(mode_names_are_the_modes)
{
	size_t i = 0;

	for (; net_mode_names[i]; i++)
		CHECK(net_mode_at(i) && !strcmp(net_mode_at(i)->name, net_mode_names[i]),
		      "net_mode_names[%zu] %s is not mode %zu", i, net_mode_names[i], i);
	CHECK(!net_mode_at(i), "mode %zu has no name", i);
	return 0;
}

UNIT(every_net_setting_has_a_test_value)
{
	size_t n = 0;

	for (const struct setting *s = net_settings; s->name; s++) {
		if (!(s->where & SET_PROFILE))
			continue;
		CHECK(other_value(s->name), "no test value for %s: add it here", s->name);
		n++;
	}
	CHECK(n == ARRAY_SIZE(other), "%zu test values for %zu settings", ARRAY_SIZE(other), n);
	return 0;
}

UNIT(config_id_golden_net)
{
	static const char *const buffered[] = { "mode", "buffered", NULL };
	static const char *const writev[] = { "mode", "writev", "size", "1k", NULL };
	static const char *const all[] = { "mode", "pingpong-pipelined", "size", "4k",
		"count", "300", "buffer", "8k", "batch", "16", "timeout", "2.5",
		"sndbuf", "64k", "rcvbuf", "128k", "nagle", "on", "io_max", "7", NULL };
	/* mode nagle: Nagle's algorithm is on anyway, no nagle part */
	static const char *const nagle[] = { "mode", "nagle", "nagle", "1", "batch", "8", NULL };
	static const char *const unix_[] = { "mode", "cork", "sndbuf", "4096", "unix", "/tmp/s", NULL };
	char id[CONFIG_ID_MAX];

	CHECK(!id_of(NULL, id) && !strcmp(id, "net/nodelay/s12/n10000"), "defaults: %s", id);
	CHECK(!id_of(buffered, id) && !strcmp(id, "net/buffered/s12/n10000/b65536"), "%s", id);
	CHECK(!id_of(writev, id) && !strcmp(id, "net/writev/s1024/n10000/k64"), "%s", id);
	CHECK(!id_of(all, id) && !strcmp(id, "net/pingpong-pipelined/s4096/n300/b8192/k16/"
					 "sndbuf=65536/rcvbuf=131072/nagle/io_max=7"),
	      "every setting: %s", id);
	CHECK(!id_of(nagle, id) && !strcmp(id, "net/nagle/s12/n10000"), "%s", id);
	CHECK(!id_of(unix_, id) && !strcmp(id, "net/cork/s12/n10000/k64/sndbuf=4096/unix"),
	      "%s", id);
	return 0;
}

/* In a mode that uses every setting, each id part is in the id: another
 * value of the setting, another id. */
UNIT(every_id_part_is_in_the_id)
{
	char base[CONFIG_ID_MAX], id[CONFIG_ID_MAX];
	const char *kv[5] = { "mode", "pingpong-pipelined" };

	CHECK(!id_of(kv, base), "base");
	for (const struct setting *s = net_settings; s->name; s++) {
		if (!s->id || !(s->where & SET_PROFILE) || !strcmp(s->name, "mode"))
			continue;
		kv[2] = s->name;
		kv[3] = other_value(s->name);
		CHECK(!id_of(kv, id), "%s=%s", kv[2], kv[3]);
		CHECK(strcmp(id, base), "%s=%s left the id as it was: %s", kv[2], kv[3], id);
	}
	return 0;
}

/* Every column of the table is in a row, typed by its setting; the
 * settings' columns of docs/results.md are the table's. */
UNIT(row_has_every_setting_column)
{
	static const char *const kv[] = { "mode", "pingpong-pipelined", "sndbuf", "4k",
		"rcvbuf", "8k", "io-max", "5", NULL };
	static const char *const cols[] = { "mode", "msg_size", "count", "buffer",
		"batch", "timeout_s", "sndbuf", "rcvbuf", "nagle", "io_max", "family" };
	struct net_opts o;
	json_t *row;

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		CHECK(settings_column(net_settings, cols[i]), "no setting has column %s", cols[i]);
	CHECK(!opts_of(&o, kv), "opts");
	row = net_row("b", &o, 1, NULL, "x");
	for (const struct setting *s = net_settings; s->name; s++) {
		json_t *v = json_object_get(row, s->column ? s->column : "");

		if (!s->column)
			continue;
		CHECK(v && !json_is_null(v), "column %s missing or null", s->column);
		CHECK(s->type == SET_BOOL ? json_is_boolean(v) : s->type == SET_ENUM ?
		      json_is_string(v) : s->type == SET_DOUBLE ? json_is_real(v) :
		      json_is_integer(v), "column %s has the wrong type", s->column);
	}
	CHECK(json_integer_value(json_object_get(row, "msg_size")) == 12, "msg_size");
	CHECK(!strcmp(json_string_value(json_object_get(row, "family")), "tcp"), "family");
	json_decref(row);
	return 0;
}

/* a and b hold the same value of every net setting */
static bool same(const struct net_opts *a, const struct net_opts *b)
{
	for (const struct setting *s = net_settings; s->name; s++) {
		char ta[64], tb[64];

		if (strcmp(setting_text(s, a, ta, sizeof(ta)), setting_text(s, b, tb, sizeof(tb))))
			return false;
	}
	return true;
}

UNIT(argv_and_profile_set_the_same)
{
	static const struct cmd_opts opts = { .cmd = "net", .tables = { net_settings } };

	for (const struct setting *s = net_settings; s->name; s++) {
		struct net_opts a, b, d;
		char opt[64], *argv[] = { "net", opt, NULL };
		void *const objs[] = { &a };

		if (!(s->where & SET_ARGV))
			continue;
		snprintf(opt, sizeof(opt), "--%s=%s", s->name, other_value(s->name));
		net_opts_defaults(&a);
		net_opts_defaults(&d);
		CHECK(cmdopt_parse(&opts, objs, 2, argv) == 0, "argv %s", opt);
		CHECK(!opts_of(&b, (const char *const[]){ s->name, other_value(s->name), NULL }),
		      "profile %s", s->name);
		net_opts_check(&a, "");
		CHECK(same(&a, &b), "%s differs between argv and profile", s->name);
		CHECK(!same(&a, &d), "%s left the default", opt);
	}
	return 0;
}
