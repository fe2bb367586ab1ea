// SPDX-License-Identifier: MIT
/* The settings of a net run, by name: shared by the command line
 * (--size 12) and profile sections (size=12), so both take the same
 * values and report errors alike ("--size: bad value" or
 * "FILE:LINE: size: bad value"). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "net.h"
#include "lib/util.h"

void net_plan_defaults(struct net_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->o.count = 10000;
	p->o.buffer = 64 << 10;
	p->o.batch = 64;
	p->o.timeout_ms = 10000;
	p->reps = 3;
	p->sizes[p->nsizes++] = 12; /* "Hello Server" */
	p->modes_all = true;
	for (const struct net_mode *m; (m = net_mode_at(p->nmodes));)
		p->modes[p->nmodes++] = m;
}

static int plan_modes(struct net_plan *p, const char *opt, const char *list)
{
	char buf[512], *save = NULL, *tok;

	p->nmodes = 0;
	p->modes_all = !strcmp(list, "all");
	if (p->modes_all) {
		for (const struct net_mode *m; (m = net_mode_at(p->nmodes));)
			p->modes[p->nmodes++] = m;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct net_mode *m = net_mode_find(tok);

		if (!m) {
			errorf("%s: unknown mode '%s' (iostrat net --help lists them)", opt, tok);
			return -EINVAL;
		}
		if (p->nmodes == NET_MAX_MODES) {
			errorf("%s: more than %d modes", opt, NET_MAX_MODES);
			return -EINVAL;
		}
		p->modes[p->nmodes++] = m;
	}
	if (!p->nmodes) {
		errorf("%s: no mode given", opt);
		return -EINVAL;
	}
	return 0;
}

static int plan_sizes(struct net_plan *p, const char *opt, const char *list)
{
	char buf[512], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", list);
	p->nsizes = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (opt_size(opt, tok, 0, NET_MAX_SIZE, &v))
			return -EINVAL;
		if (p->nsizes == NET_MAX_SIZES) {
			errorf("%s: more than %d sizes", opt, NET_MAX_SIZES);
			return -EINVAL;
		}
		p->sizes[p->nsizes++] = (uint32_t)v;
	}
	if (!p->nsizes) {
		errorf("%s: no size given", opt);
		return -EINVAL;
	}
	return 0;
}

static int set_count(struct net_plan *p, const char *opt, const char *v)
{
	uint64_t u;

	if (parse_u64(v, &u) || !u || u > NET_MAX_COUNT) {
		errorf("%s: bad value '%s' (must be 1..%llu)", opt, v, NET_MAX_COUNT);
		return -EINVAL;
	}
	p->o.count = u;
	return 0;
}

static int set_timeout(struct net_plan *p, const char *opt, const char *v)
{
	double s;

	if (parse_double(v, &s) || s <= 0 || s > 86400) {
		errorf("%s: bad value '%s' (seconds, > 0)", opt, v);
		return -EINVAL;
	}
	p->o.timeout_ms = (int)ceil(s * 1000);
	return 0;
}

static int set_size(const char *opt, const char *v, uint64_t min, uint64_t max,
		    size_t *out)
{
	uint64_t b;
	int ret = opt_size(opt, v, min, max, &b);

	if (!ret)
		*out = (size_t)b;
	return ret;
}

static int set_bool(const char *opt, const char *v, bool *out)
{
	if (!v) {
		*out = true;
		return 0;
	}
	if (!parse_bool(v, out))
		return 0;
	errorf("%s: bad value '%s' (1/0, true/false, yes/no or on/off)", opt, v);
	return -EINVAL;
}

/* --unix PATH: a Unix stream socket at PATH instead of TCP. */
static int set_unix(struct net_plan *p, const char *opt, const char *v)
{
	if (!*v || strlen(v) >= sizeof(p->o.path)) {
		errorf("%s: bad value '%s' (a socket file path of 1..%zu bytes)", opt, v,
		       sizeof(p->o.path) - 1);
		return -EINVAL;
	}
	snprintf(p->o.path, sizeof(p->o.path), "%s", v);
	p->o.family = NET_UNIX;
	return 0;
}

const char *net_family_name(enum net_family f)
{
	return f == NET_UNIX ? "unix" : "tcp";
}

void net_where(const struct net_opts *o, const char *host, const char *port,
	       char *out, size_t len)
{
	if (o->family == NET_UNIX)
		snprintf(out, len, "unix:%s", o->path);
	else
		snprintf(out, len, "%s:%s", host, port);
}

/* Drop mode nagle from "all" (it is nodelay on a Unix socket). */
static void drop_nagle(struct net_plan *p)
{
	size_t j = 0;

	for (size_t i = 0; i < p->nmodes; i++)
		if (strcmp(p->modes[i]->name, "nagle"))
			p->modes[j++] = p->modes[i];
	if (j < p->nmodes)
		warnf("unix: mode nagle left out (a Unix socket has no Nagle's algorithm: it is nodelay there)");
	p->nmodes = j;
}

int net_plan_check(struct net_plan *p, const char *prefix)
{
	if (p->o.family != NET_UNIX)
		return 0;
	if (p->o.nagle) {
		errorf("%snagle: a Unix socket has no Nagle's algorithm (no TCP stack)", prefix);
		return -EINVAL;
	}
	if (p->o.rcvbuf) {
		errorf("%srcvbuf: a Unix stream socket does not use SO_RCVBUF (the sender's sndbuf bounds what is queued)",
		       prefix);
		return -EINVAL;
	}
	for (size_t i = 0; i < p->nmodes && !p->modes_all; i++)
		if (!strcmp(p->modes[i]->name, "nagle")) {
			errorf("%smode: nagle: a Unix socket has no Nagle's algorithm (nodelay is the same there)",
			       prefix);
			return -EINVAL;
		}
	drop_nagle(p);
	return 0;
}

static const char *const keys[] = {
	"mode", "size", "count", "buffer", "batch", "timeout", "io-max",
	"io_max", "nagle", "sndbuf", "rcvbuf", "unix", NULL,
};

void net_opt_each(setting_fn fn, void *ctx)
{
	for (size_t i = 0; keys[i]; i++) {
		struct setting o = { .name = keys[i], .type = net_opt_is_flag(keys[i]) ? SET_BOOL : SET_STRING };

		fn(&o, ctx);
	}
}

bool net_opt_known(const char *key)
{
	for (size_t i = 0; keys[i]; i++)
		if (!strcmp(keys[i], key))
			return true;
	return false;
}

bool net_opt_is_flag(const char *key)
{
	return !strcmp(key, "nagle");
}

int net_opt_set(struct net_plan *p, const char *prefix, const char *key,
		const char *v)
{
	char opt[320];
	size_t sb;
	int ret;

	snprintf(opt, sizeof(opt), "%s%s", prefix, key);
	if (!strcmp(key, "mode"))
		return plan_modes(p, opt, v);
	if (!strcmp(key, "size"))
		return plan_sizes(p, opt, v);
	if (!strcmp(key, "count"))
		return set_count(p, opt, v);
	if (!strcmp(key, "buffer"))
		return set_size(opt, v, 16, 1 << 30, &p->o.buffer);
	if (!strcmp(key, "batch"))
		return opt_uint(opt, v, 1, NET_MAX_BATCH, &p->o.batch);
	if (!strcmp(key, "timeout"))
		return set_timeout(p, opt, v);
	if (!strcmp(key, "io-max") || !strcmp(key, "io_max"))
		return opt_uint(opt, v, 1, 1u << 30, &p->o.io_max);
	if (!strcmp(key, "nagle"))
		return set_bool(opt, v, &p->o.nagle);
	if (!strcmp(key, "unix"))
		return set_unix(p, opt, v);
	if (strcmp(key, "sndbuf") && strcmp(key, "rcvbuf"))
		return -ENOENT;
	ret = set_size(opt, v, 1, 1 << 30, &sb);
	if (!ret)
		*(strcmp(key, "sndbuf") ? &p->o.rcvbuf : &p->o.sndbuf) = (int)sb;
	return ret;
}
