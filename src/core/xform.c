// SPDX-License-Identifier: MIT
/* Transforms loaded (built-in or dlopen'd plug-in) and run over whole-record buffers (xform.h). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <xxhash.h>

#include "xform.h"
#include "lib/util.h"

/* spec into its name or path and its ARG (after the first ':') */
static void split_spec(const char *spec, struct xform *x, char *what, size_t len)
{
	const char *colon = strchr(spec, ':');
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);

	snprintf(x->spec, sizeof(x->spec), "%s", spec);
	snprintf(what, len, "%.*s", (int)MIN(n, len - 1), spec);
	snprintf(x->arg, sizeof(x->arg), "%s", colon ? colon + 1 : "");
}

static int load_builtin(const char *name, struct xform *x, char *why, size_t len)
{
	char names[256] = "";

	for (const struct xform_builtin *b = xform_builtins; b->name; b++) {
		if (!strcmp(b->name, name)) {
			x->t = b->t;
			x->in_place = b->in_place;
			snprintf(x->name, sizeof(x->name), "%s", b->name);
			return 0;
		}
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 names[0] ? ", " : "", b->name);
	}
	snprintf(why, len, "transform '%s': no such built-in (%s; or a plug-in: "
		 "PATH.so[:ARG], with a '/')", name, names);
	return -ENOENT;
}

/* xxh3-64 of the file at path into hex: 0 or -errno */
static int file_hash(const char *path, char hex[17])
{
	char *data;
	size_t n;
	int ret = read_file_small(path, &data, &n);

	if (ret)
		return ret;
	snprintf(hex, 17, "%016llx", (unsigned long long)XXH3_64bits(data, n));
	free(data);
	return 0;
}

static int check_abi(const struct iostrat_transform *t, const char *path,
		     char *why, size_t len)
{
	if (t->abi != IOSTRAT_TRANSFORM_ABI) {
		snprintf(why, len, "%s: transform ABI %u, this iostrat speaks %d "
			 "(rebuild it against iostrat/transform.h)", path, t->abi,
			 IOSTRAT_TRANSFORM_ABI);
		return -EPROTO;
	}
	if (!t->name || !*t->name || strpbrk(t->name, " \t\n/,=") || !t->record ||
	    !t->out_max || (t->kind == IOSTRAT_RECORD_FIXED &&
			    (!t->record_size || t->record_size > IOSTRAT_RECORD_MAX)) ||
	    (t->kind != IOSTRAT_RECORD_LINE && t->kind != IOSTRAT_RECORD_FIXED)) {
		snprintf(why, len, "%s: %s is incomplete (a name of one word, record() "
			 "and out_max(), a record kind, a fixed record size of 1 to %u)",
			 path, IOSTRAT_TRANSFORM_SYMBOL, IOSTRAT_RECORD_MAX);
		return -EINVAL;
	}
	return 0;
}

static int load_plugin(const char *path, struct xform *x, char *why, size_t len)
{
	const struct iostrat_transform *t;
	int ret;

	x->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!x->dl) {
		snprintf(why, len, "%s: cannot load the transform: %s", path, dlerror());
		return -ENOEXEC;
	}
	t = dlsym(x->dl, IOSTRAT_TRANSFORM_SYMBOL);
	if (!t) {
		snprintf(why, len, "%s: no symbol %s (define it with "
			 "IOSTRAT_TRANSFORM_DEFINE)", path, IOSTRAT_TRANSFORM_SYMBOL);
		return -ENOENT;
	}
	ret = check_abi(t, path, why, len);
	if (!ret && (ret = file_hash(path, x->hash)))
		snprintf(why, len, "%s: %s", path, strerror(-ret));
	if (ret)
		return ret;
	x->t = t;
	snprintf(x->name, sizeof(x->name), "%s", t->name);
	return 0;
}

int xform_load(const char *spec, struct xform *x, char *why, size_t len)
{
	char what[PATH_MAX];
	struct xform_worker w;
	int ret;

	memset(x, 0, sizeof(*x));
	split_spec(spec, x, what, sizeof(what));
	ret = strchr(what, '/') ? load_plugin(what, x, why, len) :
	      load_builtin(what, x, why, len);
	if (!ret)
		snprintf(x->id, sizeof(x->id), "%s%s%.8s%s%.200s", x->name,
			 x->hash[0] ? "." : "", x->hash, x->arg[0] ? ":" : "", x->arg);
	if (!ret && (ret = xform_worker_init(x, &w)))
		snprintf(why, len, "transform %s: init('%s'): %s", x->name, x->arg,
			 strerror(-ret));
	else if (!ret)
		xform_worker_fini(&w);
	if (ret)
		xform_unload(x);
	return ret;
}

int xform_load_default(struct xform *x)
{
	char why[64];

	return xform_load("xor", x, why, sizeof(why));
}

void xform_unload(struct xform *x)
{
	if (x->dl)
		dlclose(x->dl);
	x->dl = NULL;
	x->t = NULL;
}

int xform_worker_init(const struct xform *x, struct xform_worker *w)
{
	int ret;

	w->x = x;
	w->state = NULL;
	if (!x->t->init)
		return 0;
	ret = x->t->init(x->arg, &w->state);
	if (ret)
		w->x = NULL; /* no state: fini never runs for it */
	return ret > 0 ? -EINVAL : ret;
}

void xform_worker_fini(struct xform_worker *w)
{
	if (w->x && w->x->t->fini)
		w->x->t->fini(w->state);
	w->state = NULL;
}

/* The length of the record at in[0..len) and whether a newline ends it. */
static size_t record_len(const struct iostrat_transform *t, const uint8_t *in,
			 size_t len, bool *nl)
{
	const uint8_t *e;

	*nl = false;
	if (t->kind == IOSTRAT_RECORD_FIXED)
		return MIN(len, t->record_size);
	e = memchr(in, '\n', len);
	*nl = e != NULL;
	return e ? (size_t)(e - in) : len;
}

size_t xform_out_bound(const struct xform *x, const uint8_t *in, size_t len)
{
	size_t room = 0, n;
	bool nl;

	for (size_t at = 0; at < len; at += n + nl) {
		n = record_len(x->t, in + at, len - at, &nl);
		room += x->t->out_max(n) + nl;
	}
	return room;
}

ssize_t xform_run(struct xform_worker *w, const uint8_t *in, size_t len, uint8_t *out)
{
	const struct iostrat_transform *t = w->x->t;
	uint8_t *o = out;
	size_t n;
	bool nl;

	for (size_t at = 0; at < len; at += n + nl) {
		ssize_t r;

		n = record_len(t, in + at, len - at, &nl);
		if (n > IOSTRAT_RECORD_MAX)
			return -E2BIG;
		r = t->record(w->state, in + at, n, o);
		if (r < 0)
			return r;
		if ((size_t)r > t->out_max(n))
			return -EOVERFLOW;
		o += r;
		if (r && nl)
			*o++ = '\n';
	}
	return o - out;
}

size_t xform_whole(const struct xform *x, const uint8_t *in, size_t len)
{
	const uint8_t *nl;

	if (x->t->kind == IOSTRAT_RECORD_FIXED)
		return len - len % x->t->record_size;
	nl = memrchr(in, '\n', len);
	return nl ? (size_t)(nl - in) + 1 : 0;
}

#define XFORM_CACHED 16

const struct xform *xform_get(const char *spec, char *why, size_t len)
{
	static struct xform loaded[XFORM_CACHED];
	static size_t n;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(loaded[i].spec, spec) || !strcmp(loaded[i].id, spec))
			return &loaded[i];
	if (n == XFORM_CACHED) {
		snprintf(why, len, "transform %s: more than %d transforms in one run",
			 spec, XFORM_CACHED);
		return NULL;
	}
	if (xform_load(spec, &loaded[n], why, len))
		return NULL;
	return &loaded[n++];
}


const char *xform_strerror(int err)
{
	if (err == -E2BIG)
		return "a record longer than IOSTRAT_RECORD_MAX (16 MiB)";
	if (err == -EOVERFLOW)
		return "an output longer than its out_max() allowed";
	return strerror(-err);
}
