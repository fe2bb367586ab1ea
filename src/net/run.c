// SPDX-License-Identifier: MIT
/* One session of a net run, the repetition of the net kind (the bench
 * engine repeats it).  Locally the server is a thread of this process
 * accepting on 127.0.0.1, port 0, or on a Unix socket made fresh at
 * --unix PATH for each session and removed as soon as the client is in
 * (and on the stop signals). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net.h"
#include "lib/util.h"

struct server_thread {
	pthread_t tid;
	int lfd;
	const struct net_opts *o;
	int ret;
	char why[256];
};

static void *server_main(void *arg)
{
	struct server_thread *s = arg;
	struct net_served sv;
	char peer[128];
	int fd;

	fd = net_accept(s->lfd, s->o->timeout_ms, peer, sizeof(peer), s->why,
			sizeof(s->why));
	if (s->o->family == NET_UNIX) /* connected: the file is not needed */
		net_unix_remove(s->o->path);
	s->ret = fd < 0 ? fd : net_serve(fd, s->o, &sv, s->why, sizeof(s->why));
	return NULL;
}

/* Blame the server when the client only saw the consequence. */
static void pick_error(int cret, const char *cwhy, const struct server_thread *s,
		       char *why, size_t wlen)
{
	bool echo = cret == -EPIPE || cret == -ECONNRESET || cret == -EPROTO;

	if (s && s->ret && (echo || !cret))
		snprintf(why, wlen, "server: %s", s->why);
	else
		snprintf(why, wlen, "%s", cwhy);
}

/* The listener of a session here; a Unix one under the signal guard. */
static int local_listen(const struct net_opts *o, int *lport, char *why,
			size_t wlen)
{
	int fd;

	if (o->family == NET_TCP)
		return net_listen("127.0.0.1", "0", o, lport, why, wlen);
	net_unix_guard(o->path);
	fd = net_unix_listen(o, why, wlen);
	if (fd < 0)
		net_unix_unguard();
	return fd;
}

static void local_close(struct server_thread *s)
{
	close(s->lfd);
	if (s->o->family == NET_TCP)
		return;
	net_unix_remove(s->o->path); /* the server never accepted */
	net_unix_unguard();
}

/* Host NULL: a server thread of ours on a fresh 127.0.0.1 listener. */
static int session(const char *host, const char *port, const struct net_mode *m,
		   const struct net_opts *o, struct net_result *r, char *why,
		   size_t wlen)
{
	struct server_thread st = { .o = o };
	char cwhy[512] = "", p[16] = "";
	int ret, lport = 0;

	if (host)
		return net_client_run(host, port, m, o, r, why, wlen);
	st.lfd = local_listen(o, &lport, why, wlen);
	if (st.lfd < 0)
		return st.lfd;
	ret = pthread_create(&st.tid, NULL, server_main, &st);
	if (ret) {
		local_close(&st);
		snprintf(why, wlen, "pthread_create: %s", strerror(ret));
		return -ret;
	}
	snprintf(p, sizeof(p), "%d", lport);
	ret = net_client_run("127.0.0.1", p, m, o, r, cwhy, sizeof(cwhy));
	pthread_join(st.tid, NULL);
	local_close(&st);
	if (ret || st.ret)
		pick_error(ret, cwhy, &st, why, wlen);
	return ret ? ret : st.ret;
}

int net_run_once(const char *host, const char *port, const struct net_opts *o,
		 const char *bench, unsigned rep, json_t **row, char *why,
		 size_t wlen)
{
	const struct net_mode *m = net_mode_at((size_t)o->mode);
	struct net_result r;
	int ret;

	/* a peer that goes away must be an error message, not a dead process */
	signal(SIGPIPE, SIG_IGN);
	ret = session(host, port, m, o, &r, why, wlen);
	*row = net_row(bench, o, rep, ret ? NULL : &r, ret ? why : NULL);
	return ret;
}
