// SPDX-License-Identifier: MIT
/* Generating a data set of fixed-width lines atomically, with its manifest. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <xxhash.h>

#include "dataset.h"
#include "lib/util.h"

volatile sig_atomic_t dataset_stop;

static const struct { const char *name; uint64_t files, lines, width; } presets[] = {
	{ "small", 10000, 100, 100 },
	{ "medium-short", 100, 500000, 20 },
	{ "medium-long", 100, 100, 100000 },
	{ "big", 20, 100000, 1000 },
};

const char *const dataset_presets[] = { "small", "medium-short",
					"medium-long", "big", NULL };

int dataset_preset(const char *name, double scale, struct dataset_spec *spec)
{
	for (size_t i = 0; i < ARRAY_SIZE(presets); i++) {
		double want, floor_files;

		if (strcmp(presets[i].name, name))
			continue;
		spec->preset = presets[i].name;
		spec->width = presets[i].width;
		want = (double)presets[i].files * scale;
		floor_files = (double)MIN(presets[i].files, 4);
		if (want >= floor_files) {
			spec->files = (uint64_t)llround(want);
			spec->lines = presets[i].lines;
		} else {
			spec->files = (uint64_t)floor_files;
			spec->lines = (uint64_t)MAX(1, llround((double)presets[i].lines *
							       want / floor_files));
		}
		return 0;
	}
	return -EINVAL;
}

uint64_t dataset_bytes(const struct dataset_spec *s)
{
	return s->files * s->lines * (s->width + 1);
}

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Printable ASCII 0x20..0x7e from 8 random bytes at a time. */
static void fill_line(uint8_t *p, uint64_t width, uint64_t *rng)
{
	uint64_t j = 0;

	while (j < width) {
		uint64_t r = splitmix(rng);

		for (int k = 0; k < 8 && j < width; k++, j++, r >>= 8)
			p[j] = (uint8_t)(0x20 + (((r & 0xff) * 95) >> 8));
	}
	p[width] = '\n';
}

static int write_one(const char *path, const struct dataset_spec *s,
		     uint64_t idx, uint8_t *buf, size_t bufsize,
		     XXH3_state_t *h)
{
	uint64_t rng = s->seed * 0x100000001b3ULL ^ (idx + 1);
	size_t line = (size_t)s->width + 1, used = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	int ret = 0;

	if (fd < 0)
		return -errno;
	for (uint64_t l = 0; l < s->lines && !ret; l++) {
		if (dataset_stop) {
			ret = -EINTR;
			break;
		}
		if (line > bufsize) { /* a line longer than the buffer */
			uint8_t *big = malloc(line);

			if (!big) {
				ret = -ENOMEM;
				break;
			}
			fill_line(big, s->width, &rng);
			XXH3_64bits_update(h, big, line);
			ret = write_full(fd, big, line);
			free(big);
			continue;
		}
		if (used + line > bufsize) {
			XXH3_64bits_update(h, buf, used);
			ret = write_full(fd, buf, used);
			used = 0;
		}
		fill_line(buf + used, s->width, &rng);
		used += line;
	}
	if (!ret && used) {
		XXH3_64bits_update(h, buf, used);
		ret = write_full(fd, buf, used);
	}
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

static json_t *manifest_of(const struct dataset_spec *s)
{
	json_t *m = json_object();

	json_object_set_new(m, "schema", json_integer(1));
	json_object_set_new(m, "generator", json_text("iostrat gen"));
	json_object_set_new(m, "preset", s->preset ? json_text(s->preset) : json_null());
	json_object_set_new(m, "files", json_integer((json_int_t)s->files));
	json_object_set_new(m, "lines", json_integer((json_int_t)s->lines));
	json_object_set_new(m, "width", json_integer((json_int_t)s->width));
	json_object_set_new(m, "seed", json_integer((json_int_t)s->seed));
	json_object_set_new(m, "total_bytes", json_integer((json_int_t)dataset_bytes(s)));
	return m;
}

/* The digits of a data set's file names: f000000.txt .. (at least 6). */
static int name_digits(uint64_t files)
{
	int d = snprintf(NULL, 0, "%llu", (unsigned long long)(files ? files - 1 : 0));

	return MAX(d, 6);
}

/* Index of a data set file name "f<digits>.txt" written for files, or -1. */
static long long our_index(const char *name, uint64_t files)
{
	int digits = name_digits(files);
	size_t n = strlen(name);
	char *end;
	unsigned long long i;

	if (n != (size_t)digits + 5 || name[0] != 'f' || strcmp(name + n - 4, ".txt") ||
	    strspn(name + 1, "0123456789") != (size_t)digits)
		return -1;
	i = strtoull(name + 1, &end, 10);
	return i < files ? (long long)i : -1;
}

/*
 * An existing data set, against its own manifest m: every entry must be
 * one of its files, at its size.  -EEXIST: something else is there (a
 * user's file or directory), *which names it: never deleted nor reused.
 * -ESTALE: one of its files has another size or is missing (*which):
 * tampered, regenerated.  0: complete by name and size; *newest is the
 * newest file mtime, to tell whether contents need hashing.
 */
static int check_contents(const char *dir, json_t *m, char *which, size_t len,
			  struct timespec *newest)
{
	uint64_t files = (uint64_t)json_integer_value(json_object_get(m, "files"));
	uint64_t size = (uint64_t)json_integer_value(json_object_get(m, "lines")) *
			((uint64_t)json_integer_value(json_object_get(m, "width")) + 1);
	uint64_t seen = 0;
	struct dirent *de;
	int ret = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -errno;
	newest->tv_sec = newest->tv_nsec = 0;
	while (!ret && (errno = 0, de = readdir(d))) {
		struct stat sb;
		char p[PATH_MAX];

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, DATASET_MANIFEST))
			continue;
		snprintf(which, len, "%s", de->d_name);
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (our_index(de->d_name, files) < 0 || lstat(p, &sb) < 0 ||
		    !S_ISREG(sb.st_mode)) {
			ret = -EEXIST;
			break;
		}
		seen++;
		if ((uint64_t)sb.st_size != size) {
			snprintf(which, len, "%s: %lld bytes, the manifest says %llu",
				 de->d_name, (long long)sb.st_size,
				 (unsigned long long)size);
			ret = -ESTALE;
		}
		if (sb.st_mtim.tv_sec > newest->tv_sec ||
		    (sb.st_mtim.tv_sec == newest->tv_sec &&
		     sb.st_mtim.tv_nsec > newest->tv_nsec))
			*newest = sb.st_mtim;
	}
	if (!ret && errno)
		ret = -errno;
	closedir(d);
	if (!ret && seen != files) {
		snprintf(which, len, "%llu files, the manifest says %llu",
			 (unsigned long long)seen, (unsigned long long)files);
		ret = -ESTALE;
	}
	return ret;
}

/* xxh3 of every file of the data set in order, as generate_into took it:
 * the contents of files whose size is right but which changed since. */
static int contents_match(const char *dir, json_t *m)
{
	uint64_t files = (uint64_t)json_integer_value(json_object_get(m, "files"));
	const char *want = json_string_value(json_object_get(m, "xxh3"));
	XXH3_state_t *h = XXH3_createState();
	size_t bufsize = 1 << 20;
	uint8_t *buf = malloc(bufsize);
	char p[PATH_MAX], hex[17];
	int ret = 0;

	if (!h || !buf || !want) {
		ret = !want ? 0 : -ENOMEM; /* an old manifest without xxh3 */
		goto out;
	}
	XXH3_64bits_reset(h);
	for (uint64_t i = 0; i < files && !ret; i++) {
		int fd;
		ssize_t n;

		snprintf(p, sizeof(p), "%s/f%0*llu.txt", dir, name_digits(files),
			 (unsigned long long)i);
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			break;
		}
		while ((n = read(fd, buf, bufsize)) > 0)
			XXH3_64bits_update(h, buf, (size_t)n);
		if (n < 0)
			ret = -errno;
		close(fd);
	}
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)XXH3_64bits_digest(h));
	if (!ret)
		ret = strcmp(hex, want) ? -ESTALE : 0;
out:
	free(buf);
	XXH3_freeState(h);
	return ret;
}

/* Another shape's data set in dir, to be replaced: said, with its shape. */
static void say_replaced(const char *dir, json_t *m)
{
	warnf("%s: held a data set of another shape (%lld files x %lld lines x %lld "
	      "chars, seed %lld): replacing it", dir,
	      (long long)json_integer_value(json_object_get(m, "files")),
	      (long long)json_integer_value(json_object_get(m, "lines")),
	      (long long)json_integer_value(json_object_get(m, "width")),
	      (long long)json_integer_value(json_object_get(m, "seed")));
}

/* 1 = our data set, the same parameters, intact; 0 = ours but different
 * or tampered (regenerated: it holds only our files); -EEXIST = not ours,
 * or ours holding something else (printed). */
static int manifest_matches(const char *dir, const struct dataset_spec *s)
{
	char p[PATH_MAX], which[300];
	const char *keys[] = { "files", "lines", "width", "seed" };
	struct timespec newest = { 0 };
	struct stat msb;
	json_t *m, *want;
	int same = 1, shape, ret;

	snprintf(p, sizeof(p), "%s/%s", dir, DATASET_MANIFEST);
	m = json_load_file(p, 0, NULL);
	if (!m || stat(p, &msb) < 0) {
		json_decref(m);
		errorf("%s: not empty and not an iostrat data set (no %s); refusing "
		       "to overwrite", dir, DATASET_MANIFEST);
		return -EEXIST;
	}
	want = manifest_of(s);
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (json_integer_value(json_object_get(m, keys[i])) !=
		    json_integer_value(json_object_get(want, keys[i])))
			same = 0;
	json_decref(want);
	shape = same;
	ret = check_contents(dir, m, which, sizeof(which), &newest);
	if (ret == -EEXIST) {
		errorf("%s: holds '%.80s', which is not part of the data set; refusing "
		       "to reuse or replace it (move it away, or use another DIR)",
		       dir, which);
	} else if (ret == -ESTALE && same) {
		warnf("%s: %s (changed since it was generated); generating it again",
		      dir, which);
		same = 0;
		ret = 0;
	} else if (!ret && same && (newest.tv_sec > msb.st_mtim.tv_sec ||
				    (newest.tv_sec == msb.st_mtim.tv_sec &&
				     newest.tv_nsec > msb.st_mtim.tv_nsec))) {
		/* sizes right, but written after the manifest: hash them */
		ret = contents_match(dir, m);
		if (ret == -ESTALE)
			warnf("%s: contents differ from the manifest's xxh3 (a file "
			      "was changed); generating it again", dir);
		same = ret ? 0 : 1;
		ret = ret == -ESTALE ? 0 : ret;
	} else if (ret == -ESTALE) {
		ret = 0;
	}
	if (ret >= 0 && !shape)
		say_replaced(dir, m);
	json_decref(m);
	if (ret < 0 && ret != -EEXIST) {
		error_errno(ret, dir, "checking the data set");
		return -EIO; /* said */
	}
	return ret ? ret : same;
}

static int dir_state(const char *dir, const struct dataset_spec *s)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int entries = 0, m;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			entries++;
	closedir(d);
	if (!entries)
		return 0;
	m = manifest_matches(dir, s);
	if (m < 0)
		return m;
	return m ? 1 : 2;
}

static int generate_into(const char *tmp, const struct dataset_spec *s)
{
	size_t bufsize = 1 << 20;
	uint8_t *buf = malloc(bufsize);
	XXH3_state_t *h = XXH3_createState();
	int digits = name_digits(s->files);
	char p[PATH_MAX];
	json_t *m;
	char *txt;
	int ret = 0;

	if (!buf || !h) {
		ret = -ENOMEM;
		goto out;
	}
	XXH3_64bits_reset(h);
	for (uint64_t i = 0; i < s->files && !ret; i++) {
		snprintf(p, sizeof(p), "%s/f%0*llu.txt", tmp, digits,
			 (unsigned long long)i);
		ret = write_one(p, s, i, buf, bufsize, h);
		if (ret && ret != -EINTR)
			error_errno(ret, p, "writing");
	}
	if (ret)
		goto out;
	m = manifest_of(s);
	snprintf(p, sizeof(p), "%016llx", (unsigned long long)XXH3_64bits_digest(h));
	json_object_set_new(m, "xxh3", json_text(p));
	txt = json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(m);
	snprintf(p, sizeof(p), "%s/%s", tmp, DATASET_MANIFEST);
	ret = txt ? write_file_atomic(p, txt, strlen(txt)) : -ENOMEM;
	free(txt);
	if (ret)
		error_errno(ret, p, "writing manifest");
out:
	free(buf);
	XXH3_freeState(h);
	return ret;
}

static int swap_in(const char *tmp, const char *dir, int exists)
{
	char old[PATH_MAX];

	(void)syncfs_dir(tmp); /* the data is on disk before it is visible */
	if (!exists)
		return rename(tmp, dir) < 0 ? -errno : 0;
	snprintf(old, sizeof(old), "%s.old-%d", dir, (int)getpid());
	if (rename(dir, old) < 0)
		return -errno;
	if (rename(tmp, dir) < 0) {
		int err = -errno;

		rename(old, dir);
		return err;
	}
	return rm_rf(old);
}

/* Temporaries (DIR.tmp-PID, DIR.old-PID) of a gen whose PID is gone: a
 * SIGKILL or a crash leaves them, maybe gigabytes; nobody else will. */
static void sweep_stale(const char *dir)
{
	char parent[PATH_MAX], p[PATH_MAX];
	const char *base = strrchr(dir, '/');
	size_t blen;
	struct dirent *de;
	DIR *d;

	if (base && base[1]) {
		snprintf(parent, sizeof(parent), "%.*s", (int)(base - dir), dir);
		if (!parent[0])
			snprintf(parent, sizeof(parent), "/");
		base++;
	} else {
		snprintf(parent, sizeof(parent), ".");
		base = dir;
	}
	blen = strlen(base);
	d = opendir(parent);
	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *t = de->d_name + blen;
		char *end;
		long pid;

		if (strncmp(de->d_name, base, blen) ||
		    (strncmp(t, ".tmp-", 5) && strncmp(t, ".old-", 5)))
			continue;
		pid = strtol(t + 5, &end, 10);
		if (*end || pid <= 0 || pid == getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(p, sizeof(p), "%s/%s", parent, de->d_name);
		warnf("%s: removing the temporary of an interrupted gen (pid %ld)", p, pid);
		rm_rf(p);
	}
	closedir(d);
}

/* The lock file holds its holder's PID, for the one who waits. */
static void mark_holder(int fd)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());

	if (ftruncate(fd, 0) == 0 && pwrite(fd, buf, (size_t)n, 0) != n)
		return; /* only a name for a message: nothing depends on it */
}

static void say_holder(const char *dir, int fd)
{
	char buf[32] = "";
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	int pid = n > 0 ? atoi(buf) : 0;

	if (pid > 0)
		fprintf(stderr, "iostrat: %s: gen %d (another iostrat) is making it; "
			"waiting\n", dir, pid);
	else
		fprintf(stderr, "iostrat: %s: another gen is making it; waiting\n", dir);
}

/* Two gens of one data set at once (two benches, or a user and a bench):
 * the second waits for the first and then finds the set made, instead of
 * failing to rename over it.  The lock is a file beside DIR, .NAME.gen-lock,
 * removed by its holder: a waiter that wakes on a removed file tries again.
 * (Not the parent directory itself: a bench --resume holds the flock of its
 * results directory, which may be that parent.) */
static int lock_dataset(const char *dir, char *path, size_t len, int *fd)
{
	const char *slash = strrchr(dir, '/');
	struct stat a, b;
	bool said = false;
	int ret;

	if ((size_t)snprintf(path, len, "%.*s.%s.gen-lock", slash ? (int)(slash - dir + 1) : 0,
			     dir, slash ? slash + 1 : dir) >= len)
		return error_errno(-ENAMETOOLONG, dir, "data directory");
	if (slash && slash != dir) {
		char parent[PATH_MAX];

		snprintf(parent, sizeof(parent), "%.*s", (int)(slash - dir), dir);
		ret = mkdir_p(parent, 0755);
		if (ret)
			return error_errno(ret, parent, "creating");
	}
	for (;;) {
		*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (*fd < 0)
			return error_errno(-errno, path, "creating the gen lock");
		if (flock(*fd, LOCK_EX | LOCK_NB) < 0) {
			if (errno == EWOULDBLOCK && !said) {
				say_holder(dir, *fd);
				said = true;
			}
			if (errno != EWOULDBLOCK || flock(*fd, LOCK_EX) < 0) {
				ret = -errno;
				close(*fd);
				return ret == -EINTR ? ret : error_errno(ret, path, "locking");
			}
		}
		if (!fstat(*fd, &a) && !stat(path, &b) && a.st_ino == b.st_ino &&
		    a.st_dev == b.st_dev) {
			mark_holder(*fd);
			return 0;
		}
		close(*fd); /* its holder removed it: lock the new one */
	}
}

static int generate_locked(const char *dir, const struct dataset_spec *s, int *reused)
{
	char tmp[PATH_MAX];
	int state = dir_state(dir, s), ret;

	if (state == -EEXIST || state == -EIO)
		return state; /* said */
	if (state < 0)
		return error_errno(state, dir, "data directory");
	if (state == 1) {
		*reused = 1;
		return 0;
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp-%d", dir, (int)getpid()) >=
	    sizeof(tmp))
		return error_errno(-ENAMETOOLONG, dir, "data directory");
	sweep_stale(dir);
	rm_rf(tmp);
	ret = space_check(dir, dataset_bytes(s) + s->files * 4096, dataset_bytes(s),
			  "the data set");
	if (ret)
		return -EIO; /* said */
	ret = mkdir_p(tmp, 0755);
	if (ret)
		return error_errno(ret, tmp, "creating");
	ret = generate_into(tmp, s);
	if (!ret) {
		ret = swap_in(tmp, dir, state != 0);
		if (ret)
			error_errno(ret, dir, "moving the new data set in place");
	}
	if (ret)
		rm_rf(tmp); /* also when stopped by a signal (dataset_stop) */
	return ret;
}

int dataset_generate(const char *dir, const struct dataset_spec *s, int *reused)
{
	char lock_path[PATH_MAX];
	int lock = -1, ret;

	*reused = 0;
	ret = lock_dataset(dir, lock_path, sizeof(lock_path), &lock);
	if (ret)
		return ret;
	ret = generate_locked(dir, s, reused);
	unlink(lock_path);
	close(lock);
	return ret;
}
