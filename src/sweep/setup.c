// SPDX-License-Identifier: MIT
/* The directories and data files of a sweep, and cleaning up after it. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "harness/env.h"
#include "core/filelist.h"
#include "results/results.h"
#include "lib/util.h"
#include "pattern.h"
#include "sweep.h"

#define SPACE_MARGIN (64ULL << 20)

/* No --out: a new results/TIME-sweep-KIND (results_make_default_dir). */
static int default_out(struct sweep_run *r, const struct sweep_opts *o)
{
	char name[64];
	int ret;

	snprintf(name, sizeof(name), "sweep-%s", sweep_kind_name(o->kind));
	ret = results_make_default_dir(r->out, sizeof(r->out), name);
	if (ret)
		return error_errno(ret, r->out, "creating results directory");
	r->made_out = true;
	return 0;
}

/* --dir: an existing writable directory, or one we create (and remove). */
static int data_dir(struct sweep_run *r)
{
	struct stat sb;
	int ret;

	if (stat(r->dir, &sb) == 0) {
		if (!S_ISDIR(sb.st_mode)) {
			errorf("%s: data directory: not a directory", r->dir);
			return -ENOTDIR;
		}
	} else if (errno != ENOENT) {
		return error_errno(-errno, r->dir, "data directory");
	} else {
		ret = mkdir_p(r->dir, 0755);
		if (ret)
			return error_errno(ret, r->dir, "creating data directory");
		r->made_dir = true;
	}
	if (access(r->dir, W_OK | X_OK) < 0)
		return error_errno(-errno, r->dir, "data directory not writable");
	return 0;
}

/* The results directory first, so an unwritable --out is named as such. */
static int out_dir(struct sweep_run *r)
{
	int ret;

	if (access(r->out, F_OK) == 0)
		return 0;
	ret = mkdir_p(r->out, 0755);
	if (ret)
		return error_errno(ret, r->out, "creating results directory");
	r->made_out = true;
	return 0;
}

/* A start that failed leaves nothing behind. */
static void undo_dirs(struct sweep_run *r)
{
	if (r->made_dir)
		rm_rf(r->dir);
	if (r->made_out)
		rm_rf(r->out);
	r->made_dir = r->made_out = false;
}

static int check_space(const char *dir, uint64_t need)
{
	struct statvfs sv;
	uint64_t avail;

	if (statvfs(dir, &sv) < 0)
		return error_errno(-errno, dir, "statvfs");
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (avail < need + SPACE_MARGIN) {
		errorf("%s: the sweep needs %llu MB of free space here, %llu MB are free",
		       dir, (unsigned long long)((need + SPACE_MARGIN) / 1000000),
		       (unsigned long long)(avail / 1000000));
		return -ENOSPC;
	}
	return 0;
}

static int make_filelist(struct sweep_run *r)
{
	struct filelist *fl = calloc(1, sizeof(*fl));

	r->fl = fl;
	if (!fl)
		return -ENOMEM;
	fl->names = calloc(r->ndata, sizeof(char *));
	fl->sizes = calloc(r->ndata, sizeof(uint64_t));
	if (!fl->names || !fl->sizes)
		return -ENOMEM;
	for (size_t i = 0; i < r->ndata; i++) {
		fl->names[i] = strdup(strrchr(r->data[i], '/') + 1);
		if (!fl->names[i])
			return -ENOMEM;
		fl->sizes[i] = r->data_size;
		fl->n = i + 1;
		fl->total += r->data_size;
	}
	return 0;
}

/* Create the files to read, and the references of what reads and writes
 * must produce: xxh3 of the pattern, not of the files, so a bad file
 * would show too. */
static int make_data(struct sweep_run *r, unsigned nfiles)
{
	XXH3_state_t *st = XXH3_createState();
	char p[PATH_MAX + 32];
	int ret = 0;

	r->data = calloc(nfiles, sizeof(char *));
	if (!r->data || !st) {
		XXH3_freeState(st);
		return error_errno(-ENOMEM, r->dir, "data files");
	}
	XXH3_64bits_reset(st);
	for (unsigned i = 0; !ret && i < nfiles; i++) {
		snprintf(p, sizeof(p), "%s/sweep-data-%02u.dat", r->dir, i);
		r->data[i] = strdup(p);
		if (!r->data[i]) {
			ret = -ENOMEM;
			break;
		}
		r->ndata = i + 1;
		ret = pattern_write_file(p, 1 + i, r->data_size);
		if (!ret)
			ret = pattern_feed(st, 1 + i, r->data_size);
	}
	r->ref_read = XXH3_64bits_digest(st);
	XXH3_freeState(st);
	if (ret)
		return error_errno(ret, p, "creating data file");
	ret = make_filelist(r);
	return ret ? error_errno(ret, r->dir, "data files") : 0;
}

/* --dir, space, references, env: everything before the files */
static int data_prepare(struct sweep_run *r, unsigned nfiles, uint64_t size,
			bool need_read, bool need_write)
{
	/* "in", as a bench labels its data: report shows the disk */
	const char *labels[] = { "in", NULL }, *paths[] = { r->dir, NULL };
	int ret = data_dir(r);

	if (!ret)
		ret = check_space(r->dir, (need_read ? nfiles : 0) * size +
				  (need_write ? size : 0));
	if (ret)
		return ret;
	snprintf(r->wpath, sizeof(r->wpath), "%s/sweep-write.dat", r->dir);
	r->ref_write = pattern_checksum(1, size);
	r->env = env_capture(labels, paths);
	return 0;
}

int sweep_data_setup(struct sweep_run *r, const struct sweep_opts *o,
		     unsigned nfiles, uint64_t size)
{
	int ret;

	r->o = o;
	r->data_size = size;
	snprintf(r->dir, sizeof(r->dir), "%s", o->dir);
	ret = data_prepare(r, nfiles, size, true, true);
	return ret ? ret : make_data(r, nfiles);
}

int sweep_setup(struct sweep_run *r, const struct sweep_opts *o,
		unsigned nfiles, uint64_t size, bool need_write)
{
	bool need_read = o->ops & (1u << OP_READ);
	int ret;

	r->o = o;
	r->data_size = size;
	if (o->out)
		snprintf(r->out, sizeof(r->out), "%s", o->out);
	else if ((ret = default_out(r, o)))
		return ret;
	if (o->dir)
		snprintf(r->dir, sizeof(r->dir), "%s", o->dir);
	else
		snprintf(r->dir, sizeof(r->dir), "%s/data", r->out);
	ret = out_dir(r);
	if (!ret)
		ret = data_prepare(r, nfiles, size, need_read, need_write);
	if (!ret) /* refused before the data is made; the engine writes it */
		ret = results_check_fresh(r->out, false);
	if (ret) {
		undo_dirs(r);
		return ret;
	}
	return need_read ? make_data(r, nfiles) : 0;
}

void sweep_data_free(struct sweep_run *r)
{
	for (size_t i = 0; i < r->ndata; i++)
		free(r->data[i]);
	free(r->data);
	if (r->fl)
		filelist_free(r->fl);
	free(r->fl);
	for (size_t i = 0; i < r->ncfgs; i++) {
		free(r->cfgs[i].el);
		free(r->cfgs[i].us);
		free(r->cfgs[i].sy);
		free(r->cfgs[i].sc);
	}
	free(r->cfgs);
	json_decref(r->env);
	memset(r, 0, sizeof(*r));
}

int sweep_teardown(struct sweep_run *r, int status)
{
	if (!r->o->keep) {
		for (size_t i = 0; i < r->ndata; i++)
			unlink(r->data[i]);
		unlink(r->wpath);
		if (r->made_dir && rmdir(r->dir) < 0 && errno != ENOENT)
			warnf("%s: not removed: %s", r->dir, strerror(errno));
	}
	sweep_data_free(r);
	return status;
}
