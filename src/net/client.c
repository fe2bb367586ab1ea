// SPDX-License-Identifier: MIT
/* The client side of one session: connect, hello, the mode's exchange
 * (measured), the server's trailer, and the byte-for-byte verdict. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "net.h"
#include "lib/util.h"

const uint8_t *net_client_msg(struct net_client *cl, uint64_t i)
{
	const uint8_t *m = net_msg(cl->pattern, i);

	XXH3_64bits_update(cl->tx, m, cl->o->size);
	return m;
}

static int client_init(struct net_client *cl, int fd, const struct net_mode *m,
		       const struct net_opts *o)
{
	bool pp = m->kind == NET_PINGPONG;
	/* the unbuffered modes read exactly the field they need */
	bool exact = !m->uses_buffer;

	memset(cl, 0, sizeof(*cl));
	net_conn_init(&cl->conn, fd, o);
	cl->mode = m;
	cl->o = o;
	cl->pattern = net_pattern(o->size);
	cl->tx = XXH3_createState();
	cl->rx = XXH3_createState();
	if (pp) {
		cl->rtt_us = calloc(o->count, sizeof(double));
		cl->t_sent = calloc(o->batch, sizeof(double));
	}
	if (!cl->pattern || !cl->tx || !cl->rx || (pp && (!cl->rtt_us || !cl->t_sent)) ||
	    net_rbuf_init(&cl->rd, exact ? MAX(2 * (size_t)o->size, 512) : o->buffer, exact))
		return net_fail(&cl->conn, -ENOMEM, "out of memory");
	XXH3_64bits_reset(cl->tx);
	XXH3_64bits_reset(cl->rx);
	frame_reset(&cl->fr);
	/* a Unix socket has no Nagle's algorithm to switch */
	if (o->family == NET_TCP && net_set_nodelay(fd, m->nodelay && !o->nagle))
		return net_fail(&cl->conn, -errno, "setsockopt TCP_NODELAY: %s", strerror(errno));
	return 0;
}

static void client_free(struct net_client *cl)
{
	free((void *)cl->pattern);
	XXH3_freeState(cl->tx);
	XXH3_freeState(cl->rx);
	free(cl->rtt_us);
	free(cl->t_sent);
	net_rbuf_free(&cl->rd);
}

static int handshake(struct net_client *cl)
{
	uint8_t hello[NET_HDR + NET_HELLO_LEN], ack[300];
	size_t len;
	int ret;

	net_put_be32(hello, NET_HELLO_LEN);
	net_hello_encode(hello + NET_HDR, cl->mode->kind, cl->o->size, cl->o->count);
	ret = nio_send_all(&cl->conn, hello, sizeof(hello), 0);
	if (!ret)
		ret = net_read_frame(&cl->conn, &cl->rd, ack, sizeof(ack) - 1, &len,
				     "server's answer to the hello");
	if (ret)
		return ret;
	ack[len] = 0;
	if (len == 2 && !memcmp(ack, "OK", 2))
		return 0;
	return net_fail(&cl->conn, -EPROTO, "server refused: %s",
			len > 4 && !memcmp(ack, "ERR ", 4) ? (char *)ack + 4 : "not an iostrat net server");
}

static int check(struct net_client *cl, const struct net_trailer *t,
		 struct net_result *r)
{
	const struct net_opts *o = cl->o;
	uint64_t tx = XXH3_64bits_digest(cl->tx), rx = XXH3_64bits_digest(cl->rx);

	r->tx_hash = tx;
	r->verified = t->msgs == o->count && t->bytes == o->count * o->size &&
		      t->rx_hash == tx && t->tx_hash == rx;
	if (r->verified)
		return 0;
	if (t->msgs != o->count || t->bytes != o->count * o->size)
		return net_fail(&cl->conn, -EBADMSG, "server received %llu messages / %llu bytes, sent %llu / %llu",
				(unsigned long long)t->msgs, (unsigned long long)t->bytes,
				(unsigned long long)o->count,
				(unsigned long long)(o->count * o->size));
	if (t->rx_hash != tx)
		return net_fail(&cl->conn, -EBADMSG, "checksums differ: sent xxh3 %016llx, server received %016llx",
				(unsigned long long)tx, (unsigned long long)t->rx_hash);
	return net_fail(&cl->conn, -EBADMSG, "checksums differ: server sent xxh3 %016llx, received %016llx",
			(unsigned long long)t->tx_hash, (unsigned long long)rx);
}

static int read_trailer(struct net_client *cl, struct net_trailer *t)
{
	uint8_t buf[NET_TRAILER_LEN];
	size_t len;
	int ret;

	ret = net_read_frame(&cl->conn, &cl->rd, buf, sizeof(buf), &len,
			     "server's trailer");
	if (!ret && net_trailer_decode(buf, len, t))
		ret = net_fail(&cl->conn, -EPROTO, "bad trailer from the server");
	return ret;
}

/* The measured part: the mode's exchange and the trailer, which arrives
 * only once the server has every message (so one-way means delivered). */
static int measure(struct net_client *cl, struct net_result *r)
{
	struct rusage u0, u1;
	struct net_trailer t;
	long long s0, s1;
	double t0;
	int ret;

	cl->conn.calls = 0;
	s0 = net_segs_out(cl->conn.fd);
	getrusage(RUSAGE_THREAD, &u0);
	t0 = now_mono();
	ret = cl->mode->run(cl);
	if (!ret)
		ret = read_trailer(cl, &t);
	r->elapsed_s = now_mono() - t0;
	getrusage(RUSAGE_THREAD, &u1);
	s1 = net_segs_out(cl->conn.fd);
	if (ret)
		return ret;
	r->user_s = net_tv_s(&u1.ru_utime) - net_tv_s(&u0.ru_utime);
	r->sys_s = net_tv_s(&u1.ru_stime) - net_tv_s(&u0.ru_stime);
	r->nvcsw = u1.ru_nvcsw - u0.ru_nvcsw;
	r->nivcsw = u1.ru_nivcsw - u0.ru_nivcsw;
	r->calls = cl->conn.calls;
	r->segs = s0 >= 0 && s1 >= 0 ? s1 - s0 : -1;
	r->srv_calls = t.calls;
	r->srv_user_s = (double)t.user_us / 1e6;
	r->srv_sys_s = (double)t.sys_us / 1e6;
	r->msgs = cl->o->count;
	r->bytes_out = cl->o->count * cl->o->size;
	r->bytes_in = cl->mode->kind == NET_PINGPONG ? 2 * r->bytes_out : 0;
	r->rtt_p50 = r->rtt_p99 = r->rtt_p999 = -1;
	if (cl->rtt_us)
		net_rtt_percentiles(cl->rtt_us, cl->o->count, r);
	return check(cl, &t, r);
}

/* "peer closed" is more useful with how far we got. */
static void explain(const struct net_client *cl, int ret, const char *host,
		    const char *port, char *why, size_t wlen)
{
	uint64_t n = cl->mode->kind == NET_PINGPONG ? cl->done : cl->sent;
	char where[NET_UNIX_PATH_MAX + 300];

	net_where(cl->o, host, port, where, sizeof(where));
	if (ret == -EPIPE || ret == -ECONNRESET)
		snprintf(why, wlen, "%s: %s: %s after %llu of %llu messages",
			 where, cl->mode->name, cl->conn.why,
			 (unsigned long long)n, (unsigned long long)cl->o->count);
	else
		snprintf(why, wlen, "%s: %s: %s", where, cl->mode->name,
			 cl->conn.why);
}

int net_client_run(const char *host, const char *port,
		   const struct net_mode *m, const struct net_opts *o,
		   struct net_result *r, char *why, size_t wlen)
{
	struct net_client cl;
	int fd, ret;

	memset(r, 0, sizeof(*r));
	fd = o->family == NET_UNIX ? net_unix_connect(o, why, wlen) :
				     net_connect(host, port, o, why, wlen);
	if (fd < 0)
		return fd;
	ret = client_init(&cl, fd, m, o);
	if (!ret)
		ret = handshake(&cl);
	if (!ret)
		ret = measure(&cl, r);
	if (ret)
		explain(&cl, ret, host, port, why, wlen);
	client_free(&cl);
	close(fd);
	return ret;
}
