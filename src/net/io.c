// SPDX-License-Identifier: MIT
/* Counted socket I/O: every data-path system call goes through here, so
 * "system calls per message" is counted, not estimated.  Timeouts on the
 * blocking paths are SO_SNDTIMEO/SO_RCVTIMEO (set in sock.c), so waiting
 * for a stuck peer costs no extra system call to count. */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "net.h"
#include "lib/util.h"

void net_conn_init(struct net_conn *c, int fd, const struct net_opts *o)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->io_max = o->io_max;
	c->timeout_ms = o->timeout_ms;
}

int net_fail(struct net_conn *c, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	return err;
}

static int io_error(struct net_conn *c, const char *op, int err)
{
	if (err == -EAGAIN && !c->nonblock)
		return net_fail(c, -ETIMEDOUT, "%s: peer made no progress for %.1f s (--timeout)",
				op, c->timeout_ms / 1000.0);
	if (err == -EPIPE || err == -ECONNRESET)
		return net_fail(c, err, "%s: peer closed the connection (%s)", op,
				strerror(-err));
	return net_fail(c, err, "%s: %s", op, strerror(-err));
}

static size_t cap_io(const struct net_conn *c, size_t n)
{
	return c->io_max && n > c->io_max ? c->io_max : n;
}

/* One send (out) or recv, retried when a signal interrupts it; -EAGAIN
 * when a non-blocking socket has no room or no data. */
static ssize_t one_call(struct net_conn *c, bool out, const void *p, size_t n, int flags)
{
	for (;;) {
		ssize_t k;

		c->calls++;
		k = out ? send(c->fd, p, cap_io(c, n), flags | MSG_NOSIGNAL) :
			  recv(c->fd, (void *)p, cap_io(c, n), flags);
		if (k >= 0)
			return k;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN && c->nonblock)
			return -EAGAIN;
		return io_error(c, out ? "send" : "recv", -errno);
	}
}

ssize_t nio_send(struct net_conn *c, const void *p, size_t n, int flags)
{
	return one_call(c, true, p, n, flags);
}

int nio_send_all(struct net_conn *c, const void *p, size_t n, int flags)
{
	const uint8_t *q = p;

	while (n) {
		ssize_t k = nio_send(c, q, n, flags);

		if (k < 0)
			return (int)k;
		q += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Trim iov to at most max bytes (testing --io-max): count of entries. */
static int cap_iov(struct iovec *iov, int cnt, size_t max, size_t *saved)
{
	size_t tot = 0;

	for (int i = 0; i < cnt; i++) {
		if (tot + iov[i].iov_len < max) {
			tot += iov[i].iov_len;
			continue;
		}
		*saved = iov[i].iov_len;
		iov[i].iov_len = max - tot;
		return i + 1;
	}
	return cnt;
}

static ssize_t nio_writev(struct net_conn *c, struct iovec *iov, int cnt)
{
	size_t saved = 0;
	int n = c->io_max ? cap_iov(iov, cnt, c->io_max, &saved) : cnt;
	ssize_t k;

	for (;;) {
		c->calls++;
		k = writev(c->fd, iov, n);
		if (k >= 0 || errno != EINTR)
			break;
	}
	if (saved)
		iov[n - 1].iov_len = saved;
	return k < 0 ? io_error(c, "writev", -errno) : k;
}

int nio_writev_all(struct net_conn *c, struct iovec *iov, int cnt)
{
	while (cnt) {
		ssize_t k = nio_writev(c, iov, cnt);

		if (k < 0)
			return (int)k;
		/* skip what went out; the rest of a partly sent entry stays */
		while (cnt && (size_t)k >= iov->iov_len) {
			k -= (ssize_t)iov->iov_len;
			iov++;
			cnt--;
		}
		if (cnt) {
			iov->iov_base = (uint8_t *)iov->iov_base + k;
			iov->iov_len -= (size_t)k;
		}
	}
	return 0;
}

ssize_t nio_recv(struct net_conn *c, void *p, size_t n)
{
	return one_call(c, false, p, n, 0);
}

int nio_poll(struct net_conn *c, short events, short *revents)
{
	struct pollfd p = { .fd = c->fd, .events = events };

	for (;;) {
		int k;

		c->calls++;
		k = poll(&p, 1, c->timeout_ms);
		if (k > 0) {
			*revents = p.revents;
			return 1;
		}
		if (k == 0)
			return net_fail(c, -ETIMEDOUT, "poll: peer made no progress for %.1f s (--timeout)",
					c->timeout_ms / 1000.0);
		if (errno != EINTR)
			return io_error(c, "poll", -errno);
	}
}

int net_rbuf_init(struct net_rbuf *r, size_t cap, bool exact)
{
	memset(r, 0, sizeof(*r));
	r->buf = malloc(cap);
	r->cap = cap;
	r->exact = exact;
	return r->buf ? 0 : -ENOMEM;
}

void net_rbuf_free(struct net_rbuf *r)
{
	free(r->buf);
	r->buf = NULL;
}

ssize_t net_rbuf_fill(struct net_conn *c, struct net_rbuf *r,
		      const struct frame_rx *f)
{
	size_t want = r->cap;
	ssize_t k;

	r->off = r->end = 0;
	if (r->exact && frame_need(f) < want)
		want = frame_need(f);
	k = nio_recv(c, r->buf, want);
	if (k > 0)
		r->end = (size_t)k;
	return k;
}

enum frame_ev net_rbuf_step(struct net_rbuf *r, struct frame_rx *f,
			    const uint8_t **data, size_t *n)
{
	enum frame_ev ev;

	*data = r->buf + r->off;
	ev = frame_step(f, *data, r->end - r->off, n);
	r->off += *n;
	return ev;
}

int net_rbuf_next(struct net_conn *c, struct net_rbuf *r, struct frame_rx *f,
		  struct net_wbuf *w, const uint8_t **data, size_t *n)
{
	for (;;) {
		enum frame_ev ev = net_rbuf_step(r, f, data, n);
		ssize_t k;
		int ret;

		if (ev != FRAME_MORE)
			return (int)ev;
		ret = w ? net_wbuf_flush(c, w) : 0;
		if (ret)
			return ret;
		k = net_rbuf_fill(c, r, f);
		if (k <= 0)
			return (int)k;
	}
}

int net_read_frame(struct net_conn *c, struct net_rbuf *r, uint8_t *out,
		   size_t cap, size_t *len, const char *what)
{
	struct frame_rx f;

	frame_reset(&f);
	*len = 0;
	for (;;) {
		const uint8_t *d;
		size_t n;
		int ev = net_rbuf_next(c, r, &f, NULL, &d, &n);

		if (ev == 0)
			return net_fail(c, -ECONNRESET, "peer closed the connection before the %s",
					what);
		if (ev < 0 || ev == FRAME_END)
			return ev < 0 ? ev : 0;
		if (ev == FRAME_HEAD && f.len > cap)
			return net_fail(c, -EPROTO, "%s: frame of %u bytes, expected at most %zu",
					what, f.len, cap);
		if (ev == FRAME_DATA) {
			memcpy(out + *len, d, n);
			*len += n;
		}
	}
}

int net_wbuf_init(struct net_wbuf *w, size_t cap)
{
	w->buf = malloc(cap);
	w->cap = cap;
	w->len = 0;
	return w->buf ? 0 : -ENOMEM;
}

void net_wbuf_free(struct net_wbuf *w)
{
	free(w->buf);
	w->buf = NULL;
}

int net_wbuf_flush(struct net_conn *c, struct net_wbuf *w)
{
	int ret;

	if (!w->len)
		return 0;
	ret = nio_send_all(c, w->buf, w->len, 0);
	w->len = 0;
	return ret;
}

int net_wbuf_put(struct net_conn *c, struct net_wbuf *w, const void *p, size_t n)
{
	const uint8_t *q = p;

	while (n) {
		size_t k;
		int ret;

		if (!w->len && n >= w->cap)
			return nio_send_all(c, q, n, 0);
		k = MIN(w->cap - w->len, n);
		memcpy(w->buf + w->len, q, k);
		w->len += k;
		q += k;
		n -= k;
		if (w->len == w->cap && (ret = net_wbuf_flush(c, w)))
			return ret;
	}
	return 0;
}

int net_wbuf_frame(struct net_conn *c, struct net_wbuf *w, const void *p,
		   uint32_t n)
{
	uint8_t hdr[NET_HDR];
	int ret;

	net_put_be32(hdr, n);
	ret = net_wbuf_put(c, w, hdr, sizeof(hdr));
	return ret ? ret : net_wbuf_put(c, w, p, n);
}
