// SPDX-License-Identifier: MIT
/* A disk's request-queue settings in sysfs: read, changed with a check, saved and restored. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "lib/util.h"
#include "sysq.h"

static const char *const settable[] = { "read_ahead_kb", "nr_requests",
					"wbt_lat_usec" };

bool sysq_settable(const char *attr)
{
	for (size_t i = 0; i < ARRAY_SIZE(settable); i++)
		if (!strcmp(attr, settable[i]))
			return true;
	return false;
}

static void qpath(const char *disk, const char *attr, char *out, size_t len)
{
	snprintf(out, len, "/sys/block/%s/queue/%s", disk, attr);
}

static const char *run_dir(void)
{
	const char *d = getenv("IOSTRAT_RUN_DIR");

	return d && *d ? d : "/run/iostrat";
}

static const char *boot_id(void)
{
	static char id[64];

	if (!id[0] && read_sysfs("/proc/sys/kernel/random/boot_id", id, sizeof(id)))
		snprintf(id, sizeof(id), "unknown");
	return id;
}

int sysq_active(const char *disk, char *out, size_t len)
{
	char p[PATH_MAX], raw[512], *a, *b;
	int ret;

	qpath(disk, "scheduler", p, sizeof(p));
	if ((ret = read_sysfs(p, raw, sizeof(raw))))
		return ret;
	a = strchr(raw, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b) {
		*b = 0;
		snprintf(out, len, "%s", a + 1);
	} else {
		snprintf(out, len, "%s", raw); /* a lone "none" */
	}
	return 0;
}

bool sysq_has_scheduler(const char *disk, const char *name, char *avail,
			size_t len)
{
	char p[PATH_MAX], raw[512], *save = NULL;
	bool found = false;
	size_t off = 0;

	avail[0] = 0;
	qpath(disk, "scheduler", p, sizeof(p));
	if (read_sysfs(p, raw, sizeof(raw)))
		return false;
	for (char *w = strtok_r(raw, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (*w == '[')
			w++;
		w[strcspn(w, "]")] = 0;
		found |= !strcmp(w, name);
		off += (size_t)snprintf(avail + off, off < len ? len - off : 0,
					"%s%s", off ? "," : "", w);
	}
	return found;
}

int sysq_check_disk(const char *disk)
{
	char p[PATH_MAX];

	if (!*disk || strchr(disk, '/') || !strcmp(disk, ".") || !strcmp(disk, "..")) {
		errorf("--device '%s': give a disk name like sdb or loop0", disk);
		return -EINVAL;
	}
	snprintf(p, sizeof(p), "/sys/block/%s", disk);
	if (access(p, F_OK)) {
		errorf("%s: no such block device (no %s)", disk, p);
		return -ENODEV;
	}
	qpath(disk, "scheduler", p, sizeof(p));
	if (access(p, F_OK)) {
		errorf("%s: has no I/O scheduler to choose (no %s)", disk, p);
		return -ENOTSUP;
	}
	if (geteuid() != 0) {
		errorf("%s: changing the I/O scheduler needs root", disk);
		return -EPERM;
	}
	return 0;
}

static int add_val(struct sysq *s, const char *attr, const char *value)
{
	if (s->n >= SYSQ_MAX)
		return -E2BIG;
	snprintf(s->v[s->n].attr, sizeof(s->v[0].attr), "%s", attr);
	snprintf(s->v[s->n].value, sizeof(s->v[0].value), "%s", value);
	s->n++;
	return 0;
}

/* iosched/NAME=value for every readable tunable of the active scheduler. */
static void each_tunable(const char *disk,
			 void (*fn)(void *arg, const char *attr, const char *val),
			 void *arg)
{
	char dir[PATH_MAX], p[PATH_MAX + 300], v[128], attr[300];
	struct dirent *de;
	struct dirent **list;
	int n;

	qpath(disk, "iosched", dir, sizeof(dir));
	n = scandir(dir, &list, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		de = list[i];
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		snprintf(attr, sizeof(attr), "iosched/%s", de->d_name);
		if (de->d_name[0] != '.' && !read_sysfs(p, v, sizeof(v)))
			fn(arg, attr, v);
		free(de);
	}
	if (n >= 0)
		free(list);
}

static void save_one(void *arg, const char *attr, const char *val)
{
	add_val(arg, attr, val);
}

static int write_state(struct sysq *s)
{
	json_t *o = json_object(), *a = json_array();
	char *text;
	int ret;

	for (size_t i = 0; i < s->n; i++)
		json_array_append_new(a, json_pack("{s:s, s:s}", "attr", s->v[i].attr,
						   "value", s->v[i].value));
	json_object_set_new(o, "disk", json_text(s->disk));
	json_object_set_new(o, "dev", json_text(s->dev));
	json_object_set_new(o, "boot_id", json_text(boot_id()));
	json_object_set_new(o, "pid", json_integer(getpid()));
	json_object_set_new(o, "attrs", a);
	text = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (!text)
		return -ENOMEM;
	ret = write_file_atomic(s->state_path, text, strlen(text));
	free(text);
	return ret;
}

/* Whether fd is still the file at p (not one its holder removed). */
static bool still_there(int fd, const char *p)
{
	struct stat a, b;

	return !fstat(fd, &a) && !stat(p, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* The lock file is removed by its holder when sched ends (unlink, then
 * close): a lock taken on a file that was removed meanwhile is no lock,
 * and is taken again on the new file. */
static int lock_disk(struct sysq *s)
{
	char *p = s->lock_path;
	int fd, ret = mkdir_p(run_dir(), 0755);

	if (ret)
		return error_errno(ret, run_dir(), "create");
	snprintf(p, sizeof(s->lock_path), "%s/sched-%s.lock", run_dir(), s->disk);
	for (;;) {
		fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0)
			return error_errno(-errno, p, "open");
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			close(fd);
			errorf("%s: another iostrat is changing its queue settings (%s)",
			       s->disk, p);
			return -EBUSY;
		}
		if (still_there(fd, p))
			break;
		close(fd);
	}
	s->lock_fd = fd;
	return 0;
}

/* Give the lock up and remove its file (while it is still held). */
static void unlock_disk(struct sysq *s)
{
	if (s->lock_fd < 0)
		return;
	unlink(s->lock_path);
	close(s->lock_fd);
	s->lock_fd = -1;
}

int sysq_read(struct sysq *s, const char *disk)
{
	static const char *const plain[] = { "read_ahead_kb", "nr_requests",
					     "wbt_lat_usec" };
	char p[PATH_MAX], v[128];
	int ret;

	memset(s, 0, sizeof(*s));
	s->lock_fd = -1;
	snprintf(s->disk, sizeof(s->disk), "%s", disk);
	snprintf(p, sizeof(p), "/sys/block/%s/dev", disk);
	if (read_sysfs(p, s->dev, sizeof(s->dev)))
		snprintf(s->dev, sizeof(s->dev), "?");
	if ((ret = sysq_active(disk, v, sizeof(v))))
		return error_errno(ret, disk, "read scheduler");
	add_val(s, "scheduler", v);
	each_tunable(disk, save_one, s);
	for (size_t i = 0; i < ARRAY_SIZE(plain); i++) {
		qpath(disk, plain[i], p, sizeof(p));
		if (!read_sysfs(p, v, sizeof(v)))
			add_val(s, plain[i], v);
	}
	return 0;
}

int sysq_save(struct sysq *s, const char *disk)
{
	int ret;

	if ((ret = sysq_read(s, disk)) || (ret = lock_disk(s)))
		return ret;
	snprintf(s->state_path, sizeof(s->state_path), "%s/sched-%s.json",
		 run_dir(), disk);
	if ((ret = write_state(s))) {
		unlock_disk(s);
		return error_errno(ret, s->state_path, "write saved state");
	}
	s->saved = true;
	return 0;
}

int sysq_set(const char *disk, const char *attr, const char *value)
{
	char p[PATH_MAX], back[256];
	int ret;

	qpath(disk, attr, p, sizeof(p));
	ret = write_sysfs(p, value);
	if (ret) {
		errorf("%s: %s=%s: %s", disk, attr, value, strerror(-ret));
		return ret;
	}
	ret = !strcmp(attr, "scheduler") ? sysq_active(disk, back, sizeof(back))
					 : read_sysfs(p, back, sizeof(back));
	if (ret) {
		errorf("%s: %s: reading back: %s", disk, attr, strerror(-ret));
		return ret;
	}
	if (strcmp(back, value)) {
		errorf("%s: %s=%s did not take (reads back '%s')", disk, attr,
		       value, back);
		return -EIO;
	}
	return 0;
}

/* The order values go back in: the scheduler (switching it resets its
 * tunables, nr_requests and wbt), then the queue's own attributes
 * (nr_requests resets mq-deadline's async_depth), then the tunables. */
static size_t val_pass(const char *attr)
{
	if (!strcmp(attr, "scheduler"))
		return 0;
	return strncmp(attr, "iosched/", 8) ? 1 : 2;
}

/* Read attr as it stands now (the active scheduler for "scheduler"). */
static int read_now(const char *disk, const char *attr, char *out, size_t len)
{
	char p[PATH_MAX];

	if (!strcmp(attr, "scheduler"))
		return sysq_active(disk, out, len);
	qpath(disk, attr, p, sizeof(p));
	return read_sysfs(p, out, len);
}

/* Write back what differs, in val_pass order; warn and go on. */
static int restore_vals(const char *disk, const struct sysq_val *v, size_t n)
{
	char p[PATH_MAX], cur[256];
	int ret = 0;

	for (size_t pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < n; i++) {
			int r;

			if (val_pass(v[i].attr) != pass ||
			    (!read_now(disk, v[i].attr, cur, sizeof(cur)) &&
			     !strcmp(cur, v[i].value)))
				continue;
			qpath(disk, v[i].attr, p, sizeof(p));
			r = write_sysfs(p, v[i].value);
			if (r) {
				warnf("%s: restoring %s=%s: %s", disk, v[i].attr,
				      v[i].value, strerror(-r));
				ret = ret ? ret : r;
			}
		}
	}
	return ret;
}

int sysq_apply(const struct sysq *s)
{
	char cur[256];
	int ret;

	for (size_t pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < s->n; i++) {
			const struct sysq_val *v = &s->v[i];

			if (val_pass(v->attr) != pass ||
			    (!read_now(s->disk, v->attr, cur, sizeof(cur)) &&
			     !strcmp(cur, v->value)))
				continue;
			if ((ret = sysq_set(s->disk, v->attr, v->value)))
				return ret;
		}
	return 0;
}

int sysq_restore(struct sysq *s)
{
	int ret;

	if (!s->saved)
		return 0;
	ret = restore_vals(s->disk, s->v, s->n);
	if (!ret && unlink(s->state_path) < 0 && errno != ENOENT)
		ret = -errno;
	unlock_disk(s);
	s->saved = false;
	return ret;
}

static int load_state(const char *path, struct sysq *s, char *boot,
		      size_t blen, long *pid)
{
	json_t *o = json_load_file(path, 0, NULL), *a, *x;
	size_t i;

	if (!o)
		return -EBADMSG;
	memset(s, 0, sizeof(*s));
	snprintf(s->disk, sizeof(s->disk), "%s",
		 json_string_value(json_object_get(o, "disk")) ?: "");
	snprintf(s->dev, sizeof(s->dev), "%s",
		 json_string_value(json_object_get(o, "dev")) ?: "");
	snprintf(boot, blen, "%s",
		 json_string_value(json_object_get(o, "boot_id")) ?: "");
	*pid = (long)json_integer_value(json_object_get(o, "pid"));
	a = json_object_get(o, "attrs");
	json_array_foreach(a, i, x) {
		const char *k = json_string_value(json_object_get(x, "attr"));
		const char *v = json_string_value(json_object_get(x, "value"));

		if (k && v && !strstr(k, ".."))
			add_val(s, k, v);
	}
	json_decref(o);
	return s->disk[0] && !strchr(s->disk, '/') ? 0 : -EBADMSG;
}

/* One state file whose owner is gone: restore it if it is still about
 * this boot and this disk, then forget it. */
static int recover_one(const char *json_path)
{
	char boot[64], p[PATH_MAX], dev[32];
	struct sysq s;
	long pid;
	int ret = load_state(json_path, &s, boot, sizeof(boot), &pid);

	if (ret) {
		warnf("%s: unreadable saved queue state, removed", json_path);
		unlink(json_path);
		return 0;
	}
	snprintf(p, sizeof(p), "/sys/block/%s/dev", s.disk);
	if (strcmp(boot, boot_id()) || read_sysfs(p, dev, sizeof(dev)) ||
	    strcmp(dev, s.dev)) {
		unlink(json_path); /* another boot or another device now */
		return 0;
	}
	if (geteuid() != 0) {
		warnf("%s: queue settings left changed by a killed iostrat (pid %ld); run iostrat sched or bench as root to restore them",
		      s.disk, pid);
		return 0;
	}
	ret = restore_vals(s.disk, s.v, s.n);
	if (ret)
		return 0; /* keep the file: try again next time */
	unlink(json_path);
	warnf("%s: restored the queue settings a killed iostrat (pid %ld) had changed",
	      s.disk, pid);
	return 1;
}

int sysq_recover(void)
{
	DIR *d = opendir(run_dir());
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0; /* the usual case: nothing ever saved this boot */
	while ((de = readdir(d))) {
		char jp[PATH_MAX], lp[PATH_MAX];
		size_t len = strlen(de->d_name);
		int fd;

		if (strncmp(de->d_name, "sched-", 6) || len < 11 ||
		    strcmp(de->d_name + len - 5, ".json"))
			continue;
		snprintf(jp, sizeof(jp), "%s/%s", run_dir(), de->d_name);
		snprintf(lp, sizeof(lp), "%s/%.*s.lock", run_dir(),
			 (int)(len - 5), de->d_name);
		fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			n += recover_one(jp);
			if (still_there(fd, lp))
				unlink(lp); /* held: no sched is using it */
		}
		close(fd); /* busy: its owner is alive and will restore */
	}
	closedir(d);
	return n;
}

struct tun_buf {
	char *out;
	size_t len, off;
};

static void tun_one(void *arg, const char *attr, const char *val)
{
	struct tun_buf *b = arg;
	int n;

	if (b->off >= b->len)
		return;
	n = snprintf(b->out + b->off, b->len - b->off, "%s%s=%s",
		     b->off ? ";" : "", attr + 8, val);
	if (n > 0)
		b->off += (size_t)n;
}

void sysq_tunables(const char *disk, char *out, size_t len)
{
	struct tun_buf b = { out, len, 0 };

	out[0] = 0;
	each_tunable(disk, tun_one, &b);
}
