// SPDX-License-Identifier: MIT
/* The modes: how the client hands messages to the kernel.  The one-way
 * senders live here; ping-pong in pingpong.c, io_uring in uring.c.  The
 * server is the same for every mode, so only the client's habit differs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "net.h"
#include "lib/util.h"

/* The whole frame in one buffer, so one send() carries one message. */
static uint8_t *frame_buf(const struct net_client *cl)
{
	uint8_t *f = malloc(NET_HDR + (size_t)cl->o->size);

	if (f)
		net_put_be32(f, cl->o->size);
	return f;
}

static void take(struct net_client *cl, uint8_t *dst, uint64_t i)
{
	const uint8_t *m = net_client_msg(cl, i);

	memcpy(dst, m, cl->o->size);
}

/* nodelay, nagle, cork: one send per message; cork sets MSG_MORE on all
 * but every K-th and the last, so the kernel packs segments itself. */
static int send_each(struct net_client *cl, bool cork)
{
	size_t fl = NET_HDR + (size_t)cl->o->size;
	uint8_t *f = frame_buf(cl);
	int ret = 0;

	if (!f)
		return net_fail(&cl->conn, -ENOMEM, "out of memory");
	for (uint64_t i = 0; i < cl->o->count && !ret; i++) {
		bool push = (i + 1) % cl->o->batch == 0 || i + 1 == cl->o->count;

		take(cl, f + NET_HDR, i);
		ret = nio_send_all(&cl->conn, f, fl, cork && !push ? MSG_MORE : 0);
		if (!ret)
			cl->sent++;
	}
	free(f);
	return ret;
}

static int run_single(struct net_client *cl)
{
	return send_each(cl, false);
}

static int run_cork(struct net_client *cl)
{
	return send_each(cl, true);
}

/* A user-space buffer flushed when full and once at the end. */
static int run_buffered(struct net_client *cl)
{
	struct net_wbuf w;
	int ret = 0;

	if (net_wbuf_init(&w, cl->o->buffer))
		return net_fail(&cl->conn, -ENOMEM, "out of memory");
	for (uint64_t i = 0; i < cl->o->count && !ret; i++) {
		const uint8_t *m = net_client_msg(cl, i);

		ret = net_wbuf_frame(&cl->conn, &w, m, cl->o->size);
		if (!ret)
			cl->sent++;
	}
	if (!ret)
		ret = net_wbuf_flush(&cl->conn, &w);
	net_wbuf_free(&w);
	return ret;
}

/* K messages per writev: header and payload are two iovecs each, so the
 * payload is never copied. */
static int run_writev(struct net_client *cl)
{
	struct iovec iov[2 * NET_MAX_BATCH];
	uint8_t hdr[NET_HDR];
	uint64_t n = cl->o->count;
	int ret = 0;

	net_put_be32(hdr, cl->o->size);
	for (uint64_t b = 0; b < n && !ret; b += cl->o->batch) {
		int k = (int)MIN((uint64_t)cl->o->batch, n - b);

		for (int j = 0; j < k; j++) {
			const uint8_t *m = net_client_msg(cl, b + (uint64_t)j);

			iov[2 * j] = (struct iovec){ hdr, NET_HDR };
			iov[2 * j + 1] = (struct iovec){ (void *)m, cl->o->size };
		}
		ret = nio_writev_all(&cl->conn, iov, 2 * k);
		if (!ret)
			cl->sent += (uint64_t)k;
	}
	return ret;
}

static const struct net_mode modes[] = {
	{ "nodelay", NET_ONEWAY, true, false, false,
	  "one send per message, TCP_NODELAY (the unbuffered baseline)", run_single },
	{ "nagle", NET_ONEWAY, false, false, false,
	  "one send per message, Nagle's algorithm on", run_single },
	{ "buffered", NET_ONEWAY, true, true, false,
	  "user-space buffer of --buffer bytes, flushed when full and at the end", run_buffered },
	{ "writev", NET_ONEWAY, true, false, true,
	  "--batch messages per writev (header and payload iovecs, no copy)", run_writev },
	{ "cork", NET_ONEWAY, true, false, true,
	  "one send per message with MSG_MORE, pushed every --batch messages", run_cork },
	{ "uring", NET_ONEWAY, true, false, true,
	  "--batch linked io_uring sends per io_uring_enter", net_send_uring },
	{ "pingpong-unbuffered", NET_PINGPONG, true, false, false,
	  "request as two writes (length, payload); reply read field by field", net_pingpong_unbuffered },
	{ "pingpong-buffered", NET_PINGPONG, true, true, false,
	  "request through a --buffer buffer flushed per message; buffered reads", net_pingpong_buffered },
	{ "pingpong-pipelined", NET_PINGPONG, true, true, true,
	  "--batch requests in flight, buffered both ways (poll loop)", net_pingpong_pipelined },
};

/* The modes' names, in modes[] order: the values of the mode setting
 * (opts.c), whose index is struct net_opts' mode (tests/unit/config_id_net.c
 * holds the two lists together). */
const char *const net_mode_names[] = {
	"nodelay", "nagle", "buffered", "writev", "cork", "uring",
	"pingpong-unbuffered", "pingpong-buffered", "pingpong-pipelined", NULL,
};
_Static_assert(ARRAY_SIZE(net_mode_names) == ARRAY_SIZE(modes) + 1,
	       "a name for every mode");

const struct net_mode *net_mode_at(size_t i)
{
	return i < ARRAY_SIZE(modes) ? &modes[i] : NULL;
}
