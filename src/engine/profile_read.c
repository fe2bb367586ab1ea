// SPDX-License-Identifier: MIT
/*
 * Reading a profile: its lines gathered first (includes resolved, ${VAR}
 * expanded, a UTF-8 BOM skipped, each line's file:line kept), of any
 * length, then parsed by libinih with a line buffer as long as the
 * longest line, into raw sections.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ini.h>

#include "profile_read.h"
#include "lib/util.h"

#define MAX_INCLUDE_DEPTH 16
/* A profile is text of bounded size: at most PROFILE_MAX_BYTES, its
 * includes counted in (however often included), each line at most
 * PROFILE_MAX_LINE bytes. */
#define PROFILE_MAX_BYTES (1024 * 1024)
#define PROFILE_MAX_LINE 65536

struct infile {
	FILE *f;
	char *path, *real;
	unsigned line;
};

struct pline {
	char *text, *where;
};

struct loader {
	struct strpool *pool;
	struct infile stack[MAX_INCLUDE_DEPTH];
	int depth;
	char where[PATH_MAX + 16];
	struct pline *lines;
	size_t nlines, next, longest;
	size_t bytes; /* read so far, includes counted in */
	struct rsec *secs;
	size_t nsecs;
	json_t *idx; /* the current section's keys -> position */
	int err;
};

void *profile_grow(void *p, size_t n, size_t size)
{
	if (n & (n - 1))
		return p; /* not a power of two: room left */
	p = realloc(p, (n ? 2 * n : 1) * size);
	if (!p) {
		errorf("out of memory");
		exit(1);
	}
	return p;
}

void profile_kv_put(struct pkv **kv, size_t *n, json_t *idx,
		    const struct pkv *x)
{
	json_t *at = json_object_get(idx, x->key);

	if (at) {
		(*kv)[json_integer_value(at)] = *x;
		return;
	}
	if (json_object_set_new_nocheck(idx, x->key, json_integer((json_int_t)*n))) {
		errorf("out of memory");
		exit(1);
	}
	*kv = profile_grow(*kv, *n, sizeof(**kv));
	(*kv)[(*n)++] = *x;
}

static const char *file_kind(mode_t m)
{
	return S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" :
	       S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* path opened for reading when it is a regular file of at most
 * PROFILE_MAX_BYTES (O_NONBLOCK: a FIFO does not block the open), or NULL
 * after one line saying why not. */
static FILE *open_regular(const char *path, const char *what)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat sb;
	FILE *f;

	if (fd < 0) {
		error_errno(-errno, path, what);
		return NULL;
	}
	if (fstat(fd, &sb)) {
		error_errno(-errno, path, what);
	} else if (S_ISDIR(sb.st_mode)) {
		error_errno(-EISDIR, path, what);
	} else if (!S_ISREG(sb.st_mode)) {
		errorf("%s: %s: %s, not a regular file (a profile is a text file)",
		       path, what, file_kind(sb.st_mode));
	} else if (sb.st_size > PROFILE_MAX_BYTES) {
		errorf("%s: %s: %lld bytes, larger than a profile's %d", path, what,
		       (long long)sb.st_size, PROFILE_MAX_BYTES);
	} else {
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		if ((f = fdopen(fd, "r")))
			return f;
		error_errno(-errno, path, what);
	}
	close(fd);
	return NULL;
}

static int push_file(struct loader *L, const char *path)
{
	char real[PATH_MAX];
	struct infile *in;

	if (L->depth >= MAX_INCLUDE_DEPTH) {
		errorf("%s: includes nested deeper than %d", L->where,
		       MAX_INCLUDE_DEPTH);
		return -ELOOP;
	}
	if (!realpath(path, real))
		return error_errno(-errno, path, L->depth ? "include" : "profile");
	for (int i = 0; i < L->depth; i++)
		if (!strcmp(L->stack[i].real, real)) {
			errorf("%s: include loop: %s includes itself", L->where, path);
			return -ELOOP;
		}
	in = &L->stack[L->depth];
	in->f = open_regular(path, L->depth ? "include" : "profile");
	if (!in->f)
		return -EINVAL;
	in->path = strpool_dup(L->pool, path);
	in->real = strpool_dup(L->pool, real);
	in->line = 0;
	L->depth++;
	return 0;
}

static void pop_file(struct loader *L)
{
	fclose(L->stack[--L->depth].f);
}

/* "include FILE" relative to the including file's directory. */
static int do_include(struct loader *L, char *arg)
{
	const char *cur = L->stack[L->depth - 1].path, *slash = strrchr(cur, '/');
	char *path;
	int ret;

	arg[strcspn(arg, "\r\n")] = 0;
	while (*arg == ' ' || *arg == '\t')
		arg++;
	for (char *e = arg + strlen(arg); e > arg && (e[-1] == ' ' || e[-1] == '\t');)
		*--e = 0;
	if (!*arg) {
		errorf("%s: include: missing file name", L->where);
		return -EINVAL;
	}
	if (arg[0] == '/' || !slash)
		ret = asprintf(&path, "%s", arg);
	else
		ret = asprintf(&path, "%.*s/%s", (int)(slash - cur), cur, arg);
	if (ret < 0)
		return -ENOMEM;
	ret = push_file(L, path);
	free(path);
	return ret;
}

/* The value of ${NAME} or ${NAME:-default} at in (in[0..1] == "${"):
 * *val and *vlen, *end past the '}'.  0 or -EINVAL after printing. */
static int one_var(struct loader *L, const char *in, const char **val,
		   size_t *vlen, const char **end)
{
	const char *close = strchr(in, '}'), *dflt;
	char name[256];
	size_t nlen;

	if (!close) {
		errorf("%s: unterminated ${", L->where);
		return -EINVAL;
	}
	dflt = strstr(in, ":-");
	if (dflt && dflt > close)
		dflt = NULL;
	nlen = (size_t)((dflt ? dflt : close) - (in + 2));
	if (!nlen || nlen >= sizeof(name)) {
		errorf("%s: bad variable reference", L->where);
		return -EINVAL;
	}
	memcpy(name, in + 2, nlen);
	name[nlen] = 0;
	*val = getenv(name);
	*end = close + 1;
	if ((!*val || !**val) && dflt) {
		*val = dflt + 2;
		*vlen = (size_t)(close - *val);
	} else if (!*val) {
		errorf("%s: ${%s} is not set (give a default: ${%s:-VALUE})",
		       L->where, name, name);
		return -EINVAL;
	} else {
		*vlen = strlen(*val);
	}
	return 0;
}

/* Expand ${VAR} and ${VAR:-default} from the environment into a line of
 * the pool, of any length. */
static int expand_vars(struct loader *L, const char *in, char **out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret = 0;

	if (!f)
		return -ENOMEM;
	while (*in && !ret) {
		const char *val, *end;
		size_t vlen;

		if (in[0] != '$' || in[1] != '{') {
			fputc(*in++, f);
			continue;
		}
		ret = one_var(L, in, &val, &vlen, &end);
		if (ret)
			break;
		fwrite(val, 1, vlen, f);
		in = end;
	}
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	if (!ret)
		*out = strpool_dup(L->pool, buf);
	free(buf);
	return ret;
}

/* One line as read: an include is followed, any other line kept. */
static int take_line(struct loader *L, char *raw, bool first)
{
	struct pline *l;
	char *p;
	int ret;

	if (first && !strncmp(raw, "\xef\xbb\xbf", 3)) /* UTF-8 BOM */
		raw += 3;
	for (p = raw; *p == ' ' || *p == '\t'; p++)
		;
	if (!strncmp(p, "include", 7) && (p[7] == ' ' || p[7] == '\t'))
		return do_include(L, p + 8);
	L->lines = profile_grow(L->lines, L->nlines, sizeof(*L->lines));
	l = &L->lines[L->nlines];
	ret = expand_vars(L, p, &l->text);
	if (ret)
		return ret;
	l->where = strpool_dup(L->pool, L->where);
	L->longest = MAX(L->longest, strlen(l->text));
	L->nlines++;
	return 0;
}

/* A line of n bytes within the bounds of a profile (a file that grows
 * while read stops there too). */
static int bounded(struct loader *L, const struct infile *in, size_t n)
{
	L->bytes += n;
	if (n > PROFILE_MAX_LINE) {
		errorf("%s: line longer than a profile's %d bytes", L->where,
		       PROFILE_MAX_LINE);
		return -E2BIG;
	}
	if (L->bytes > PROFILE_MAX_BYTES) {
		errorf("%s: the profile, includes counted in, is larger than %d "
		       "bytes", in->path, PROFILE_MAX_BYTES);
		return -EFBIG;
	}
	return 0;
}

/* The next line of in into raw (PROFILE_MAX_LINE + 2 bytes): 1, 0 at its
 * end, or -errno after the error (a line too long is never read whole). */
static int read_one(struct loader *L, struct infile *in, char *raw)
{
	size_t n;

	if (!fgets(raw, PROFILE_MAX_LINE + 2, in->f))
		return ferror(in->f) ? error_errno(-EIO, in->path, "reading") : 0;
	in->line++;
	snprintf(L->where, sizeof(L->where), "%s:%u", in->path, in->line);
	n = strlen(raw);
	if (n > PROFILE_MAX_LINE && raw[n - 1] != '\n')
		n++; /* more to come: too long */
	return bounded(L, in, n) ?: 1;
}

static int read_lines(struct loader *L)
{
	char *raw = malloc(PROFILE_MAX_LINE + 2);
	int got;

	if (!raw) {
		errorf("out of memory");
		exit(1);
	}
	while (!L->err && L->depth) {
		struct infile *in = &L->stack[L->depth - 1];

		got = read_one(L, in, raw);
		if (got <= 0) {
			L->err = got;
			pop_file(L);
			continue;
		}
		L->err = take_line(L, raw, in->line == 1);
	}
	free(raw);
	while (L->depth)
		pop_file(L);
	return L->err;
}

static void new_section(struct loader *L, const char *line)
{
	const char *end = strchr(line, ']');
	struct rsec *s;

	L->secs = profile_grow(L->secs, L->nsecs, sizeof(*L->secs));
	s = &L->secs[L->nsecs++];
	memset(s, 0, sizeof(*s));
	s->name = strpool_dup(L->pool, line + 1);
	if (end) /* the pool's copy: cut at the ']' */
		s->name[end - line - 1] = 0;
	else
		s->name[0] = 0;
	s->where = strpool_dup(L->pool, L->where);
	json_object_clear(L->idx);
}

/* libinih's line source: the lines read, L->where naming the one libinih
 * is parsing; str has room for the longest (ini_max_line). */
static char *next_line(char *str, int num, void *stream)
{
	struct loader *L = stream;
	const struct pline *l;

	if (L->err || L->next >= L->nlines)
		return NULL;
	l = &L->lines[L->next++];
	snprintf(L->where, sizeof(L->where), "%s", l->where);
	snprintf(str, (size_t)num, "%s", l->text);
	if (str[0] == '[')
		new_section(L, str);
	return str;
}

static int handler(void *user, const char *section, const char *name,
		   const char *value)
{
	struct loader *L = user;
	struct rsec *s;

	(void)section;
	if (L->err)
		return 0;
	if (!L->nsecs) {
		char n[48]; /* an include of any file: never echo a line of it */

		errorf("%s: key '%.24s%s' before any [section]", L->where,
		       text_escape(name, n, sizeof(n)), strlen(name) > 24 ? "..." : "");
		L->err = -EINVAL;
		return 0;
	}
	if (!value || !*value) {
		errorf("%s: %.24s: empty value", L->where, name);
		L->err = -EINVAL;
		return 0;
	}
	s = &L->secs[L->nsecs - 1];
	if (json_object_get(L->idx, name)) { /* which one counts: nobody can say */
		char n[48];

		errorf("%s: %s given twice in [%s] (first at %s)", L->where,
		       text_escape(name, n, sizeof(n)), s->name,
		       s->kv[json_integer_value(json_object_get(L->idx, name))].where);
		L->err = -EINVAL;
		return 0;
	}
	profile_kv_put(&s->kv, &s->nkv, L->idx, &(struct pkv){
		strpool_dup(L->pool, name), strpool_dup(L->pool, value),
		strpool_dup(L->pool, L->where), PKV_SECTION });
	return 1;
}

void profile_rsecs_free(struct rsec *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].kv);
	free(s);
}

/* libinih over the lines read: a comment starts with ; or # at the start
 * of a line, or after a blank following a value; no multi-line values. */
static int parse_lines(struct loader *L, const char *path)
{
	int ret;

	if (L->longest > (size_t)INT_MAX - 3) {
		errorf("%s: a line longer than %d characters", path, INT_MAX - 3);
		return -E2BIG;
	}
	ini_allow_multiline = false;
	ini_allow_inline_comments = true;
	ini_inline_comment_prefixes = ";#";
	/* Debian's libinih takes its limits at run time: a heap buffer of
	 * ini_initial_alloc bytes, at most ini_max_line (3 more than the
	 * longest line, for "\r\n\0"), without realloc. */
	ini_use_stack = false;
	ini_allow_realloc = false;
	ini_max_line = ini_initial_alloc = (int)MAX(L->longest + 3, 200);
	ini_stop_on_first_error = true;
	ret = ini_parse_stream(next_line, L, handler, L);
	if (ret > 0 && !L->err) {
		errorf("%s: not a [section], key=value or include line", L->where);
		L->err = -EINVAL;
	} else if (ret < 0 && !L->err) {
		errorf("%s: cannot parse (out of memory)", path);
		L->err = -ENOMEM;
	}
	return L->err;
}

int profile_read(const char *path, struct strpool *pool, struct rsec **secs,
		 size_t *nsecs)
{
	struct loader L = { .pool = pool };
	int ret;

	snprintf(L.where, sizeof(L.where), "%s", path);
	L.idx = json_object();
	if (!L.idx)
		return -ENOMEM;
	ret = push_file(&L, path);
	if (!ret)
		ret = read_lines(&L);
	if (!ret)
		ret = parse_lines(&L, path);
	json_decref(L.idx);
	free(L.lines);
	*secs = L.secs;
	*nsecs = L.nsecs;
	return ret;
}
