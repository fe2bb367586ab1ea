// SPDX-License-Identifier: MIT
/* Socket setup: addresses, listen, accept and connect with timeouts, and
 * the options every data socket gets.  None of this is counted: it is not
 * part of moving messages. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness/stop.h"
#include "net.h"

int net_parse_addr(const char *spec, const char *dflt_host, int min_port,
		   char *host, size_t hlen, char *port, size_t plen)
{
	const char *colon = strrchr(spec, ':'), *h = spec, *p;
	size_t n;

	if (!colon) {
		if (!dflt_host)
			return -EINVAL;
		snprintf(host, hlen, "%s", dflt_host);
		p = spec;
		n = 0;
	} else {
		p = colon + 1;
		n = (size_t)(colon - spec);
		if (n >= 2 && spec[0] == '[' && spec[n - 1] == ']') {
			h++;
			n -= 2;
		}
		if (!n || n >= hlen)
			return -EINVAL;
		memcpy(host, h, n);
		host[n] = 0;
	}
	if (!*p || strlen(p) >= plen || strspn(p, "0123456789") != strlen(p))
		return -EINVAL;
	/* getaddrinfo takes any number and wraps it modulo 65536: 99999 would
	 * be port 34463, and 65536 port 0. */
	if (strlen(p) > 5 || atol(p) > 65535 || atol(p) < min_port)
		return -ERANGE;
	snprintf(port, plen, "%s", p);
	return 0;
}

static int set_int(int fd, int level, int opt, int v)
{
	return setsockopt(fd, level, opt, &v, sizeof(v)) < 0 ? -errno : 0;
}

int net_set_nodelay(int fd, bool on)
{
	return set_int(fd, IPPROTO_TCP, TCP_NODELAY, on);
}

int net_set_nonblock(int fd, bool on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -errno;
	fl = on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK;
	return fcntl(fd, F_SETFL, fl) < 0 ? -errno : 0;
}

/* Buffers before connect/listen (so the window scale fits them), and the
 * send/receive timeouts that turn a stuck peer into EAGAIN. */
int net_sock_options(int fd, const struct net_opts *o)
{
	struct timeval tv = {
		.tv_sec = o->timeout_ms / 1000,
		.tv_usec = (o->timeout_ms % 1000) * 1000,
	};

	if (o->sndbuf && set_int(fd, SOL_SOCKET, SO_SNDBUF, (int)o->sndbuf))
		return -errno;
	if (o->rcvbuf && set_int(fd, SOL_SOCKET, SO_RCVBUF, (int)o->rcvbuf))
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		return -errno;
	return 0;
}

static int resolve(const char *host, const char *port, int flags,
		   struct addrinfo **ai, char *why, size_t wlen)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = flags | AI_NUMERICSERV,
	};
	int ret = getaddrinfo(host, port, &hints, ai);

	if (ret) {
		snprintf(why, wlen, "%s:%s: %s", host, port, gai_strerror(ret));
		return -EINVAL;
	}
	return 0;
}

static int fail(char *why, size_t wlen, int err, const char *host,
		const char *port, const char *what)
{
	snprintf(why, wlen, "%s:%s: %s: %s", host, port, what, strerror(-err));
	return err;
}

int net_listen(const char *host, const char *port, const struct net_opts *o,
	       int *port_out, char *why, size_t wlen)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t sl = sizeof(ss);
	struct addrinfo *ai;
	int fd, ret;

	ret = resolve(host, port, AI_PASSIVE, &ai, why, wlen);
	if (ret)
		return ret;
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = fail(why, wlen, -errno, host, port, "socket");
		freeaddrinfo(ai);
		return ret;
	}
	/* SO_REUSEADDR skips TIME_WAIT leftovers, never a live listener */
	ret = set_int(fd, SOL_SOCKET, SO_REUSEADDR, 1);
	if (!ret)
		ret = net_sock_options(fd, o);
	if (!ret && bind(fd, ai->ai_addr, ai->ai_addrlen) < 0)
		ret = fail(why, wlen, -errno, host, port, "bind");
	else if (ret)
		ret = fail(why, wlen, ret, host, port, "setsockopt");
	if (!ret && listen(fd, 16) < 0)
		ret = fail(why, wlen, -errno, host, port, "listen");
	freeaddrinfo(ai);
	if (!ret && getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		ret = fail(why, wlen, -errno, host, port, "getsockname");
	if (ret) {
		close(fd);
		return ret;
	}
	/* getsockname filled ss; the analyzer cannot follow the cast */
	*port_out = ntohs(ss.ss_family == AF_INET6 ? // NOLINT(clang-analyzer-core.CallAndMessage)
			  ((struct sockaddr_in6 *)&ss)->sin6_port :
			  ((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

/* HOST:PORT; a Unix socket's client has no name: its pid, then. */
static void peer_name(int fd, const struct sockaddr_storage *ss, socklen_t sl,
		      char *out, size_t len)
{
	char h[NI_MAXHOST], p[NI_MAXSERV];
	struct ucred cr;
	socklen_t cl = sizeof(cr);

	if (ss->ss_family == AF_UNIX) {
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) == 0)
			snprintf(out, len, "unix peer pid %ld", (long)cr.pid);
		else
			snprintf(out, len, "unix peer");
	} else if (getnameinfo((const struct sockaddr *)ss, sl, h, sizeof(h), p,
			sizeof(p), NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(out, len, "peer");
	else
		snprintf(out, len, "%s:%s", h, p);
}

int net_accept(int lfd, int timeout_ms, char *peer, size_t plen, char *why,
	       size_t wlen)
{
	struct pollfd p = { .fd = lfd, .events = POLLIN };
	struct sockaddr_storage ss = { 0 };
	socklen_t sl = sizeof(ss);
	int k, fd;

	do
		k = poll(&p, 1, timeout_ms);
	while (k < 0 && errno == EINTR && !stop_caught());
	if (k < 0 && errno == EINTR) { /* a stop signal (stop.h) */
		snprintf(why, wlen, "accept: interrupted by a signal");
		return -EINTR;
	}
	if (k == 0) {
		snprintf(why, wlen, "accept: no client connected within %.1f s (--timeout)",
			 timeout_ms / 1000.0);
		return -ETIMEDOUT;
	}
	do
		fd = k < 0 ? -1 : accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		snprintf(why, wlen, "accept: %s", strerror(errno));
		return -errno;
	}
	peer_name(fd, &ss, sl, peer, plen);
	return fd;
}

static int connect_wait(int fd, const struct addrinfo *a, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	socklen_t el = sizeof(int);
	int err = 0, k;

	if (connect(fd, a->ai_addr, a->ai_addrlen) == 0)
		return 0;
	if (errno != EINPROGRESS)
		return -errno;
	do
		k = poll(&p, 1, timeout_ms);
	while (k < 0 && errno == EINTR);
	if (k == 0)
		return -ETIMEDOUT;
	if (k < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0)
		return -errno;
	return -err;
}

int net_connect(const char *host, const char *port, const struct net_opts *o,
		char *why, size_t wlen)
{
	struct addrinfo *ai, *a;
	int fd = -1, ret;

	ret = resolve(host, port, 0, &ai, why, wlen);
	if (ret)
		return ret;
	ret = -ENOENT;
	for (a = ai; a && ret; a = a->ai_next) {
		if (fd >= 0)
			close(fd);
		fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0) {
			ret = -errno;
			continue;
		}
		ret = net_sock_options(fd, o);
		if (!ret)
			ret = connect_wait(fd, a, o->timeout_ms);
	}
	freeaddrinfo(ai);
	if (!ret)
		ret = net_set_nonblock(fd, false);
	if (ret) {
		if (fd >= 0)
			close(fd);
		if (ret == -ETIMEDOUT)
			snprintf(why, wlen, "%s:%s: connect: no answer within %.1f s (--timeout)",
				 host, port, o->timeout_ms / 1000.0);
		else
			fail(why, wlen, ret, host, port, "connect");
		return ret;
	}
	return fd;
}

int net_sock_accepted(int fd, const struct net_opts *o)
{
	return net_sock_options(fd, o);
}
