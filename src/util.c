// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

const char *progname = "iostrat";

static void vmsg(const char *tag, const char *fmt, va_list ap)
{
	char buf[2048];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fprintf(stderr, "%s: %s%s\n", progname, tag, buf);
}

void errorf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void warnf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

int error_errno(int err, const char *path, const char *what)
{
	errorf("%s: %s: %s", path, what, strerror(-err));
	return err;
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_uint(const char *s, unsigned min, unsigned max, unsigned *out)
{
	uint64_t v;
	int ret = parse_u64(s, &v);

	if (ret)
		return ret;
	if (v < min || v > max)
		return -ERANGE;
	*out = (unsigned)v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	static const struct { const char *sfx; unsigned shift; } units[] = {
		{ "", 0 }, { "b", 0 }, { "B", 0 },
		{ "k", 10 }, { "K", 10 }, { "KiB", 10 }, { "kiB", 10 }, { "KB", 10 }, { "kb", 10 },
		{ "m", 20 }, { "M", 20 }, { "MiB", 20 }, { "MB", 20 }, { "mb", 20 },
		{ "g", 30 }, { "G", 30 }, { "GiB", 30 }, { "GB", 30 }, { "gb", 30 },
	};
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s)
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].sfx))
			continue;
		if (units[i].shift && v > (UINT64_MAX >> units[i].shift))
			return -ERANGE;
		*out = (uint64_t)v << units[i].shift;
		return 0;
	}
	return -EINVAL;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end || end == s || v != v)
		return -EINVAL;
	*out = v;
	return 0;
}

int opt_uint(const char *opt, const char *s, unsigned min, unsigned max,
	     unsigned *out)
{
	int ret = parse_uint(s, min, max, out);

	if (ret == -ERANGE)
		errorf("%s: bad value '%s' (must be %u..%u)", opt, s, min, max);
	else if (ret)
		errorf("%s: bad value '%s' (not a whole number)", opt, s ? s : "");
	return ret;
}

/* A size-like number in min..max; unit after the range ("" or " bytes"),
 * like: what a malformed value should have looked like. */
static int opt_scaled(const char *opt, const char *s, uint64_t min, uint64_t max,
		      uint64_t *out, const char *unit, const char *like)
{
	int ret = parse_size(s, out);

	if (!ret && (*out < min || *out > max))
		ret = -ERANGE;
	if (ret == -ERANGE)
		errorf("%s: bad value '%s' (must be %llu..%llu%s)", opt, s,
		       (unsigned long long)min, (unsigned long long)max, unit);
	else if (ret)
		errorf("%s: bad value '%s' (%s)", opt, s ? s : "", like);
	return ret;
}

int opt_count(const char *opt, const char *s, uint64_t min, uint64_t max,
	      uint64_t *out)
{
	return opt_scaled(opt, s, min, max, out, "", "a whole number like 1000 or 10k");
}

int opt_size(const char *opt, const char *s, uint64_t min, uint64_t max,
	     uint64_t *out)
{
	return opt_scaled(opt, s, min, max, out, " bytes", "a size like 4096, 64k, 1M");
}

/* Read len bytes at off, or from the file position when off < 0 (the
 * positional calls reject negative offsets before getting here). */
static ssize_t read_all(int fd, void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		char *p = (char *)buf + done;
		ssize_t n = off < 0 ? read(fd, p, len - done) :
			    pread(fd, p, len - done, off + (off_t)done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int write_all(int fd, const void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		const char *p = (const char *)buf + done;
		ssize_t n = off < 0 ? write(fd, p, len - done) :
			    pwrite(fd, p, len - done, off + (off_t)done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}

ssize_t read_full(int fd, void *buf, size_t len)
{
	return read_all(fd, buf, len, -1);
}

ssize_t pread_full(int fd, void *buf, size_t len, off_t off)
{
	return off < 0 ? -EINVAL : read_all(fd, buf, len, off);
}

int write_full(int fd, const void *buf, size_t len)
{
	return write_all(fd, buf, len, -1);
}

int pwrite_full(int fd, const void *buf, size_t len, off_t off)
{
	return off < 0 ? -EINVAL : write_all(fd, buf, len, off);
}

double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double now_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int write_file_atomic(const char *path, const void *buf, size_t len)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	char *slash;
	int fd, ret;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ret = write_full(fd, buf, len);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path) < 0)
		ret = -errno;
	if (ret) {
		unlink(tmp);
		return ret;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = 0;
	else if (slash)
		*slash = 0;
	else
		strcpy(dir, ".");
	return fsync_dir(dir);
}

int read_file_small(const char *path, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, n = 0;
	char *buf;

	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;

			free(buf);
			close(fd);
			return err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = 0;
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

int read_sysfs(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read_full(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return (int)n;
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

int write_sysfs(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = write_full(fd, val, strlen(val));
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

int mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, mode) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int rm_one(const char *p, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(p) < 0 ? -errno : 0;
	return unlink(p) < 0 && errno != ENOENT ? -errno : 0;
}

int rm_rf(const char *path)
{
	struct stat st;

	if (!path || !*path || !strcmp(path, "/"))
		return -EINVAL;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) < 0 ? -errno : 0;
	return nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS);
}

int abspath(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], res[PATH_MAX];
	const char *base;
	char *slash;

	if (realpath(path, res)) {
		if (strlen(res) >= len)
			return -ENAMETOOLONG;
		strcpy(out, res);
		return 0;
	}
	if (errno != ENOENT)
		return -errno;
	snprintf(dir, sizeof(dir), "%s", path);
	while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = 0;
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = 0;
		base = slash + 1;
		if (!realpath(slash == dir ? "/" : dir, res))
			return -errno;
	} else {
		base = dir;
		if (!getcwd(res, sizeof(res)))
			return -errno;
	}
	if ((size_t)snprintf(out, len, "%s/%s", strcmp(res, "/") ? res : "",
			     base) >= len)
		return -ENAMETOOLONG;
	return 0;
}

bool path_within(const char *inner, const char *outer)
{
	size_t n = strlen(outer);

	if (n == 1 && outer[0] == '/')
		return true;
	return !strncmp(inner, outer, n) && (inner[n] == 0 || inner[n] == '/');
}

/* Length of the valid UTF-8 sequence at s, or 0 (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF). */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned c = s[0], n, cp, min;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0;
	for (unsigned i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) /* also stops at the NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

const char *text_escape(const char *s, char *buf, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t o = 0;

	if (!len)
		return buf;
	while (*u) {
		size_t n = utf8_seq(u);
		size_t need = n ? n : 4;

		if (o + need >= len)
			break;
		if (n)
			memcpy(buf + o, u, n);
		else
			snprintf(buf + o, 5, "\\x%02x", *u);
		o += need;
		u += n ? n : 1;
	}
	buf[o] = 0;
	return buf;
}

void label_from_name(const char *name, char *buf, size_t len)
{
	size_t o = 0;

	for (const unsigned char *c = (const unsigned char *)name; *c && o + 1 < len; c++) {
		if (*c >= 0x20 && *c != 0x7f) {
			buf[o++] = (char)*c;
			continue;
		}
		if (o + 5 > len)
			break;
		o += (size_t)snprintf(buf + o, len - o, "\\x%02x", *c);
	}
	if (len)
		buf[o < len ? o : len - 1] = 0;
}

int label_check(const char *opt, const char *label)
{
	char b[96];

	if (!*label)
		return errorf("%s: empty label", opt), -EINVAL;
	for (const unsigned char *c = (const unsigned char *)label; *c; c++) {
		if (*c == '/' || *c < 0x20 || *c == 0x7f) {
			label_from_name(label, b, sizeof(b));
			return errorf("%s: '%s': %s (a label is one field of config_id "
				      "and a report heading)", opt, b, *c == '/' ?
				      "contains '/'" : "contains a control character"), -EINVAL;
		}
	}
	return 0;
}

json_t *json_text(const char *s)
{
	size_t bad = 0, n;
	const unsigned char *u = (const unsigned char *)s;
	char *buf;
	json_t *j;

	if (!s)
		return json_null();
	for (; *u; u += n ? n : 1)
		if (!(n = utf8_seq(u)))
			bad++;
	if (!bad)
		return json_string(s);
	n = strlen(s) + 3 * bad + 1;
	buf = malloc(n);
	if (!buf)
		return NULL;
	j = json_string(text_escape(s, buf, n));
	free(buf);
	return j;
}

/* Free bytes an unprivileged writer may use on path's filesystem (or on
 * its nearest existing ancestor's, for a directory not made yet). */
static int free_bytes(const char *path, uint64_t *avail, char *where,
		      size_t len)
{
	struct statvfs vfs;
	char *slash;

	snprintf(where, len, "%s", path);
	while (statvfs(where, &vfs) < 0) {
		if (errno != ENOENT)
			return -errno;
		slash = strrchr(where, '/');
		if (!slash)
			snprintf(where, len, ".");
		else if (slash == where)
			where[1] = 0;
		else
			*slash = 0;
	}
	/* ramfs and the like count no blocks: no limit to check */
	*avail = vfs.f_blocks ? (uint64_t)vfs.f_bavail * vfs.f_frsize : UINT64_MAX;
	return 0;
}

int space_check(const char *path, uint64_t need, uint64_t reserve,
		const char *what)
{
	char where[PATH_MAX];
	uint64_t avail = 0;
	int ret = free_bytes(path, &avail, where, sizeof(where));

	if (ret)
		return error_errno(ret, path, "free space");
	if (avail == UINT64_MAX || need + reserve <= avail)
		return 0;
	if (reserve)
		errorf("%s: %s needs %.1f MB, and %.1f MB more stay free for a run's "
		       "outputs; %.1f MB free on %s: refusing to start", path, what,
		       (double)need / 1e6, (double)reserve / 1e6, (double)avail / 1e6,
		       where);
	else
		errorf("%s: %s need %.1f MB; %.1f MB free on %s: refusing to start",
		       path, what, (double)need / 1e6, (double)avail / 1e6, where);
	return -ENOSPC;
}

bool dir_is_or_under(const char *path, const struct stat *id)
{
	char p[PATH_MAX];
	struct stat sb;
	size_t n;

	snprintf(p, sizeof(p), "%s", path);
	for (;;) {
		if (!stat(p, &sb) && sb.st_dev == id->st_dev &&
		    sb.st_ino == id->st_ino)
			return true;
		n = strlen(p);
		while (n > 1 && p[n - 1] != '/')
			n--;
		if (n <= 1) /* the root is id only if id is / */
			return !stat("/", &sb) && sb.st_dev == id->st_dev &&
			       sb.st_ino == id->st_ino;
		p[n - 1] = 0;
	}
}

bool path_inside_dir(const char *path, const char *dir)
{
	char abs[PATH_MAX];
	struct stat id;

	if (stat(dir, &id) < 0 || abspath(path, abs, sizeof(abs)))
		return false;
	return dir_is_or_under(abs, &id);
}
