// SPDX-License-Identifier: MIT
/* The server side of one session, the same for every mode: it reads
 * through a 256 KiB buffer, hashes every payload byte, and in ping-pong
 * answers each request with a reply of twice its size.  Replies collect in
 * a buffer flushed before the server would block reading (as an event-loop
 * server does), so pipelined requests get coalesced replies. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "net.h"
#include "lib/util.h"

struct session {
	struct net_conn conn;
	struct net_rbuf rd;
	struct net_wbuf wr;
	struct frame_rx fr;
	enum net_kind kind;
	uint32_t size;
	uint64_t count, msgs, bytes;
	uint8_t *pattern;
	XXH3_state_t *rx, *tx;
};

static int handshake(struct session *s)
{
	uint8_t hello[NET_HELLO_LEN], err[300];
	char why[256];
	size_t len;
	int ret;

	ret = net_read_frame(&s->conn, &s->rd, hello, sizeof(hello), &len, "hello");
	if (ret == -EPROTO)
		snprintf(s->conn.why, sizeof(s->conn.why), "not an iostrat net client (bad hello)");
	if (ret)
		return ret;
	ret = net_hello_decode(hello, len, &s->kind, &s->size, &s->count, why,
			       sizeof(why));
	if (ret) {
		/* tell the client why, then give up */
		len = (size_t)snprintf((char *)err, sizeof(err), "ERR %s", why);
		net_wbuf_frame(&s->conn, &s->wr, err, (uint32_t)len);
		net_wbuf_flush(&s->conn, &s->wr);
		return net_fail(&s->conn, ret, "%s", why);
	}
	s->pattern = net_pattern(s->size);
	if (!s->pattern)
		return net_fail(&s->conn, -ENOMEM, "out of memory");
	ret = net_wbuf_frame(&s->conn, &s->wr, "OK", 2);
	return ret ? ret : net_wbuf_flush(&s->conn, &s->wr);
}

static int on_event(struct session *s, enum frame_ev ev, const uint8_t *d,
		    size_t n)
{
	const uint8_t *r;

	switch (ev) {
	case FRAME_HEAD:
		if (s->fr.len != s->size)
			return net_fail(&s->conn, -EPROTO, "message %llu has %u bytes, expected %u",
					(unsigned long long)s->msgs + 1, s->fr.len, s->size);
		return 0;
	case FRAME_DATA:
		XXH3_64bits_update(s->rx, d, n);
		s->bytes += n;
		return 0;
	case FRAME_END:
		if (s->kind != NET_PINGPONG) {
			s->msgs++;
			return 0;
		}
		r = net_reply(s->pattern, s->msgs++);
		XXH3_64bits_update(s->tx, r, 2 * (size_t)s->size);
		return net_wbuf_frame(&s->conn, &s->wr, r, 2 * s->size);
	default:
		return 0;
	}
}

static int receive_all(struct session *s)
{
	while (s->msgs < s->count) {
		const uint8_t *d;
		size_t n;
		int ev = net_rbuf_next(&s->conn, &s->rd, &s->fr, &s->wr, &d, &n);
		int ret;

		if (ev == 0)
			return net_fail(&s->conn, -ECONNRESET,
					"peer closed the connection after %llu of %llu messages",
					(unsigned long long)s->msgs,
					(unsigned long long)s->count);
		ret = ev < 0 ? ev : on_event(s, ev, d, n);
		if (ret)
			return ret;
	}
	return net_wbuf_flush(&s->conn, &s->wr);
}

static uint64_t tv_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000 + (uint64_t)tv->tv_usec;
}

static int send_trailer(struct session *s, const struct rusage *r0)
{
	struct net_trailer t = {
		.msgs = s->msgs, .bytes = s->bytes,
		.rx_hash = XXH3_64bits_digest(s->rx),
		.tx_hash = XXH3_64bits_digest(s->tx),
		.calls = s->conn.calls,
	};
	uint8_t buf[NET_TRAILER_LEN];
	struct rusage r1;
	int ret;

	getrusage(RUSAGE_THREAD, &r1);
	t.user_us = tv_us(&r1.ru_utime) - tv_us(&r0->ru_utime);
	t.sys_us = tv_us(&r1.ru_stime) - tv_us(&r0->ru_stime);
	net_trailer_encode(buf, &t);
	ret = net_wbuf_frame(&s->conn, &s->wr, buf, sizeof(buf));
	return ret ? ret : net_wbuf_flush(&s->conn, &s->wr);
}

/* After the trailer the client closes; anything else is a protocol error. */
static int expect_eof(struct session *s)
{
	ssize_t k;

	if (s->rd.off < s->rd.end)
		k = 1;
	else
		k = net_rbuf_fill(&s->conn, &s->rd, &s->fr);
	if (k > 0)
		return net_fail(&s->conn, -EPROTO, "peer sent more than the %llu messages it announced",
				(unsigned long long)s->count);
	return k == -ECONNRESET ? 0 : (int)k;
}

static int session_init(struct session *s, int fd, const struct net_opts *o)
{
	memset(s, 0, sizeof(*s));
	net_conn_init(&s->conn, fd, o);
	s->rx = XXH3_createState();
	s->tx = XXH3_createState();
	if (!s->rx || !s->tx || net_rbuf_init(&s->rd, NET_SERVER_BUF, false) ||
	    net_wbuf_init(&s->wr, NET_SERVER_BUF))
		return net_fail(&s->conn, -ENOMEM, "out of memory");
	XXH3_64bits_reset(s->rx);
	XXH3_64bits_reset(s->tx);
	if (net_sock_accepted(fd, o) ||
	    (o->family == NET_TCP && net_set_nodelay(fd, true)))
		return net_fail(&s->conn, -errno, "setsockopt: %s", strerror(errno));
	return 0;
}

static void session_free(struct session *s)
{
	XXH3_freeState(s->rx);
	XXH3_freeState(s->tx);
	net_rbuf_free(&s->rd);
	net_wbuf_free(&s->wr);
	free(s->pattern);
}

int net_serve(int fd, const struct net_opts *o, struct net_served *sv,
	      char *why, size_t wlen)
{
	struct session s;
	struct rusage r0;
	int ret;

	ret = session_init(&s, fd, o);
	if (!ret)
		ret = handshake(&s);
	getrusage(RUSAGE_THREAD, &r0);
	s.conn.calls = 0;
	if (!ret)
		ret = receive_all(&s);
	if (!ret)
		ret = send_trailer(&s, &r0);
	if (!ret)
		ret = expect_eof(&s);
	sv->kind = s.kind;
	sv->size = s.size;
	sv->msgs = s.msgs;
	if (ret)
		snprintf(why, wlen, "%s", s.conn.why);
	session_free(&s);
	close(fd);
	return ret;
}
