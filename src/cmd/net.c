// SPDX-License-Identifier: MIT
/* iostrat net: buffered network streams over TCP or Unix stream sockets
 * (see src/net/net.h). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "engine/bench.h"
#include "harness/env.h"
#include "net/net.h"
#include "results/row.h"
#include "harness/stop.h"
#include "lib/util.h"

static void net_usage(FILE *f)
{
	const struct net_mode *m;

	fputs("usage: iostrat net [options]                 server and client here, on 127.0.0.1\n"
	      "       iostrat net --unix PATH [options]   the same over a Unix socket at PATH\n"
	      "       iostrat net --listen [HOST:]PORT|unix:PATH [--once]   server only\n"
	      "       iostrat net --connect HOST:PORT|unix:PATH [options]   client only\n\n"
	      "Send length-prefixed messages (4-byte big-endian length, then the\n"
	      "payload) over TCP or a Unix stream socket in each mode, verify every\n"
	      "byte with xxh3 on both sides, and report messages/s, MB/s, system\n"
	      "calls and TCP segments per message and, for ping-pong, round-trip\n"
	      "percentiles.\n\nmodes:\n", f);
	for (size_t i = 0; (m = net_mode_at(i)); i++)
		fprintf(f, "  %-20s %s\n", m->name, m->summary);
	fputs("\noptions:\n", f);
}

struct net_args {
	struct net_plan plan;
	const char *listen, *connect, *out;
	bool once, verbose;
	char host[256], port[16];
};

/* Where the items of --mode and --size go, each stored by its setting
 * (mode or size of net_settings) and appended to its list in the plan. */
struct net_items {
	const struct setting *s;
	struct net_plan *p;
};

static int plan_item(char *tok, void *ctx)
{
	struct net_items *it = ctx;
	bool mode = !strcmp(it->s->name, "mode");
	size_t *n = mode ? &it->p->nmodes : &it->p->nsizes;
	size_t max = mode ? NET_MAX_MODES : NET_MAX_SIZES;
	struct net_opts one;

	if (setting_store(it->s, &one, mode ? "--mode" : "--size", tok))
		return -EINVAL;
	if (*n == max) {
		errorf("--%s: more than %zu values", it->s->name, max);
		return -EINVAL;
	}
	if (mode)
		it->p->modes[(*n)++] = net_mode_at((size_t)one.mode);
	else
		it->p->sizes[(*n)++] = one.size;
	return 0;
}

/* ret of a list's items, or -EINVAL after one line if there were none. */
static int items_given(int ret, size_t n, const char *opt)
{
	if (!ret && !n) {
		errorf("--%s: none given", opt);
		return -EINVAL;
	}
	return ret;
}

/* --mode LIST: each a value of the mode setting, or all. */
static int mode_list(const struct setting *opt, const char *list, void *obj)
{
	struct net_items it = { setting_find(net_settings, opt->name),
				&((struct net_args *)obj)->plan };
	int ret;

	it.p->nmodes = 0;
	it.p->modes_all = !strcmp(list, "all");
	for (size_t i = 0; it.p->modes_all && net_mode_at(i); i++)
		it.p->modes[it.p->nmodes++] = net_mode_at(i);
	ret = it.p->modes_all ? 0 : words_each(list, ",", plan_item, &it);
	return items_given(ret, it.p->nmodes, opt->name);
}

/* --size LIST: each a value of the size setting. */
static int size_list(const struct setting *opt, const char *list, void *obj)
{
	struct net_items it = { setting_find(net_settings, opt->name),
				&((struct net_args *)obj)->plan };
	int ret;

	it.p->nsizes = 0;
	ret = words_each(list, ",", plan_item, &it);
	return items_given(ret, it.p->nsizes, opt->name);
}

/* The options of the command itself; the net settings are net_settings
 * (opts.c), mode and size there as lists collected here. */
static const struct setting net_table[] = {
	{ .name = "listen", SETTING_STRING(struct net_args, listen), .metavar = "ADDR",
	  .help = "server only, at [HOST:]PORT or unix:PATH" },
	{ .name = "once", SETTING_BOOL(struct net_args, once),
	  .help = "with --listen: serve one session, then exit" },
	{ .name = "connect", SETTING_STRING(struct net_args, connect), .metavar = "ADDR",
	  .help = "client only, against HOST:PORT or unix:PATH" },
	{ .name = "mode", .type = SET_CALL, .arg = true, .call = mode_list,
	  .metavar = "LIST", .help = "comma list of modes, or all (default all)" },
	{ .name = "size", .type = SET_CALL, .arg = true, .call = size_list,
	  .metavar = "LIST", .help = "payload bytes per message, comma list (default 12)" },
	{ .name = "reps", SETTING_UINT(struct net_args, plan.reps), .min = 1, .max = 10000,
	  .metavar = "R", .help = "repetitions of every mode and size (default 3)" },
	{ .name = "out", SETTING_STRING(struct net_args, out), .metavar = "DIR",
	  .help = "results directory (default results/<time>-net)" },
	{ .name = "verbose", .shortname = 'v', SETTING_BOOL(struct net_args, verbose),
	  .help = "a line per run" },
	{ 0 },
};

const struct cmd_opts net_cmdopts = {
	.cmd = "net", .tables = { net_table, net_settings }, .usage = net_usage,
};

/* The defaults: every mode, the size setting's default, 3 repetitions. */
static void plan_defaults(struct net_plan *p)
{
	memset(p, 0, sizeof(*p));
	net_opts_defaults(&p->o);
	p->reps = 3;
	p->sizes[p->nsizes++] = p->o.size;
	p->modes_all = true;
	for (const struct net_mode *m; (m = net_mode_at(p->nmodes));)
		p->modes[p->nmodes++] = m;
}

/* After the last session: close, remove the socket file, release. */
static void serve_end(struct net_args *a, int lfd)
{
	if (lfd >= 0)
		close(lfd);
	if (a->plan.o.family == NET_UNIX && lfd >= 0)
		net_unix_remove(a->plan.o.path);
	if (a->plan.o.family == NET_UNIX)
		net_unix_unguard();
	else
		stop_release();
}

/* unix:PATH in --listen or --connect: the family and path; 1 if so. */
static int unix_address(struct net_args *a, const char *opt, const char *spec)
{
	int ret = net_unix_addr(spec, a->plan.o.path, sizeof(a->plan.o.path));

	if (ret < 0) {
		errorf("%s: bad address '%s' (unix:PATH, PATH of 1..%d bytes)", opt, spec,
		       NET_UNIX_PATH_MAX - 1);
		return -EINVAL;
	}
	if (a->plan.o.unix_at) {
		errorf("--unix and %s: choose one (%s unix:PATH is a Unix socket's server alone)",
		       opt, opt);
		return -EINVAL;
	}
	if (ret)
		a->plan.o.family = NET_UNIX;
	return ret;
}

/* [HOST:]PORT of --listen, HOST:PORT of --connect: 0 or -EINVAL after
 * one error line. */
static int tcp_address(struct net_args *a, const char *opt, const char *spec)
{
	bool srv = a->listen != NULL;
	int ret = net_parse_addr(spec, srv ? "127.0.0.1" : NULL, srv ? 0 : 1, a->host,
				 sizeof(a->host), a->port, sizeof(a->port));

	if (ret == -ERANGE)
		errorf("%s: bad port in '%s' (%s..65535)", opt, spec, srv ? "0" : "1");
	else if (ret)
		errorf("%s: bad address '%s' (%s or unix:PATH)", opt, spec,
		       srv ? "[HOST:]PORT" : "HOST:PORT");
	return ret ? -EINVAL : 0;
}

/* --listen and --connect into host and port, or a Unix socket path;
 * then what the family rules out.  0, or 2 after one error line. */
static int addresses(struct net_args *a)
{
	const char *opt = a->listen ? "--listen" : "--connect";
	const char *spec = a->listen ? a->listen : a->connect;
	int ret = spec ? unix_address(a, opt, spec) : 0;

	if (ret < 0 || (spec && !ret && tcp_address(a, opt, spec)))
		return 2;
	if (a->listen)
		a->plan.nmodes = 0; /* the client picks the mode */
	return net_plan_check(&a->plan, "--") ? 2 : 0;
}

static int serve_listen(struct net_args *a, char *why, size_t wlen)
{
	int lfd, port = 0;

	if (a->plan.o.family == NET_UNIX) {
		net_unix_guard(a->plan.o.path);
		lfd = net_unix_listen(&a->plan.o, why, wlen);
	} else {
		lfd = net_listen(a->host, a->port, &a->plan.o, &port, why, wlen);
	}
	if (lfd < 0)
		return lfd;
	if (a->plan.o.family == NET_UNIX)
		printf("listening on unix:%s\n", a->plan.o.path);
	else
		printf("listening on %s:%d\n", a->host, port);
	fflush(stdout);
	return lfd;
}

/* Server only: one session at a time, until a stop signal (or one
 * session, --once).  A signal ends the wait for a client at once, a
 * session in progress first (bounded by --timeout). */
static int serve(struct net_args *a)
{
	char why[512], peer[128];
	int lfd, ret = 0;

	if (a->plan.o.family == NET_TCP)
		stop_catch(STOP_SECOND_ENDS, NULL, true);
	lfd = serve_listen(a, why, sizeof(why));
	if (lfd < 0) {
		errorf("%s", why);
		serve_end(a, -1);
		return 1;
	}
	do {
		struct net_served sv;
		int fd = net_accept(lfd, -1, peer, sizeof(peer), why, sizeof(why));

		if (fd == -EINTR)
			break;
		ret = fd < 0 ? fd : net_serve(fd, &a->plan.o, &sv, why, sizeof(why));
		if (ret)
			(a->once ? errorf : warnf)("%s: %s", fd < 0 ? "accept" : peer, why);
		else
			printf("%s: %s, %llu messages of %u bytes\n", peer,
			       sv.kind == NET_PINGPONG ? "ping-pong" : "one-way",
			       (unsigned long long)sv.msgs, sv.size);
		fflush(stdout);
	} while (!a->once && !stop_caught());
	ret = stop_caught() ? 128 + stop_caught() : ret ? 1 : 0;
	serve_end(a, lfd);
	return ret;
}

static bool row_ok(json_t *r, const void *unused)
{
	(void)unused;
	return json_is_null(json_object_get(r, "error"));
}

/* The rows as the engine keeps them, for the table; -v: a line per run
 * that delivered. */
struct kept {
	json_t *rows;
	bool verbose;
};

static void keep_row(void *arg, json_t *row)
{
	struct kept *k = arg;

	json_array_append(k->rows, row);
	if (!k->verbose || !json_is_null(json_object_get(row, "error")))
		return;
	printf("rep %lld  %-20s %7lld B  %10.0f msgs/s  %.4f calls/msg\n",
	       (long long)json_integer_value(json_object_get(row, "rep")),
	       json_string_value(json_object_get(row, "mode")),
	       (long long)json_integer_value(json_object_get(row, "msg_size")),
	       json_real_value(json_object_get(row, "msgs_s")),
	       json_real_value(json_object_get(row, "syscalls_per_msg")));
}

/* The net settings given (those not at their default) as key, value
 * pairs into kv; text in buf.  The number of pairs. */
static size_t settings_given(const struct net_opts *o, const char **kv,
			     char (*buf)[64])
{
	struct net_opts d;
	size_t n = 0;
	char t[64];

	net_opts_defaults(&d);
	for (const struct setting *s = net_settings; s->name; s++) {
		const char *v = setting_text(s, o, buf[n], sizeof(buf[n]));

		if ((s->where & SET_BOTH) != SET_BOTH ||
		    (s > net_settings && s[-1].off == s->off) || /* a spelling */
		    !strcmp(v, setting_text(s, &d, t, sizeof(t))))
			continue;
		kv[2 * n] = s->name;
		kv[2 * n + 1] = v;
		n++;
	}
	return n;
}

/* One [net] section: mode, size, the settings given, connect, reps. */
static int net_section(const struct net_args *a, struct profile *p,
		       const struct bench_kind *kind, const char *mode,
		       const char *size)
{
	char reps[16], text[NET_MAX_SETTINGS][64];
	const char *kv[2 * (NET_MAX_SETTINGS + 4) + 1];
	size_t n = 0;

	snprintf(reps, sizeof(reps), "%u", a->plan.reps);
	kv[n++] = "mode";
	kv[n++] = mode;
	kv[n++] = "size";
	kv[n++] = size;
	n += 2 * settings_given(&a->plan.o, kv + n, text);
	if (a->connect) {
		kv[n++] = "connect";
		kv[n++] = a->connect;
	}
	kv[n++] = "reps";
	kv[n++] = reps;
	kv[n] = NULL;
	return engine_profile_add(p, "net", kind, "iostrat net", kv);
}

/* The plan as a profile: a [net] section per size and mode (mode
 * fastest), each run --reps times. */
static int net_profile(const struct net_args *a, struct profile *p)
{
	const struct bench_kind *kind = bench_kind_find("net");
	int ret = engine_profile_new(p, "net");

	for (size_t s = 0; !ret && s < a->plan.nsizes; s++)
		for (size_t i = 0; !ret && i < a->plan.nmodes; i++) {
			char size[32];

			snprintf(size, sizeof(size), "%llu", (unsigned long long)a->plan.sizes[s]);
			ret = net_section(a, p, kind, a->plan.modes[i]->name, size);
		}
	if (ret)
		profile_free(p);
	return ret;
}

/* The measuring client: the engine runs the plan as a profile (its
 * repetitions, results directory and stop line); the table and where the
 * rows are, here. */
static int measure(struct net_args *a)
{
	struct kept k = { json_array(), a->verbose };
	char why[512], dir[PATH_MAX] = "";
	struct engine_opts eo = {
		.out = a->out, .quiet = true, .stop_on_fail = true, .cmd = "net",
		.on_row = keep_row, .arg = &k, .dir = dir, .dir_len = sizeof(dir),
	};
	struct profile prof;
	int status = 1;

	if (!a->connect && a->plan.o.family == NET_UNIX &&
	    net_unix_check_path(a->plan.o.path, false, why, sizeof(why))) {
		errorf("--unix: %s", why); /* before the results directory */
		json_decref(k.rows);
		return 1;
	}
	eo.env = env_capture(NULL, NULL);
	if (k.rows && !net_profile(a, &prof))
		status = engine_run_profile(&prof, &eo);
	json_decref(eo.env);
	if (dir[0] && status < 128) {
		if (rows_any(k.rows, row_ok, NULL))
			net_print_table(stdout, k.rows);
		printf("results: %s\n", dir);
	}
	json_decref(k.rows);
	return status;
}

int cmd_net(int argc, char **argv)
{
	struct net_args a;
	void *const objs[] = { &a, &a.plan.o };
	int n;

	memset(&a, 0, sizeof(a));
	plan_defaults(&a.plan);
	n = cmdopt_parse(&net_cmdopts, objs, argc, argv);
	if (n < 0)
		return cmdopt_exit(n);
	if (n) {
		errorf("%s: unexpected argument (iostrat net --help)", argv[1]);
		return 2;
	}
	if (a.listen && a.connect) {
		errorf("--listen and --connect: choose one (or neither, for both here)");
		return 2;
	}
	if (addresses(&a))
		return 2;
	return a.listen ? serve(&a) : measure(&a);
}
