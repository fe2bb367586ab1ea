// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <xxhash.h>

#include "dataset.h"
#include "util.h"

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

/* 1 = our manifest and the same parameters, 0 = ours but different,
 * -ENOENT = no manifest (not ours). */
static int manifest_matches(const char *dir, const struct dataset_spec *s)
{
	char p[PATH_MAX];
	json_t *m, *want;
	int same = 1;
	const char *keys[] = { "files", "lines", "width", "seed" };

	snprintf(p, sizeof(p), "%s/%s", dir, DATASET_MANIFEST);
	m = json_load_file(p, 0, NULL);
	if (!m)
		return -ENOENT;
	want = manifest_of(s);
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (json_integer_value(json_object_get(m, keys[i])) !=
		    json_integer_value(json_object_get(want, keys[i])))
			same = 0;
	json_decref(m);
	json_decref(want);
	return same;
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
	if (m == -ENOENT)
		return -EEXIST;
	return m ? 1 : 2;
}

static int generate_into(const char *tmp, const struct dataset_spec *s)
{
	size_t bufsize = 1 << 20;
	uint8_t *buf = malloc(bufsize);
	XXH3_state_t *h = XXH3_createState();
	int digits = snprintf(NULL, 0, "%llu", (unsigned long long)(s->files ? s->files - 1 : 0));
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
		snprintf(p, sizeof(p), "%s/f%0*llu.txt", tmp, MAX(digits, 6),
			 (unsigned long long)i);
		ret = write_one(p, s, i, buf, bufsize, h);
		if (ret)
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
	int fd;

	fd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		syncfs(fd); /* the data is on disk before it is visible */
		close(fd);
	}
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

int dataset_generate(const char *dir, const struct dataset_spec *s, int *reused)
{
	char tmp[PATH_MAX];
	int state = dir_state(dir, s), ret;

	*reused = 0;
	if (state == -EEXIST) {
		errorf("%s: not empty and not an iostrat data set (no %s); refusing "
		       "to overwrite", dir, DATASET_MANIFEST);
		return state;
	}
	if (state < 0)
		return error_errno(state, dir, "data directory");
	if (state == 1) {
		*reused = 1;
		return 0;
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp-%d", dir, (int)getpid()) >=
	    sizeof(tmp))
		return error_errno(-ENAMETOOLONG, dir, "data directory");
	rm_rf(tmp);
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
		rm_rf(tmp);
	return ret;
}
