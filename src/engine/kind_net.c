// SPDX-License-Identifier: MIT
/*
 * The "net" kind: a profile section [net] (or [net-NAME], or kind=net) runs
 * `iostrat net` configurations.  Keys are the profile keys of net_settings
 * (src/net/opts.c), stored through the table, and connect=:
 *   mode=nodelay,buffered   size=12,1k   count=10000   buffer=64k
 *   batch=64   timeout=10   sndbuf=   rcvbuf=   nagle=0   io_max=   unix=PATH
 *   connect=HOST:PORT or connect=unix:PATH
 * Lists expand into one configuration each (one mode and one size per
 * configuration); one repetition = one session against a server thread on
 * 127.0.0.1 or on a Unix socket at unix=PATH (or the iostrat net --listen
 * at connect=).  Keys inherited
 * from [global] or -D that belong to other kinds (dataset, threads...)
 * never reach here (net_kind_inherits: profile.c leaves them out); any other
 * key is an error, a typo in [global] too.  `iostrat net` runs its own
 * plan as sections of this kind (ctx->cmd "net"): its rows have no
 * section or target_rsd column and its errors no [section].
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/stop.h"
#include "net/net.h"
#include "lib/util.h"
#include "bench.h"

struct netp {
	struct net_opts o;
	char host[256], port[16];
	char unix_at[NET_UNIX_PATH_MAX]; /* connect=unix:PATH */
	const char *connect_where;
	bool remote;
};

static int connect_key(struct netp *np, const struct pkv *kv)
{
	int ret = net_unix_addr(kv->value, np->unix_at, sizeof(np->unix_at));

	if (ret < 0) {
		errorf("%s: connect: bad address '%s' (unix:PATH, PATH of 1..%d bytes)",
		       kv->where, kv->value, NET_UNIX_PATH_MAX - 1);
		return -EINVAL;
	}
	if (!ret)
		ret = net_parse_addr(kv->value, NULL, 1, np->host, sizeof(np->host),
				     np->port, sizeof(np->port));
	else
		ret = snprintf(np->host, sizeof(np->host), "unix") < 0 ? -EINVAL : 0;
	if (ret) {
		errorf(ret == -ERANGE ? "%s: connect: bad port in '%s' (1..65535)" :
			"%s: connect: bad address '%s' (HOST:PORT or unix:PATH)", kv->where, kv->value);
		return -EINVAL;
	}
	np->remote = true;
	np->connect_where = kv->where;
	return 0;
}

/* connect= decides the family when given; unix= with it is a conflict. */
static int family(const struct pconf *c, struct netp *np)
{
	char prefix[300];

	if (np->remote && np->o.unix_at) {
		errorf("%s: [%s]: unix= and connect=: choose one (connect=unix:PATH for a server of its own)",
		       np->connect_where, c->section);
		return -EINVAL;
	}
	if (np->unix_at[0]) {
		np->o.family = NET_UNIX;
		snprintf(np->o.path, sizeof(np->o.path), "%s", np->unix_at);
	}
	snprintf(prefix, sizeof(prefix), "%s: [%s]: ", c->where, c->section);
	return net_opts_check(&np->o, prefix);
}

/* "mode, size, ..., connect": the keys a [net] section takes */
static void key_list(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (const struct setting *s = net_settings; s->name && n < len; s++)
		if (s->where & SET_PROFILE)
			n += (size_t)snprintf(buf + n, len - n, "%s, ", s->name);
	if (n < len)
		snprintf(buf + n, len - n, "connect");
}

static int one_key(struct netp *np, const struct pkv *kv)
{
	const struct setting *s;
	char where[300], keys[256];

	if (profile_engine_key(kv->key))
		return 0;
	if (!strcmp(kv->key, "connect"))
		return connect_key(np, kv);
	snprintf(where, sizeof(where), "%s: %s", kv->where, kv->key);
	s = net_profile_key(kv->key);
	if (s)
		return setting_store(s, &np->o, where, kv->value);
	key_list(keys, sizeof(keys));
	errorf("%s: not a net key (%s)", where, keys);
	return -EINVAL;
}

static int apply(const struct pconf *c, struct netp *np)
{
	int ret;

	memset(np, 0, sizeof(*np));
	net_opts_defaults(&np->o);
	np->o.mode = -1;
	for (size_t i = 0; i < c->nkv; i++) {
		ret = one_key(np, &c->kv[i]);
		if (ret)
			return ret;
	}
	if (np->o.mode < 0) {
		errorf("%s: [%s]: needs mode= (one mode or a comma list: mode=nodelay,buffered)",
		       c->where, c->section);
		return -EINVAL;
	}
	return family(c, np) ? -EINVAL : 0;
}

static int net_kind_check(const struct bench_ctx *ctx, const struct pconf *c, char *why,
		     size_t len)
{
	struct netp np;
	char w[NET_UNIX_PATH_MAX + 200];

	(void)ctx;
	(void)why;
	(void)len;
	if (apply(c, &np))
		return -EINVAL;
	/* a socket file of ours where another file is: refused up front */
	if (np.o.family == NET_UNIX && !np.remote &&
	    net_unix_check_path(np.o.path, true, w, sizeof(w))) {
		errorf("%s: [%s]: unix: %s", c->where, c->section, w);
		return -EINVAL;
	}
	return 0;
}

static int net_kind_prepare(struct bench_ctx *ctx, struct bench_item *it)
{
	struct netp *np = calloc(1, sizeof(*np));
	double per_msg;

	(void)ctx;
	if (!np)
		return -ENOMEM;
	if (apply(it->pc, np)) {
		free(np);
		return -EINVAL;
	}
	net_config_id(&np->o, it->id, sizeof(it->id));
	snprintf(it->label, sizeof(it->label), "net %s size=%llu count=%llu%s",
		 net_mode_names[np->o.mode], (unsigned long long)np->o.size,
		 (unsigned long long)np->o.count,
		 np->o.family == NET_UNIX ? " unix" : "");
	/* a rough guess for the eta: ~20 us a message and ~1 GB/s */
	per_msg = (net_mode_at((size_t)np->o.mode)->kind == NET_PINGPONG ? 40e-6 : 10e-6) + np->o.size / 1e9;
	it->est_s = 0.01 + (double)np->o.count * per_msg;
	it->priv = np;
	return 0;
}

static int net_kind_rep(struct bench_ctx *ctx, struct bench_item *it, unsigned rep,
		   json_t **row)
{
	struct netp *np = it->priv;
	char why[512];
	int ret;

	ret = net_run_once(np->remote ? np->host : NULL, np->port, &np->o,
			   ctx->name, rep, row, why, sizeof(why));
	if (ret && ctx->cmd) {
		if (!stop_caught()) /* a run cut short by the signal is not said */
			errorf("%s", why);
	} else if (ret && !ctx->quiet) {
		errorf("[%s] %s", it->pc->section, why);
	}
	if (*row && !ctx->cmd) {
		json_object_set_new(*row, "section", json_text(it->pc->section));
		json_object_set_new(*row, "target_rsd", json_real(it->target_rsd));
	}
	return ret;
}

static bool net_kind_inherits(const struct pconf *c, const struct pkv *kv,
			 char *why, size_t len)
{
	(void)c, (void)why, (void)len;
	return net_profile_key(kv->key) || !strcmp(kv->key, "connect");
}

BENCH_KIND(net);
