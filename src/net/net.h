/* SPDX-License-Identifier: MIT */
/* `iostrat net`: buffered network streams, its wire format, modes, options and rows. */
#ifndef IOSTRAT_NET_H
#define IOSTRAT_NET_H

/*
 * iostrat net: buffered network streams over TCP or Unix stream sockets
 * (docs/design.md, question 5).
 *
 * Wire format (framing.c): every message is a frame, a 4-byte big-endian
 * payload length followed by that many payload bytes.  A session is
 *   client -> server  HELLO frame (24 bytes: "IOSN", version, kind, size, count)
 *   server -> client  ACK frame ("OK", or "ERR <reason>")
 *   client -> server  `count` messages of `size` bytes
 *   server -> client  (ping-pong) one reply of 2*size bytes per message
 *   server -> client  TRAILER frame (60 bytes: "IOSE", what the server saw)
 *   client closes; the server expects EOF and nothing more.
 * Both sides keep running xxh3 digests of the payload bytes they sent and
 * received; the trailer carries the server's, so every byte is checked.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/time.h>
#include <sys/uio.h>

#include <jansson.h>
#include <xxhash.h>

#include "lib/column.h"
#include "lib/settings.h"

#define NET_HDR 4
#define NET_VERSION 1
#define NET_MAX_SIZE (16u << 20)       /* largest --size */
#define NET_MAX_COUNT 1000000000ull     /* largest --count */
#define NET_MAX_BATCH 512               /* writev: 2 iovecs a message <= IOV_MAX */
#define NET_HELLO_LEN 24
#define NET_TRAILER_LEN 60
#define NET_PATTERN_SLACK 251           /* message i starts at pattern + i % 251 */
#define NET_SERVER_BUF (256u << 10)     /* the server's read and reply buffers */

enum net_kind { NET_ONEWAY = 1, NET_PINGPONG = 2 };
/* The socket family: TCP (the default) or AF_UNIX SOCK_STREAM at a path. */
enum net_family { NET_TCP = 0, NET_UNIX = 1 };
#define NET_UNIX_PATH_MAX 108           /* sizeof(sun_path), with the NUL */

/* What one run does: one configuration, set through net_settings (opts.c)
 * from the command line or a profile section. */
struct net_opts {
	int mode;         /* index of net_mode_names[] (modes.c) */
	uint64_t size;    /* payload bytes per message */
	uint64_t count;   /* messages */
	uint64_t buffer;  /* user-space buffer of the buffered modes */
	unsigned batch;   /* K: writev, cork, uring, pipelined */
	double timeout_s; /* no progress for this long = stuck peer */
	int timeout_ms;   /* timeout_s rounded up (net_opts_check) */
	uint64_t sndbuf;  /* SO_SNDBUF, 0 = kernel default */
	uint64_t rcvbuf;  /* SO_RCVBUF, 0 = kernel default */
	unsigned io_max;  /* testing: cap every read and write at this many bytes */
	bool nagle;       /* leave Nagle on in every mode */
	const char *unix_at; /* --unix / unix= PATH as given (net_opts_check) */
	enum net_family family;
	char path[NET_UNIX_PATH_MAX]; /* the socket file (NET_UNIX) */
};

/* One connected socket whose data-path system calls are counted. */
struct net_conn {
	int fd;
	bool nonblock;     /* EAGAIN means "would block", not "timed out" */
	unsigned io_max;
	int timeout_ms;
	uint64_t calls;    /* send/recv/writev/poll/io_uring_enter made */
	char why[256];     /* what failed, for the one error line */
};

/* A frame parser that accepts its input in pieces of any size. */
struct frame_rx {
	uint8_t hdr[NET_HDR];
	unsigned hdr_got;
	bool in_payload;
	uint32_t len, got;
};

enum frame_ev {
	FRAME_MORE, /* all input used, need more bytes */
	FRAME_HEAD, /* a header is complete: f->len */
	FRAME_DATA, /* payload bytes: the `used` bytes at the input */
	FRAME_END,  /* the frame is complete (consumes nothing) */
};

/* A read buffer: buffered (read as much as fits) or exact (read only the
 * rest of the current header or payload, like an unbuffered stream). */
struct net_rbuf {
	uint8_t *buf;
	size_t cap, off, end;
	bool exact;
};

/* A write buffer, flushed when full (stdio-like: a put larger than the
 * buffer goes straight to the socket). */
struct net_wbuf {
	uint8_t *buf;
	size_t cap, len;
};

struct net_trailer {
	uint64_t msgs, bytes, rx_hash, tx_hash, calls, user_us, sys_us;
};

/* framing.c */
void net_put_be32(uint8_t *p, uint32_t v);
uint32_t net_get_be32(const uint8_t *p);
void frame_reset(struct frame_rx *f);
size_t frame_need(const struct frame_rx *f);
enum frame_ev frame_step(struct frame_rx *f, const uint8_t *p, size_t n,
			 size_t *used);
void net_hello_encode(uint8_t out[NET_HELLO_LEN], enum net_kind kind,
		      uint32_t size, uint64_t count);
int net_hello_decode(const uint8_t *p, size_t n, enum net_kind *kind,
		     uint32_t *size, uint64_t *count, char *why, size_t wlen);
void net_trailer_encode(uint8_t out[NET_TRAILER_LEN], const struct net_trailer *t);
int net_trailer_decode(const uint8_t *p, size_t n, struct net_trailer *t);
/* The payload bytes: message i is pattern + i % SLACK (size bytes), its
 * reply pattern + (7i + 3) % SLACK (2*size bytes). */
uint8_t *net_pattern(uint32_t size);
const uint8_t *net_msg(const uint8_t *pattern, uint64_t i);
const uint8_t *net_reply(const uint8_t *pattern, uint64_t i);

/* io.c: counted I/O.  All return -errno and fill c->why on failure;
 * -ETIMEDOUT when the peer made no progress for timeout_ms. */
void net_conn_init(struct net_conn *c, int fd, const struct net_opts *o);
int net_fail(struct net_conn *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
ssize_t nio_send(struct net_conn *c, const void *p, size_t n, int flags);
int nio_send_all(struct net_conn *c, const void *p, size_t n, int flags);
int nio_writev_all(struct net_conn *c, struct iovec *iov, int cnt);
/* bytes read, 0 at EOF, or -errno */
ssize_t nio_recv(struct net_conn *c, void *p, size_t n);
/* 1 ready, -ETIMEDOUT, or -errno */
int nio_poll(struct net_conn *c, short events, short *revents);
int net_rbuf_init(struct net_rbuf *r, size_t cap, bool exact);
void net_rbuf_free(struct net_rbuf *r);
/* Read more (the buffer must be used up): bytes read, 0 at EOF, -errno. */
ssize_t net_rbuf_fill(struct net_conn *c, struct net_rbuf *r,
		      const struct frame_rx *f);
/* Next parser event over the buffered bytes (FRAME_MORE when used up). */
enum frame_ev net_rbuf_step(struct net_rbuf *r, struct frame_rx *f,
			    const uint8_t **data, size_t *n);
/* The next parser event (never FRAME_MORE) of r, reading from c when the
 * buffered bytes are used up (after flushing w, if not NULL: the peer has
 * every reply before this side waits): the event, 0 at EOF, or -errno. */
int net_rbuf_next(struct net_conn *c, struct net_rbuf *r, struct frame_rx *f,
		  struct net_wbuf *w, const uint8_t **data, size_t *n);
/* Read one whole control frame of at most cap bytes into out. */
int net_read_frame(struct net_conn *c, struct net_rbuf *r, uint8_t *out,
		   size_t cap, size_t *len, const char *what);
int net_wbuf_init(struct net_wbuf *w, size_t cap);
void net_wbuf_free(struct net_wbuf *w);
int net_wbuf_put(struct net_conn *c, struct net_wbuf *w, const void *p, size_t n);
int net_wbuf_flush(struct net_conn *c, struct net_wbuf *w);
/* A header and payload as one frame through w. */
int net_wbuf_frame(struct net_conn *c, struct net_wbuf *w, const void *p,
		   uint32_t n);

/* sock.c: setup (not counted). */
/* [HOST:]PORT into host and port: -EINVAL when malformed, -ERANGE when
 * PORT is outside min_port..65535 (0 lets a server take any free port). */
int net_parse_addr(const char *spec, const char *dflt_host, int min_port,
		   char *host, size_t hlen, char *port, size_t plen);
/* A listening socket; *port_out gets the port the kernel chose.  -errno,
 * why filled. */
int net_listen(const char *host, const char *port, const struct net_opts *o,
	       int *port_out, char *why, size_t wlen);
/* Accept one connection within timeout_ms (< 0: wait forever); -EINTR
 * when a stop signal (stop.h) came while waiting. */
int net_accept(int lfd, int timeout_ms, char *peer, size_t plen, char *why,
	       size_t wlen);
int net_connect(const char *host, const char *port, const struct net_opts *o,
		char *why, size_t wlen);
/* Options of an accepted socket (buffers, timeouts). */
int net_sock_accepted(int fd, const struct net_opts *o);
/* The options every socket gets before listen or connect. */
int net_sock_options(int fd, const struct net_opts *o);

/* unix.c: the Unix-socket side of setup.  The socket file is always made
 * fresh: a path that is not a socket, or a socket a server still answers
 * on, is refused; a stale socket (nobody listening) is removed.  -errno
 * with why filled ("PATH: exists and is not a socket").  dry: check only,
 * leave a stale socket (for checks made before any work). */
int net_unix_check_path(const char *path, bool dry, char *why, size_t wlen);
/* Listen at o->path (made fresh, as above). */
int net_unix_listen(const struct net_opts *o, char *why, size_t wlen);
int net_unix_connect(const struct net_opts *o, char *why, size_t wlen);
/* Remove the socket file (only if path is still a socket). */
void net_unix_remove(const char *path);
/* Catch SIGINT/SIGTERM/SIGHUP (stop.h) while a socket file exists: the
 * hook removes it at once, so not even a second signal leaves it behind.
 * Nested inside other catches, whose hooks still run. */
void net_unix_guard(const char *path);
void net_unix_unguard(void);
/* "unix:PATH" -> PATH: 1 when spec is in that form, 0 when not, -EINVAL
 * when PATH is empty, -ENAMETOOLONG when it does not fit in sun_path. */
int net_unix_addr(const char *spec, char *path, size_t plen);
int net_set_nodelay(int fd, bool on);
int net_set_nonblock(int fd, bool on);

/* modes.c */
struct net_client;
struct net_mode {
	const char *name;
	enum net_kind kind;
	bool nodelay;     /* TCP_NODELAY on (unless --nagle) */
	bool uses_buffer; /* --buffer matters */
	bool uses_batch;  /* --batch matters */
	const char *summary;
	int (*run)(struct net_client *cl);
};
/* The modes' names, NULL-terminated; net_mode_at(i) is net_mode_names[i]. */
extern const char *const net_mode_names[];
const struct net_mode *net_mode_at(size_t i);

/* client.c: one session from the client's side. */
struct net_client {
	struct net_conn conn;
	const struct net_mode *mode;
	const struct net_opts *o;
	const uint8_t *pattern;
	XXH3_state_t *tx, *rx;  /* payload sent / received */
	uint64_t sent;          /* messages handed to the kernel */
	uint64_t done;          /* replies complete (ping-pong) */
	struct net_rbuf rd;     /* replies and the trailer */
	struct frame_rx fr;
	double *rtt_us;         /* per message (ping-pong) */
	double *t_sent;         /* send time per in-flight slot (pipelined) */
};

struct net_result {
	double elapsed_s, user_s, sys_s, srv_user_s, srv_sys_s;
	long nvcsw, nivcsw;
	uint64_t msgs, bytes_out, bytes_in, calls, srv_calls;
	long long segs;
	double rtt_p50, rtt_p99, rtt_p999; /* us; < 0 when not ping-pong */
	uint64_t tx_hash;
	bool verified;
};

/* Connect to host:port (a Unix socket: o->path) and run one session;
 * fills r.  -errno with why. */
/* Message i of the session, counted into the digest of what was sent:
 * take messages in order. */
const uint8_t *net_client_msg(struct net_client *cl, uint64_t i);
int net_client_run(const char *host, const char *port,
		   const struct net_mode *m, const struct net_opts *o,
		   struct net_result *r, char *why, size_t wlen);
/* Ping-pong helpers shared by the modes (pingpong.c). */
int net_reply_event(struct net_client *cl, enum frame_ev ev,
		    const uint8_t *data, size_t n);
int net_pingpong_unbuffered(struct net_client *cl);
int net_pingpong_buffered(struct net_client *cl);
int net_pingpong_pipelined(struct net_client *cl);
int net_send_uring(struct net_client *cl);

/* server.c: serve one session on a connected socket. */
struct net_served {
	enum net_kind kind;
	uint32_t size;
	uint64_t msgs;
};
int net_serve(int fd, const struct net_opts *o, struct net_served *s,
	      char *why, size_t wlen);

/* cmd/net.c: what the command line sets, modes x sizes, each a
 * configuration of the net kind (src/engine/kind_net.c) that the
 * bench engine runs reps times. */
#define NET_MAX_MODES 16
#define NET_MAX_SIZES 32
struct net_plan {
	const struct net_mode *modes[NET_MAX_MODES];
	size_t nmodes;
	bool modes_all;        /* the modes are "all" (the default) */
	uint64_t sizes[NET_MAX_SIZES];
	size_t nsizes;
	struct net_opts o;     /* o.mode and o.size are set per run */
	unsigned reps;
};
/* run.c: one session of the mode o->mode (host NULL: against a server
 * thread on a fresh 127.0.0.1 listener, or at the Unix socket o->path);
 * *row is its result row, with "error" when it failed. */
int net_run_once(const char *host, const char *port, const struct net_opts *o,
		 const char *bench, unsigned rep, json_t **row, char *why,
		 size_t wlen);

/* opts.c: the net settings, one table (settings.h) over struct net_opts:
 * the options of `iostrat net`, the keys of a [net] profile section, the
 * help lines, the row columns and the parts of config_id.  mode and size
 * are profile keys only: on the command line they are lists, collected by
 * cmd/net.c through the same entries. */
extern const struct setting net_settings[];
/* The columns a net row adds beyond its settings' (stats.c). */
extern const struct column net_columns[];
#define NET_MAX_SETTINGS 16 /* entries of net_settings, at most */
/* o at the defaults of net_settings. */
void net_opts_defaults(struct net_opts *o);
/* The profile key called key, or NULL. */
const struct setting *net_profile_key(const char *key);
/* What the settings leave to check once all are in: the timeout, --unix
 * PATH (into o->path and o->family), and on a Unix socket --nagle,
 * --rcvbuf and mode nagle (o->mode: a configuration's) refused.  prefix
 * starts each error line's name ("--", "p.ini:3: [net]: ").  0 or -EINVAL. */
int net_opts_check(struct net_opts *o, const char *prefix);
/* net_opts_check, and mode nagle in the plan's list refused on a Unix
 * socket, or left out with a note when it came with "all". */
int net_plan_check(struct net_plan *p, const char *prefix);
/* What the errors call the server: "unix:PATH" or "HOST:PORT". */
void net_where(const struct net_opts *o, const char *host, const char *port,
	       char *out, size_t len);
/* config_id of o's configuration (config_id_make): net/MODE/sSIZE/nCOUNT
 * [/bBUFFER][/kBATCH][/sndbuf=..][/rcvbuf=..][/nagle][/io_max=..][/unix];
 * TCP's ids have no family part, as before Unix sockets came. */
void net_config_id(const struct net_opts *o, char *id, size_t len);
/* The settings' columns of o's configuration into row (those the mode
 * does not use left as they are). */
void net_settings_row(const struct net_opts *o, json_t *row);

/* stats.c */
void net_rtt_percentiles(double *rtt_us, size_t n, struct net_result *r);
double net_tv_s(const struct timeval *tv);
/* TCP segments with data sent on fd so far (tcpi_data_segs_out), or -1. */
long long net_segs_out(int fd);
/* One result row (docs/results.md); r NULL for a failed run. */
json_t *net_row(const char *bench, const struct net_opts *o, unsigned rep,
		const struct net_result *r, const char *error);
/* The side-by-side table of the rows' medians, with the ratio of each
 * mode's messages/s to nodelay at the same size. */
void net_print_table(FILE *f, json_t *rows);

#endif
