// SPDX-License-Identifier: MIT
/*
 * DIR/data.json: where a bench's data sets were and what they held, so a
 * resume measures the rest of the matrix on the same data, on the same
 * filesystem, or refuses.  Without it a resume from another directory
 * regenerated the data under ./data (another disk, while env.json still
 * described the first), and a data set changed between the runs mixed
 * both under one configuration.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <xxhash.h>

#include "lib/util.h"
#include "bench.h"

#define DATAREC "data.json"

/* The device of path, or of its nearest existing ancestor (a data root
 * not created yet lands on that filesystem). */
static int dev_of(const char *path, dev_t *dev)
{
	char p[PATH_MAX];
	struct stat sb;
	char *slash;

	snprintf(p, sizeof(p), "%s", path);
	while (stat(p, &sb) < 0) {
		if (errno != ENOENT)
			return -errno;
		slash = strrchr(p, '/');
		if (!slash)
			snprintf(p, sizeof(p), ".");
		else if (slash == p)
			p[1] = 0;
		else
			*slash = 0;
	}
	*dev = sb.st_dev;
	return 0;
}

/* What a data set holds: its names, sizes and mtimes hashed (a user's
 * directory), or its manifest's xxh3 (a generated one: regenerating the
 * same parameters gives the same bytes, new mtimes). */
static json_t *fingerprint(const struct bench_dataset *ds)
{
	XXH3_state_t *h = XXH3_createState();
	json_t *o = json_object(), *m = NULL;
	char p[PATH_MAX], hex[17];

	if (!h)
		return o;
	XXH3_64bits_reset(h);
	if (!ds->user_dir) {
		snprintf(p, sizeof(p), "%s/.iostrat-manifest.json", ds->dir);
		m = json_load_file(p, 0, NULL);
	}
	if (json_is_string(json_object_get(m, "xxh3"))) {
		const char *x = json_string_value(json_object_get(m, "xxh3"));

		XXH3_64bits_update(h, x, strlen(x));
	} else {
		for (size_t i = 0; i < ds->fl.n; i++) {
			struct stat sb = { 0 };

			snprintf(p, sizeof(p), "%s/%s", ds->dir, ds->fl.names[i]);
			stat(p, &sb);
			XXH3_64bits_update(h, ds->fl.names[i], strlen(ds->fl.names[i]) + 1);
			XXH3_64bits_update(h, &sb.st_size, sizeof(sb.st_size));
			XXH3_64bits_update(h, &sb.st_mtim, sizeof(sb.st_mtim));
		}
	}
	json_decref(m);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)XXH3_64bits_digest(h));
	XXH3_freeState(h);
	json_object_set_new(o, "files", json_integer((json_int_t)ds->fl.n));
	json_object_set_new(o, "bytes", json_integer((json_int_t)ds->fl.total));
	json_object_set_new(o, "fingerprint", json_text(hex));
	return o;
}

int bench_data_record(const struct bench_ctx *ctx, const char *resdir)
{
	char root[PATH_MAX], p[PATH_MAX], *s;
	json_t *o = json_object(), *sets = json_object();
	dev_t dev = 0;
	int ret;

	if (abspath(ctx->data_root, root, sizeof(root)))
		snprintf(root, sizeof(root), "%s", ctx->data_root);
	dev_of(root, &dev);
	json_object_set_new(o, "data_root", json_text(root));
	json_object_set_new(o, "dev", json_integer((json_int_t)dev));
	for (size_t i = 0; i < ctx->nds; i++) {
		char key[PATH_MAX];

		if (abspath(ctx->ds[i]->dir, key, sizeof(key)))
			snprintf(key, sizeof(key), "%s", ctx->ds[i]->dir);
		json_object_set_new(sets, text_escape(key, p, sizeof(p)),
				    fingerprint(ctx->ds[i]));
	}
	json_object_set_new(o, "datasets", sets);
	s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(o);
	snprintf(p, sizeof(p), "%s/%s", resdir, DATAREC);
	ret = s ? write_file_atomic(p, s, strlen(s)) : -ENOMEM;
	free(s);
	return ret ? error_errno(ret, p, "writing") : 0;
}

json_t *bench_data_load(const char *resdir)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", resdir, DATAREC);
	return json_load_file(p, 0, NULL);
}

int bench_data_same_fs(json_t *rec, const char *root, const char *resdir)
{
	dev_t dev = 0;
	json_int_t was = json_integer_value(json_object_get(rec, "dev"));

	if (!rec || !json_object_get(rec, "dev") || dev_of(root, &dev) ||
	    (json_int_t)dev == was)
		return 0;
	errorf("%s: its rows were measured on data under %s (device %u:%u); --data "
	       "%s is on another filesystem (%u:%u): refusing to mix them "
	       "(--data-anywhere to allow)", resdir,
	       json_string_value(json_object_get(rec, "data_root")),
	       major((dev_t)was), minor((dev_t)was), root, major(dev), minor(dev));
	return -EXDEV;
}

int bench_data_check(const struct bench_ctx *ctx, json_t *rec,
		     const char *resdir)
{
	json_t *sets = json_object_get(rec, "datasets");

	for (size_t i = 0; sets && i < ctx->nds; i++) {
		char key[PATH_MAX], esc[PATH_MAX];
		json_t *was, *now;

		if (abspath(ctx->ds[i]->dir, key, sizeof(key)))
			snprintf(key, sizeof(key), "%s", ctx->ds[i]->dir);
		was = json_object_get(sets, text_escape(key, esc, sizeof(esc)));
		if (!was)
			continue; /* moved with --data-anywhere: no record of it */
		now = fingerprint(ctx->ds[i]);
		if (!json_equal(was, now)) {
			errorf("%s: changed since the rows in %s were measured (%lld "
			       "files, %lld bytes then; %lld files, %lld bytes now): "
			       "refusing to mix them; start a new bench", key, resdir,
			       json_integer_value(json_object_get(was, "files")),
			       json_integer_value(json_object_get(was, "bytes")),
			       json_integer_value(json_object_get(now, "files")),
			       json_integer_value(json_object_get(now, "bytes")));
			json_decref(now);
			return -ESTALE;
		}
		json_decref(now);
	}
	return 0;
}
