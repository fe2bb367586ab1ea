// SPDX-License-Identifier: MIT
/* Unix stream sockets: the socket file's life (made fresh, removed after
 * and on the stop signals), listen and connect.  Like sock.c, setup only:
 * nothing here is counted. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "harness/stop.h"
#include "net.h"

/* The path the signal hook removes: set before bind, cleared after. */
static char guarded[NET_UNIX_PATH_MAX];
static volatile sig_atomic_t guard_on;

int net_unix_addr(const char *spec, char *path, size_t plen)
{
	if (strncmp(spec, "unix:", 5))
		return 0;
	if (!spec[5])
		return -EINVAL;
	if (strlen(spec + 5) >= plen || strlen(spec + 5) >= NET_UNIX_PATH_MAX)
		return -ENAMETOOLONG;
	snprintf(path, plen, "%s", spec + 5);
	return 1;
}

static int sun_of(const char *path, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	memcpy(sa->sun_path, path, strlen(path));
	return 0;
}

/* 1 when a server accepts connections at path, 0 when nobody does. */
static int answers(const char *path)
{
	struct sockaddr_un sa;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), ret;

	if (fd < 0)
		return -errno;
	sun_of(path, &sa);
	ret = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 ? 1 : -errno;
	close(fd);
	return ret == -ECONNREFUSED || ret == -ENOENT ? 0 : ret;
}

/* A socket at path: refused while a server answers on it, else (stale)
 * removed unless dry. */
static int existing_socket(const char *path, bool dry, char *why, size_t wlen)
{
	int ret = answers(path);

	if (ret) {
		snprintf(why, wlen, "%s: %s", path, ret > 0 ?
			 "a server is listening on this socket (Address already in use)" : strerror(-ret));
		return ret > 0 ? -EADDRINUSE : ret;
	}
	if (!dry && unlink(path) < 0 && errno != ENOENT) {
		ret = -errno;
		snprintf(why, wlen, "%s: removing a stale socket: %s", path, strerror(-ret));
		return ret;
	}
	return 0;
}

int net_unix_check_path(const char *path, bool dry, char *why, size_t wlen)
{
	struct stat st;
	int err;

	if (strlen(path) >= NET_UNIX_PATH_MAX) {
		snprintf(why, wlen, "%s: longer than the %d bytes a Unix socket address holds",
			 path, NET_UNIX_PATH_MAX - 1);
		return -ENAMETOOLONG;
	}
	if (lstat(path, &st) < 0) {
		err = -errno;
		if (err != -ENOENT)
			snprintf(why, wlen, "%s: %s", path, strerror(-err));
		return err == -ENOENT ? 0 : err;
	}
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(why, wlen, "%s: exists and is not a socket (refusing to replace it)", path);
		return -EEXIST;
	}
	return existing_socket(path, dry, why, wlen);
}

static int fail(char *why, size_t wlen, int err, const char *path, const char *what)
{
	snprintf(why, wlen, "unix:%s: %s: %s", path, what, strerror(-err));
	return err;
}

int net_unix_listen(const struct net_opts *o, char *why, size_t wlen)
{
	struct sockaddr_un sa;
	int fd, ret = net_unix_check_path(o->path, false, why, wlen);

	if (ret)
		return ret;
	sun_of(o->path, &sa);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail(why, wlen, -errno, o->path, "socket");
	ret = net_sock_options(fd, o);
	if (ret)
		ret = fail(why, wlen, ret, o->path, "setsockopt");
	else if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		ret = fail(why, wlen, -errno, o->path, "bind");
	else if (listen(fd, 16) < 0)
		ret = fail(why, wlen, -errno, o->path, "listen");
	if (ret && ret != -EADDRINUSE)
		net_unix_remove(o->path);
	if (ret)
		close(fd);
	return ret ? ret : fd;
}

/* SO_SNDTIMEO bounds a blocking connect on a Unix socket (full backlog). */
int net_unix_connect(const struct net_opts *o, char *why, size_t wlen)
{
	struct sockaddr_un sa;
	int fd, ret;

	if (sun_of(o->path, &sa))
		return fail(why, wlen, -ENAMETOOLONG, o->path, "connect");
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail(why, wlen, -errno, o->path, "socket");
	ret = net_sock_options(fd, o);
	while (!ret && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 &&
	       (ret = -errno) == -EINTR)
		ret = 0;
	if (!ret)
		return fd;
	close(fd);
	if (ret == -EAGAIN)
		snprintf(why, wlen, "unix:%s: connect: no answer within %.1f s (--timeout)",
			 o->path, o->timeout_ms / 1000.0);
	else
		fail(why, wlen, ret, o->path, "connect");
	return ret;
}

/* Only a socket: a file someone put there after ours went stays. */
void net_unix_remove(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
		unlink(path);
}

static bool remove_on_signal(int sig, unsigned count)
{
	(void)sig;
	(void)count;
	if (guard_on)
		unlink(guarded); /* async-signal-safe */
	return false;
}

void net_unix_guard(const char *path)
{
	snprintf(guarded, sizeof(guarded), "%s", path);
	guard_on = 1;
	stop_catch(STOP_SECOND_ENDS, remove_on_signal, true);
}

void net_unix_unguard(void)
{
	guard_on = 0;
	stop_release();
}
