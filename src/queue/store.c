// SPDX-License-Identifier: MIT
/* The reboot queue's state on disk: entries, IDs, lock, pause and history. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "store.h"

void qstore_init(struct qstore *q, const char *dir)
{
	snprintf(q->dir, sizeof(q->dir), "%s", dir);
	q->lock_fd = -1;
	q->run_fd = -1;
}

void qstore_path(const struct qstore *q, const char *name, char *out,
		 size_t len)
{
	snprintf(out, len, "%s/%s", q->dir, name);
}

int qstore_create(struct qstore *q)
{
	char p[PATH_MAX];

	qstore_path(q, "queue", p, sizeof(p));
	return mkdir_p(p, 0755);
}

static int flock_file(struct qstore *q, const char *name, int how, int *fd)
{
	char p[PATH_MAX];
	int f;

	qstore_path(q, name, p, sizeof(p));
	f = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (f < 0)
		return -errno;
	while (flock(f, how) < 0) {
		int err = errno;

		if (err == EINTR)
			continue;
		close(f);
		return err == EWOULDBLOCK ? -EBUSY : -err;
	}
	*fd = f;
	return 0;
}

int qstore_lock(struct qstore *q)
{
	return flock_file(q, "lock", LOCK_EX, &q->lock_fd);
}

void qstore_unlock(struct qstore *q)
{
	if (q->lock_fd >= 0)
		close(q->lock_fd);
	q->lock_fd = -1;
}

int qstore_run_lock(struct qstore *q)
{
	return flock_file(q, "run.lock", LOCK_EX | LOCK_NB, &q->run_fd);
}

void qstore_run_unlock(struct qstore *q)
{
	if (q->run_fd >= 0)
		close(q->run_fd);
	q->run_fd = -1;
}

bool qstore_run_busy(struct qstore *q)
{
	char p[PATH_MAX];
	bool busy = false;
	int f;

	if (q->run_fd >= 0)
		return true;
	qstore_path(q, "run.lock", p, sizeof(p));
	f = open(p, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return false;
	if (flock(f, LOCK_SH | LOCK_NB) < 0)
		busy = errno == EWOULDBLOCK;
	close(f);
	return busy;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* NNNNNN.json and nothing else (temp files end in .tmp.PID). */
static bool entry_name(const char *name, unsigned *id)
{
	char *end;
	unsigned long v;

	if (name[0] < '0' || name[0] > '9')
		return false;
	v = strtoul(name, &end, 10);
	if (strcmp(end, ".json") || v == 0 || v > 999999999UL)
		return false;
	*id = (unsigned)v;
	return true;
}

int qstore_ids(struct qstore *q, unsigned **ids, size_t *n)
{
	char p[PATH_MAX];
	struct dirent *de;
	unsigned *v = NULL;
	size_t cap = 0, cnt = 0;
	DIR *d;

	*ids = NULL;
	*n = 0;
	qstore_path(q, "queue", p, sizeof(p));
	d = opendir(p);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		unsigned id;

		if (!entry_name(de->d_name, &id))
			continue;
		if (cnt == cap) {
			unsigned *nv = realloc(v, (cap ? cap * 2 : 16) * sizeof(*v));

			if (!nv) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
			cap = cap ? cap * 2 : 16;
		}
		v[cnt++] = id;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_uint);
	*ids = v;
	*n = cnt;
	return 0;
}

static void entry_path(struct qstore *q, unsigned id, char *out, size_t len)
{
	snprintf(out, len, "%s/queue/%06u.json", q->dir, id);
}

/* Why a loaded entry is not one, or NULL. */
static const char *not_an_entry(json_t *e)
{
	json_t *argv = json_object_get(e, "argv");

	if (!json_is_object(e))
		return "not a JSON object";
	if (!json_is_array(argv))
		return "no \"argv\" array";
	if (!json_array_size(argv))
		return "an empty \"argv\"";
	return NULL;
}

int qstore_load_why(struct qstore *q, unsigned id, json_t **entry, char *why,
		    size_t len)
{
	char p[PATH_MAX];
	json_error_t jerr;
	const char *bad;
	json_t *e;

	entry_path(q, id, p, sizeof(p));
	if (access(p, F_OK) < 0)
		return -errno;
	e = json_load_file(p, 0, &jerr);
	bad = e ? not_an_entry(e) : NULL;
	if (!e && why)
		snprintf(why, len, "line %d: %s", jerr.line, jerr.text);
	else if (bad && why)
		snprintf(why, len, "%s", bad);
	if (!e || bad) {
		json_decref(e);
		return -EBADMSG;
	}
	*entry = e;
	return 0;
}

int qstore_load(struct qstore *q, unsigned id, json_t **entry)
{
	return qstore_load_why(q, id, entry, NULL, 0);
}

int qstore_save(struct qstore *q, json_t *entry)
{
	char p[PATH_MAX], *text;
	int ret;

	entry_path(q, qentry_uint(entry, "id"), p, sizeof(p));
	text = json_dumps(entry, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	if (!text)
		return -ENOMEM;
	ret = write_file_atomic(p, text, strlen(text));
	free(text);
	return ret;
}

int qstore_delete(struct qstore *q, unsigned id)
{
	char p[PATH_MAX], d[PATH_MAX];

	entry_path(q, id, p, sizeof(p));
	if (unlink(p) < 0)
		return -errno;
	qstore_path(q, "queue", d, sizeof(d));
	return fsync_dir(d);
}

/* The highest id history.jsonl has seen: IDs are never reused, even
 * when next-id is lost or garbage and the entry files are gone. */
static unsigned max_history_id(struct qstore *q)
{
	char p[PATH_MAX], *line = NULL;
	size_t cap = 0;
	unsigned max = 0;
	FILE *f;

	qstore_path(q, "history.jsonl", p, sizeof(p));
	f = fopen(p, "re");
	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		json_t *o = json_loads(line, 0, NULL);
		json_int_t id = json_integer_value(json_object_get(o, "id"));

		if (id > 0 && id < 999999999 && (unsigned)id > max)
			max = (unsigned)id;
		json_decref(o);
	}
	free(line);
	fclose(f);
	return max;
}

static unsigned next_id(struct qstore *q)
{
	char p[PATH_MAX], buf[32];
	unsigned *ids, id = 1, stored;
	size_t n;

	qstore_path(q, "next-id", p, sizeof(p));
	if (!read_sysfs(p, buf, sizeof(buf)) &&
	    !parse_uint(buf, 1, 999999999, &stored))
		id = stored;
	/* never below an existing entry, even if next-id was lost */
	if (!qstore_ids(q, &ids, &n) && n && ids[n - 1] >= id)
		id = ids[n - 1] + 1;
	free(ids);
	if (max_history_id(q) >= id)
		id = max_history_id(q) + 1;
	return id;
}

int qstore_append(struct qstore *q, json_t *entry)
{
	char p[PATH_MAX], buf[32];
	unsigned id = next_id(q);
	int ret;

	if (id > 999999998)
		return -EOVERFLOW;
	json_object_set_new(entry, "id", json_integer(id));
	ret = qstore_save(q, entry);
	if (ret)
		return ret;
	qstore_path(q, "next-id", p, sizeof(p));
	snprintf(buf, sizeof(buf), "%u\n", id + 1);
	return write_file_atomic(p, buf, strlen(buf));
}

bool qstore_paused(struct qstore *q)
{
	char p[PATH_MAX];

	qstore_path(q, "paused", p, sizeof(p));
	return access(p, F_OK) == 0;
}

int qstore_set_paused(struct qstore *q, bool paused)
{
	char p[PATH_MAX], ts[64], buf[128];

	qstore_path(q, "paused", p, sizeof(p));
	if (!paused) {
		if (unlink(p) < 0 && errno != ENOENT)
			return -errno;
		return fsync_dir(q->dir);
	}
	qstore_timestamp(ts, sizeof(ts));
	snprintf(buf, sizeof(buf), "paused at %s\n", ts);
	return write_file_atomic(p, buf, strlen(buf));
}

int qstore_history(struct qstore *q, json_t *record)
{
	char p[PATH_MAX], *line;
	int fd, ret;

	qstore_path(q, "history.jsonl", p, sizeof(p));
	line = json_dumps(record, JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (!line)
		return -ENOMEM;
	fd = open(p, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		free(line);
		return -errno;
	}
	ret = write_full(fd, line, strlen(line));
	if (!ret)
		ret = write_full(fd, "\n", 1);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	close(fd);
	free(line);
	return ret;
}

void qstore_timestamp(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

const char *qentry_str(json_t *e, const char *key)
{
	const char *s = json_string_value(json_object_get(e, key));

	return s ? s : "";
}

unsigned qentry_uint(json_t *e, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(e, key));

	return v > 0 ? (unsigned)v : 0;
}

void qentry_cmdline(json_t *e, char *buf, size_t len)
{
	json_t *argv = json_object_get(e, "argv"), *a;
	size_t i, off = 0;

	buf[0] = 0;
	json_array_foreach(argv, i, a) {
		const char *s = json_string_value(a);
		bool quote = !s || !*s || strpbrk(s, " \t\n'\"$\\;&|<>*?()");
		int n = snprintf(buf + off, len - off, quote ? "%s'%s'" : "%s%s",
				 i ? " " : "", s ? s : "");

		if (n < 0 || (size_t)n >= len - off)
			break;
		off += (size_t)n;
	}
}
