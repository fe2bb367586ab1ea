// SPDX-License-Identifier: MIT
/* io_uring send batching: K sends, linked so they go out in order, handed
 * to the kernel by one io_uring_enter that also waits for them.  A short
 * send breaks the link (the rest complete -ECANCELED): the remainder of the
 * batch is then sent with plain send(), in order, and counted. */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "net.h"
#include "lib/util.h"

struct uring_batch {
	struct io_uring ring;
	uint8_t *frames;  /* K whole frames, back to back */
	size_t flen;      /* bytes per frame */
	int *res;         /* completion result per frame */
};

static void fill_batch(struct net_client *cl, struct uring_batch *u,
		       uint64_t first, unsigned k)
{
	for (unsigned j = 0; j < k; j++) {
		uint8_t *f = u->frames + j * u->flen;
		const uint8_t *m = net_client_msg(cl, first + j);
		struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

		net_put_be32(f, cl->o->size);
		memcpy(f + NET_HDR, m, cl->o->size);
		/* MSG_WAITALL: the kernel retries short sends where it can */
		io_uring_prep_send(sqe, cl->conn.fd, f, u->flen, MSG_WAITALL | MSG_NOSIGNAL);
		io_uring_sqe_set_data64(sqe, j);
		if (j + 1 < k)
			sqe->flags |= IOSQE_IO_LINK;
		u->res[j] = INT32_MIN;
	}
}

/* Collect k completions: one enter submits and waits for them all. */
static int reap(struct net_client *cl, struct uring_batch *u, unsigned k)
{
	struct __kernel_timespec ts = {
		.tv_sec = cl->o->timeout_ms / 1000,
		.tv_nsec = (long long)(cl->o->timeout_ms % 1000) * 1000000,
	};
	struct io_uring_cqe *cqe;
	unsigned got = 0;
	int ret;

	cl->conn.calls++;
	ret = io_uring_submit_and_wait_timeout(&u->ring, &cqe, k, &ts, NULL);
	while (ret >= 0 || ret == -EINTR) {
		unsigned head, seen = 0;

		io_uring_for_each_cqe(&u->ring, head, cqe) {
			u->res[io_uring_cqe_get_data64(cqe)] = cqe->res;
			seen++;
		}
		io_uring_cq_advance(&u->ring, seen);
		got += seen;
		if (got >= k)
			return 0;
		cl->conn.calls++;
		ret = io_uring_wait_cqe_timeout(&u->ring, &cqe, &ts);
	}
	if (ret == -ETIME)
		return net_fail(&cl->conn, -ETIMEDOUT, "io_uring send: peer made no progress for %.1f s (--timeout)",
				cl->o->timeout_ms / 1000.0);
	return net_fail(&cl->conn, ret, "io_uring_enter: %s", strerror(-ret));
}

/* Check the batch; finish a broken link chain with plain sends. */
static int settle(struct net_client *cl, struct uring_batch *u, unsigned k)
{
	for (unsigned j = 0; j < k; j++) {
		int r = u->res[j];
		size_t from;

		if (r == (int)u->flen)
			continue;
		if (r < 0 && r != -ECANCELED) {
			if (r == -EPIPE || r == -ECONNRESET)
				return net_fail(&cl->conn, r, "send: peer closed the connection (%s)",
						strerror(-r));
			return net_fail(&cl->conn, r, "io_uring send: %s", strerror(-r));
		}
		from = r < 0 ? 0 : (size_t)r;
		r = nio_send_all(&cl->conn, u->frames + j * u->flen + from,
				 u->flen - from, 0);
		if (r)
			return r;
	}
	return 0;
}

/* After a failure, nothing may still point into the frames we free. */
static void drain(struct uring_batch *u, int fd)
{
	struct __kernel_timespec ts = { .tv_sec = 1 };
	struct io_uring_cqe *cqe;

	shutdown(fd, SHUT_RDWR);
	io_uring_submit(&u->ring);
	while (io_uring_wait_cqe_timeout(&u->ring, &cqe, &ts) == 0)
		io_uring_cqe_seen(&u->ring, cqe);
}

int net_send_uring(struct net_client *cl)
{
	struct uring_batch u = { .flen = NET_HDR + (size_t)cl->o->size };
	unsigned kmax = cl->o->batch;
	int ret;

	ret = io_uring_queue_init(kmax < 8 ? 8 : kmax, &u.ring, 0);
	if (ret)
		return net_fail(&cl->conn, ret, "io_uring_queue_init: %s%s", strerror(-ret),
				ret == -EPERM ? " (kernel.io_uring_disabled?)" : "");
	u.frames = malloc(kmax * u.flen);
	u.res = calloc(kmax, sizeof(int));
	if (!u.frames || !u.res)
		ret = net_fail(&cl->conn, -ENOMEM, "out of memory");
	for (uint64_t b = 0; !ret && b < cl->o->count; b += kmax) {
		unsigned k = (unsigned)MIN((uint64_t)kmax, cl->o->count - b);

		fill_batch(cl, &u, b, k);
		ret = reap(cl, &u, k);
		if (!ret)
			ret = settle(cl, &u, k);
		if (!ret)
			cl->sent += k;
	}
	if (ret)
		drain(&u, cl->conn.fd);
	io_uring_queue_exit(&u.ring);
	free(u.frames);
	free(u.res);
	return ret;
}
