// SPDX-License-Identifier: MIT
/* The net settings: one table for `iostrat net`, [net] profile sections, help, rows and config_id. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "net.h"
#include "lib/util.h"
#include "results/config_id.h"

/* Settings a mode may not use (struct net_mode): where it does not, the
 * setting has no id part and its column stays null (NETF_NODELAY: the id
 * part alone; Nagle's algorithm is on anyway in a mode without NODELAY). */
#define NETF_BUFFER	(1u << 8)
#define NETF_BATCH	(1u << 9)
#define NETF_NODELAY	(1u << 10)

static const char *const family_names[] = { "tcp", "unix", NULL };

/* Table order is config_id order: net/MODE/sSIZE/nCOUNT/bBUF/kBATCH/... */
const struct setting net_settings[] = {
	{ .name = "mode", SETTING_ENUM(struct net_opts, mode), .values = net_mode_names,
	  .where = SET_PROFILE, .column = "mode",
	  .help = "the mode (config_id's head)" },
	{ .name = "size", SETTING_SIZE(struct net_opts, size), .max = NET_MAX_SIZE,
	  .def = "12", .where = SET_PROFILE, .column = "msg_size", .id = "s%s",
	  .help = "payload bytes per message (default 12)" },
	{ .name = "count", SETTING_COUNT(struct net_opts, count), .min = 1,
	  .max = NET_MAX_COUNT, .def = "10000", .metavar = "N", .where = SET_BOTH,
	  .column = "count", .id = "n%s", .help = "messages per run (default 10000)" },
	{ .name = "buffer", SETTING_SIZE(struct net_opts, buffer), .min = 16,
	  .max = 1u << 30, .def = "64k", .metavar = "SIZE", .where = SET_BOTH,
	  .column = "buffer", .id = "b%s", .flags = NETF_BUFFER,
	  .help = "user-space buffer of the buffered modes (default 64k)" },
	{ .name = "batch", SETTING_UINT(struct net_opts, batch), .min = 1,
	  .max = NET_MAX_BATCH, .def = "64", .metavar = "K", .where = SET_BOTH,
	  .column = "batch", .id = "k%s", .flags = NETF_BATCH,
	  .help = "messages per writev / io_uring submit, MSG_MORE run,\n"
		  "requests in flight when pipelined (default 64)" },
	{ .name = "timeout", SETTING_DOUBLE(struct net_opts, timeout_s), .max = 86400,
	  .def = "10", .metavar = "SEC", .where = SET_BOTH, .column = "timeout_s",
	  .help = "give up when the peer makes no progress (default 10)" },
	{ .name = "sndbuf", SETTING_SIZE(struct net_opts, sndbuf), .min = 1,
	  .max = 1u << 30, .metavar = "SIZE", .where = SET_BOTH, .column = "sndbuf",
	  .id = "sndbuf=%s", .flags = SETF_ID_OPTIONAL | SETF_COL_OPTIONAL,
	  .help = "SO_SNDBUF of both sides (default: the kernel's)" },
	{ .name = "rcvbuf", SETTING_SIZE(struct net_opts, rcvbuf), .min = 1,
	  .max = 1u << 30, .metavar = "SIZE", .where = SET_BOTH, .column = "rcvbuf",
	  .id = "rcvbuf=%s", .flags = SETF_ID_OPTIONAL | SETF_COL_OPTIONAL,
	  .help = "SO_RCVBUF of both sides (default: the kernel's)" },
	{ .name = "nagle", SETTING_BOOL(struct net_opts, nagle), .def = "0",
	  .where = SET_BOTH, .column = "nagle", .id = "nagle",
	  .flags = SETF_ID_OPTIONAL | NETF_NODELAY,
	  .help = "leave Nagle's algorithm on in every mode" },
	{ .name = "io-max", SETTING_UINT(struct net_opts, io_max), .min = 1,
	  .max = 1u << 30, .metavar = "N", .where = SET_BOTH, .column = "io_max",
	  .id = "io_max=%s", .flags = SETF_ID_OPTIONAL | SETF_COL_OPTIONAL,
	  .help = "cap every read and write at N bytes (testing;\n"
		  "also spelt --io_max, as in profiles)" },
	{ .name = "io_max", SETTING_UINT(struct net_opts, io_max), .min = 1,
	  .max = 1u << 30, .metavar = "N", .where = SET_BOTH }, /* io-max */
	{ .name = "unix", SETTING_STRING(struct net_opts, unix_at), .metavar = "PATH",
	  .where = SET_BOTH,
	  .help = "a Unix stream socket, made fresh at PATH and removed\n"
		  "after (an existing non-socket PATH is refused); no\n"
		  "--nagle, --rcvbuf or mode nagle there" },
	{ .name = "family", SETTING_ENUM(struct net_opts, family), .values = family_names,
	  .def = "tcp", .where = SET_RECORDED, .column = "family", .id = "%s",
	  .flags = SETF_ID_OPTIONAL }, /* from unix (or connect=unix:PATH) */
	{ 0 },
};

_Static_assert(ARRAY_SIZE(net_settings) <= NET_MAX_SETTINGS + 1, "NET_MAX_SETTINGS");

void net_opts_defaults(struct net_opts *o)
{
	memset(o, 0, sizeof(*o));
	settings_defaults(net_settings, o);
}

const struct setting *net_profile_key(const char *key)
{
	const struct setting *s = setting_find(net_settings, key);

	return s && (s->where & SET_PROFILE) ? s : NULL;
}

/* --unix PATH into the path and the family. */
static int unix_path(struct net_opts *o, const char *prefix)
{
	if (!o->unix_at)
		return 0;
	if (!*o->unix_at || strlen(o->unix_at) >= sizeof(o->path)) {
		errorf("%sunix: bad value '%s' (a socket file path of 1..%zu bytes)",
		       prefix, o->unix_at, sizeof(o->path) - 1);
		return -EINVAL;
	}
	snprintf(o->path, sizeof(o->path), "%s", o->unix_at);
	o->family = NET_UNIX;
	return 0;
}

int net_opts_check(struct net_opts *o, const char *prefix)
{
	if (o->timeout_s <= 0) {
		errorf("%stimeout: bad value '%g' (seconds, > 0)", prefix, o->timeout_s);
		return -EINVAL;
	}
	o->timeout_ms = (int)ceil(o->timeout_s * 1000);
	if (unix_path(o, prefix))
		return -EINVAL;
	if (o->family != NET_UNIX)
		return 0;
	if (o->nagle) {
		errorf("%snagle: a Unix socket has no Nagle's algorithm (no TCP stack)", prefix);
		return -EINVAL;
	}
	if (o->rcvbuf) {
		errorf("%srcvbuf: a Unix stream socket does not use SO_RCVBUF (the sender's sndbuf bounds what is queued)",
		       prefix);
		return -EINVAL;
	}
	if (!net_mode_at((size_t)o->mode)->nodelay) {
		errorf("%smode: %s: a Unix socket has no Nagle's algorithm (nodelay is the same there)",
		       prefix, net_mode_at((size_t)o->mode)->name);
		return -EINVAL;
	}
	return 0;
}

/* Drop the modes that leave Nagle on (nagle) from "all": on a Unix
 * socket they are nodelay. */
static void drop_nagle(struct net_plan *p)
{
	size_t j = 0;

	for (size_t i = 0; i < p->nmodes; i++)
		if (p->modes[i]->nodelay)
			p->modes[j++] = p->modes[i];
	if (j < p->nmodes)
		warnf("unix: mode nagle left out (a Unix socket has no Nagle's algorithm: it is nodelay there)");
	p->nmodes = j;
}

int net_plan_check(struct net_plan *p, const char *prefix)
{
	if (net_opts_check(&p->o, prefix))
		return -EINVAL;
	if (p->o.family != NET_UNIX)
		return 0;
	for (size_t i = 0; i < p->nmodes && !p->modes_all; i++)
		if (!p->modes[i]->nodelay) {
			errorf("%smode: %s: a Unix socket has no Nagle's algorithm (nodelay is the same there)",
			       prefix, p->modes[i]->name);
			return -EINVAL;
		}
	drop_nagle(p);
	return 0;
}

void net_where(const struct net_opts *o, const char *host, const char *port,
	       char *out, size_t len)
{
	if (o->family == NET_UNIX)
		snprintf(out, len, "unix:%s", o->path);
	else
		snprintf(out, len, "%s:%s", host, port);
}

/* net_settings as o's mode uses them: a setting the mode does not use
 * has no id part (and, but for NETF_NODELAY, no column). */
static void for_mode(const struct net_opts *o, struct setting *t, size_t n)
{
	const struct net_mode *m = net_mode_at((size_t)o->mode);

	for (size_t i = 0; i < n; i++) {
		unsigned f = net_settings[i].flags;
		bool unused = ((f & NETF_BUFFER) && !m->uses_buffer) ||
			      ((f & NETF_BATCH) && !m->uses_batch);

		t[i] = net_settings[i];
		if (unused || ((f & NETF_NODELAY) && !m->nodelay))
			t[i].id = NULL;
		if (unused)
			t[i].column = NULL;
	}
}

void net_config_id(const struct net_opts *o, char *id, size_t len)
{
	struct setting t[ARRAY_SIZE(net_settings)];
	const struct setting *const tables[] = { t, NULL };
	const void *const objs[] = { o, NULL };

	for_mode(o, t, ARRAY_SIZE(t));
	config_id_make(id, len, "net", net_mode_names[o->mode], tables, objs);
}

void net_settings_row(const struct net_opts *o, json_t *row)
{
	struct setting t[ARRAY_SIZE(net_settings)];

	for_mode(o, t, ARRAY_SIZE(t));
	settings_row(t, o, row);
}
