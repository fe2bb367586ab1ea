// SPDX-License-Identifier: MIT
/* iostrat net: buffered network streams over TCP or Unix stream sockets
 * (see src/net/net.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "harness/engine/bench.h"
#include "harness/env.h"
#include "net/net.h"
#include "harness/stop.h"
#include "lib/util.h"

#define NET_MAX_KV 32 /* settings given, each once (a later one replaces) */

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
	      "percentiles.\n\n"
	      "  --unix PATH       a Unix stream socket, made fresh at PATH and removed\n"
	      "                    after (an existing non-socket PATH is refused); no\n"
	      "                    --nagle, --rcvbuf or mode nagle there\n"
	      "  --mode LIST       comma list of modes, or all (default all)\n"
	      "  --size LIST       payload bytes per message, comma list (default 12)\n"
	      "  --count N         messages per run (default 10000)\n"
	      "  --reps R          repetitions of every mode and size (default 3)\n"
	      "  --buffer SIZE     user-space buffer of the buffered modes (default 64k)\n"
	      "  --batch K         messages per writev / io_uring submit, MSG_MORE run,\n"
	      "                    requests in flight when pipelined (default 64)\n"
	      "  --timeout SEC     give up when the peer makes no progress (default 10)\n"
	      "  --sndbuf SIZE     SO_SNDBUF of both sides (default: the kernel's)\n"
	      "  --rcvbuf SIZE     SO_RCVBUF of both sides (default: the kernel's)\n"
	      "  --nagle           leave Nagle's algorithm on in every mode\n"
	      "  --io-max N        cap every read and write at N bytes (testing;\n"
	      "                    also spelt --io_max, as in profiles)\n"
	      "  --out DIR         results directory (default results/<time>-net)\n"
	      "  -v, --verbose     a line per run\n\nmodes:\n", f);
	for (size_t i = 0; (m = net_mode_at(i)); i++)
		fprintf(f, "  %-20s %s\n", m->name, m->summary);
}

struct net_args {
	struct net_plan plan;
	const char *listen, *connect, *out;
	bool once, verbose;
	char host[256], port[16];
	/* the net settings as given (mode and size apart): the keys of the
	 * profile sections the measurement runs as */
	struct { char key[16]; const char *value; } kv[NET_MAX_KV];
	size_t nkv;
};

/* Keep key=value for the profile; mode and size come from the plan. */
static void remember(struct net_args *a, const char *key, const char *v)
{
	size_t i = 0;

	if (!strcmp(key, "mode") || !strcmp(key, "size"))
		return;
	while (i < a->nkv && strcmp(a->kv[i].key, key))
		i++;
	if (i == NET_MAX_KV)
		return; /* more keys than net has: cannot happen */
	snprintf(a->kv[i].key, sizeof(a->kv[i].key), "%s", key);
	a->kv[i].value = v; /* in argv */
	a->nkv = MAX(a->nkv, i + 1);
}

/* One net setting: into the plan (checked) and remembered. */
static int net_setting(struct net_args *a, const char *key, const char *v)
{
	int ret = net_opt_set(&a->plan, "--", key, v);

	if (!ret)
		remember(a, key, v ? v : "1"); /* a flag (nagle) given bare: 1 */
	return ret;
}

static int set_value(struct net_args *a, const char *key, const char *v)
{
	if (!strcmp(key, "reps"))
		return opt_uint("--reps", v, 1, 10000, &a->plan.reps);
	if (!strcmp(key, "listen"))
		a->listen = v;
	else if (!strcmp(key, "connect"))
		a->connect = v;
	else if (!strcmp(key, "out"))
		a->out = v;
	else
		return net_setting(a, key, v);
	return 0;
}

static int parse_flag(struct net_args *a, const char *key)
{
	if (net_opt_is_flag(key))
		return net_setting(a, key, NULL);
	if (!strcmp(key, "once"))
		a->once = true;
	else if (!strcmp(key, "verbose"))
		a->verbose = true;
	else
		return -ENOENT;
	return 0;
}

static int parse_args(struct net_args *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *eq;
		char key[64];
		int ret;

		if (!strcmp(arg, "-v")) {
			a->verbose = true;
			continue;
		}
		if (strncmp(arg, "--", 2) || !arg[2] || strlen(arg) >= sizeof(key) + 2) {
			errorf("%s: unexpected argument (iostrat net --help)", arg);
			return -EINVAL;
		}
		eq = strchr(arg, '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq ? eq - arg - 2 : (long)strlen(arg + 2)), arg + 2);
		if (!eq && !parse_flag(a, key))
			continue;
		if (!eq && i + 1 >= argc) {
			ret = -ENOENT;
			if (net_opt_known(key) || !strcmp(key, "reps") || !strcmp(key, "listen") ||
			    !strcmp(key, "connect") || !strcmp(key, "out")) {
				errorf("--%s: missing value", key);
				return -EINVAL;
			}
		} else {
			ret = set_value(a, key, eq ? eq + 1 : argv[++i]);
		}
		if (ret == -ENOENT)
			errorf("--%s: unknown option (iostrat net --help)", key);
		if (ret)
			return ret;
	}
	if (a->listen && a->connect) {
		errorf("--listen and --connect: choose one (or neither, for both here)");
		return -EINVAL;
	}
	return 0;
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
	if (a->plan.o.family == NET_UNIX) { /* from --unix */
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

static bool any_ok(json_t *rows)
{
	size_t i;
	json_t *r;

	json_array_foreach(rows, i, r)
		if (json_is_null(json_object_get(r, "error")))
			return true;
	return false;
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

/* One [net] section: mode, size, the settings as given, connect, reps. */
static int net_section(const struct net_args *a, struct profile *p,
		       const struct bench_kind *kind, const char *mode,
		       const char *size)
{
	const char *kv[2 * (NET_MAX_KV + 4) + 1];
	char reps[16];
	size_t n = 0;

	snprintf(reps, sizeof(reps), "%u", a->plan.reps);
	kv[n++] = "mode";
	kv[n++] = mode;
	kv[n++] = "size";
	kv[n++] = size;
	for (size_t k = 0; k < a->nkv; k++) {
		kv[n++] = a->kv[k].key;
		kv[n++] = a->kv[k].value;
	}
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

			snprintf(size, sizeof(size), "%u", a->plan.sizes[s]);
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
		if (any_ok(k.rows))
			net_print_table(stdout, k.rows);
		printf("results: %s\n", dir);
	}
	json_decref(k.rows);
	return status;
}

int cmd_net(int argc, char **argv)
{
	struct net_args a;

	memset(&a, 0, sizeof(a));
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			net_usage(stdout);
			return 0;
		}
	net_plan_defaults(&a.plan);
	if (parse_args(&a, argc, argv) || addresses(&a))
		return 2;
	return a.listen ? serve(&a) : measure(&a);
}

/* Every option the parser above takes (settings.h): main.c refuses the rest. */
static const struct setting net_table[] = {
	{ .name = "listen", .type = SET_STRING }, { .name = "connect", .type = SET_STRING }, { .name = "once" },
	{ .name = "reps", .type = SET_STRING }, { .name = "out", .type = SET_STRING }, { .name = "verbose", .shortname = 'v' },
	{ 0 },
};

const struct cmd_opts net_cmdopts = { .cmd = "net", .tables = { net_table }, .more = net_opt_each };
