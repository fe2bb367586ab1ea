// SPDX-License-Identifier: MIT
/* Ping-pong: each request waits for (or, pipelined, overlaps with) a reply
 * of twice its size.  Every reply byte is compared with what the server
 * must have sent, and hashed for the trailer check. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "net.h"
#include "lib/util.h"

/* 1 when a reply completed, 0 to go on, -errno. */
int net_reply_event(struct net_client *cl, enum frame_ev ev,
		    const uint8_t *data, size_t n)
{
	uint32_t want = 2 * cl->o->size;
	const uint8_t *exp;

	switch (ev) {
	case FRAME_HEAD:
		if (cl->fr.len != want)
			return net_fail(&cl->conn, -EPROTO, "reply %llu has %u bytes, expected %u",
					(unsigned long long)cl->done + 1, cl->fr.len, want);
		return 0;
	case FRAME_DATA:
		exp = net_reply(cl->pattern, cl->done) + (cl->fr.got - n);
		if (memcmp(data, exp, n))
			return net_fail(&cl->conn, -EBADMSG, "reply %llu differs from what the server must send",
					(unsigned long long)cl->done + 1);
		XXH3_64bits_update(cl->rx, data, n);
		return 0;
	case FRAME_END:
		cl->done++;
		return 1;
	default:
		return 0;
	}
}

static int eof(struct net_client *cl)
{
	return net_fail(&cl->conn, -ECONNRESET, "peer closed the connection");
}

/* Read until one reply is complete (leftover bytes stay buffered). */
static int read_reply(struct net_client *cl)
{
	for (;;) {
		const uint8_t *d;
		size_t n;
		int ev = net_rbuf_next(&cl->conn, &cl->rd, &cl->fr, NULL, &d, &n);
		int ret;

		if (ev <= 0)
			return ev ? ev : eof(cl);
		ret = net_reply_event(cl, ev, d, n);
		if (ret)
			return ret < 0 ? ret : 0;
	}
}

static double rtt_since(double t0)
{
	return (now_mono() - t0) * 1e6;
}

/* A request sent at t0: counted, its reply read, its round trip timed. */
static int round_trip_end(struct net_client *cl, uint64_t i, double t0)
{
	int ret;

	cl->sent++;
	ret = read_reply(cl);
	if (!ret)
		cl->rtt_us[i] = rtt_since(t0);
	return ret;
}

/* Like an unbuffered stream writing fields: the length, then the payload,
 * two system calls; the reading side (rd.exact) reads field by field. */
int net_pingpong_unbuffered(struct net_client *cl)
{
	uint8_t hdr[NET_HDR];
	uint32_t sz = cl->o->size;
	int ret = 0;

	net_put_be32(hdr, sz);
	for (uint64_t i = 0; i < cl->o->count && !ret; i++) {
		double t0 = now_mono();
		const uint8_t *m = net_client_msg(cl, i);

		ret = nio_send_all(&cl->conn, hdr, NET_HDR, 0);
		if (!ret && sz)
			ret = nio_send_all(&cl->conn, m, sz, 0);
		if (!ret)
			ret = round_trip_end(cl, i, t0);
	}
	return ret;
}

/* The request goes through a buffer flushed once per message. */
int net_pingpong_buffered(struct net_client *cl)
{
	struct net_wbuf w;
	int ret = 0;

	if (net_wbuf_init(&w, cl->o->buffer))
		return net_fail(&cl->conn, -ENOMEM, "out of memory");
	for (uint64_t i = 0; i < cl->o->count && !ret; i++) {
		double t0 = now_mono();
		const uint8_t *m = net_client_msg(cl, i);

		ret = net_wbuf_frame(&cl->conn, &w, m, cl->o->size);
		if (!ret)
			ret = net_wbuf_flush(&cl->conn, &w);
		if (!ret)
			ret = round_trip_end(cl, i, t0);
	}
	net_wbuf_free(&w);
	return ret;
}

/* Pipelined: a non-blocking poll loop, because a client blocked writing K
 * large requests while the server is blocked writing replies would
 * deadlock.  The out queue holds the unsent bytes of in-flight requests. */
struct outq {
	uint8_t *buf;
	size_t cap, off, len;
};

static void queue_request(struct net_client *cl, struct outq *q, uint64_t i)
{
	const uint8_t *m = net_client_msg(cl, i);

	if (q->off) {
		memmove(q->buf, q->buf + q->off, q->len - q->off);
		q->len -= q->off;
		q->off = 0;
	}
	net_put_be32(q->buf + q->len, cl->o->size);
	memcpy(q->buf + q->len + NET_HDR, m, cl->o->size);
	q->len += NET_HDR + cl->o->size;
	cl->t_sent[i % cl->o->batch] = now_mono();
}

static int push(struct net_client *cl, struct outq *q)
{
	ssize_t k;

	if (q->off == q->len)
		return 0;
	k = nio_send(&cl->conn, q->buf + q->off, q->len - q->off, 0);
	if (k == -EAGAIN)
		return 0;
	if (k < 0)
		return (int)k;
	q->off += (size_t)k;
	if (q->off == q->len)
		q->off = q->len = 0;
	return 0;
}

/* Parse what was read, stopping after the last reply: the trailer that
 * may follow stays in the buffer. */
static int take_replies(struct net_client *cl)
{
	while (cl->done < cl->o->count) {
		const uint8_t *d;
		size_t n;
		enum frame_ev ev = net_rbuf_step(&cl->rd, &cl->fr, &d, &n);
		int ret;

		if (ev == FRAME_MORE)
			return 0;
		ret = net_reply_event(cl, ev, d, n);
		if (ret < 0)
			return ret;
		if (ret)
			cl->rtt_us[cl->done - 1] =
				rtt_since(cl->t_sent[(cl->done - 1) % cl->o->batch]);
	}
	return 0;
}

static int pipeline_step(struct net_client *cl, struct outq *q)
{
	short rev = 0;
	ssize_t k;
	int ret = push(cl, q);

	if (!ret)
		ret = nio_poll(&cl->conn, POLLIN | (q->off < q->len ? POLLOUT : 0), &rev);
	if (ret < 0)
		return ret;
	if (!(rev & (POLLIN | POLLERR | POLLHUP)))
		return 0;
	k = net_rbuf_fill(&cl->conn, &cl->rd, &cl->fr);
	if (k == -EAGAIN)
		return 0;
	if (k <= 0)
		return k ? (int)k : eof(cl);
	return take_replies(cl);
}

int net_pingpong_pipelined(struct net_client *cl)
{
	struct outq q = { .cap = (size_t)cl->o->batch * (NET_HDR + cl->o->size) };
	uint64_t next = 0;
	int ret;

	q.buf = malloc(q.cap);
	if (!q.buf)
		return net_fail(&cl->conn, -ENOMEM, "out of memory");
	ret = net_set_nonblock(cl->conn.fd, true);
	cl->conn.nonblock = true;
	while (!ret && cl->done < cl->o->count) {
		while (next < cl->o->count && next - cl->done < cl->o->batch)
			queue_request(cl, &q, next++);
		cl->sent = next - (q.len - q.off) / (NET_HDR + cl->o->size);
		ret = pipeline_step(cl, &q);
	}
	cl->conn.nonblock = false;
	if (!ret)
		ret = net_set_nonblock(cl->conn.fd, false);
	free(q.buf);
	return ret;
}
