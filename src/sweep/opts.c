// SPDX-License-Identifier: MIT
/* The sweeps' options: defaults per kind, parsing from argv and profiles, help. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "sweep.h"

#define MAX_BLOCK (1ULL << 30)
#define MAX_FILE (1ULL << 40)
#define MAX_FILES 10000

static const char *const kind_names[] = { "blocksize", "bufsize", "api" };
static const char *const api_names[] = { "syscall", "stdio", "iostream", "mmap" };

int sweep_kind_parse(const char *s, enum sweep_kind *k)
{
	for (int i = 0; i < SWEEP_NKINDS; i++)
		if (!strcmp(s, kind_names[i])) {
			*k = (enum sweep_kind)i;
			return 0;
		}
	return -EINVAL;
}

const char *sweep_kind_name(enum sweep_kind k)
{
	return kind_names[k];
}

const char *sweep_api_name(enum sweep_api a)
{
	return api_names[a];
}

const char *sweep_op_name(enum sweep_op op)
{
	return op == OP_WRITE ? "write" : "read";
}

static void set_sizes(struct sweep_opts *o, const size_t *v, size_t n)
{
	memcpy(o->sizes, v, n * sizeof(*v));
	o->nsizes = n;
}

void sweep_opts_defaults(struct sweep_opts *o, enum sweep_kind kind)
{
	static const size_t bs[] = { 1, 5, 50, 500, 4096, 65536, 1048576 };
	size_t v[SWEEP_MAX_SIZES], n = 0;

	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->reps = 3;
	o->size = 10ULL << 20;
	o->files = 1;
	o->scale = 1.0;
	o->ops = 1u << OP_WRITE | 1u << OP_READ;
	o->cache = CACHE_WARM;
	o->fsync = FSYNC_FILE;
	o->knee_tol = 5.0;
	o->corrupt = getenv("IOSTRAT_SWEEP_CORRUPT");
	switch (kind) {
	case SWEEP_BLOCKSIZE:
		set_sizes(o, bs, sizeof(bs) / sizeof(bs[0]));
		o->apis = 1u << API_SYSCALL | 1u << API_STDIO;
		break;
	case SWEEP_BUFSIZE:
		for (size_t s = 32; s <= (1u << 20); s *= 2)
			v[n++] = s;
		set_sizes(o, v, n);
		o->size = 50000000; /* the study's 10 files x 50 MB */
		o->files = 10;
		o->ops = 1u << OP_READ;
		o->apis = 1u << API_SYSCALL;
		o->cache = CACHE_COLD;
		break;
	default:
		for (size_t s = 32; s <= 32768; s *= 2)
			v[n++] = s;
		v[n++] = SWEEP_WHOLE;
		set_sizes(o, v, n);
		o->apis = (1u << API_N) - 1;
		o->avariants = (1u << AV_N) - 1;
		break;
	}
}

/* ---- error helpers: "--KEY: ..." or "file.ini:12: KEY: ..." ------------- */

static void bad(const char *where, const char *key, const char *val,
		const char *why)
{
	if (where)
		errorf("%s: %s: bad value '%s' (%s)", where, key, val ? val : "", why);
	else
		errorf("--%s: bad value '%s' (%s)", key, val ? val : "", why);
}

static int size_item(const char *where, const char *key, const char *s,
		     uint64_t *v)
{
	int ret = parse_size(s, v);

	if (ret) {
		char why[128];

		snprintf(why, sizeof(why), "'%s' is not a size like 32, 4k, 1M", s);
		bad(where, key, s, why);
		return -EINVAL;
	}
	if (*v == 0 || *v > MAX_BLOCK) {
		bad(where, key, s, "sizes must be 1 byte .. 1 GiB");
		return -ERANGE;
	}
	return 0;
}

static int list_add(const char *where, const char *key, const char *val,
		    size_t *list, size_t *n, size_t v)
{
	if (*n >= SWEEP_MAX_SIZES) {
		bad(where, key, val, "more than 64 sizes");
		return -ERANGE;
	}
	list[(*n)++] = v;
	return 0;
}

/* "A..B": A, 2A, 4A ... up to B */
static int range_item(const char *where, const char *key, const char *val,
		      char *item, size_t *list, size_t *n)
{
	char *dots = strstr(item, "..");
	uint64_t a, b;
	int ret;

	*dots = 0;
	ret = size_item(where, key, item, &a);
	if (!ret)
		ret = size_item(where, key, dots + 2, &b);
	if (ret)
		return ret;
	if (a > b) {
		bad(where, key, val, "a range A..B needs A <= B");
		return -EINVAL;
	}
	for (uint64_t s = a; !ret && s <= b; s *= 2)
		ret = list_add(where, key, val, list, n, (size_t)s);
	return ret;
}

/* Comma-separated sizes, ranges A..B (doubling) and, if allowed, "whole". */
static int parse_size_list(const char *where, const char *key, const char *val,
			   bool allow_whole, size_t *list, size_t *n)
{
	char *copy, *item, *save = NULL;
	int ret = 0;

	if (!val || !*val) {
		bad(where, key, val, "an empty list");
		return -EINVAL;
	}
	if (val[strlen(val) - 1] == ',' || val[0] == ',' || strstr(val, ",,")) {
		bad(where, key, val, "an empty item in the list");
		return -EINVAL;
	}
	copy = strdup(val);
	if (!copy)
		return -ENOMEM;
	*n = 0;
	for (item = strtok_r(copy, ",", &save); !ret && item;
	     item = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (!strcmp(item, "whole") && allow_whole)
			ret = list_add(where, key, val, list, n, SWEEP_WHOLE);
		else if (strstr(item, ".."))
			ret = range_item(where, key, val, item, list, n);
		else if (!(ret = size_item(where, key, item, &v)))
			ret = list_add(where, key, val, list, n, (size_t)v);
	}
	free(copy);
	return ret;
}

/* Comma-separated names of a table into a bit mask. */
static int parse_names(const char *where, const char *key, const char *val,
		       const char *const *names, unsigned count, unsigned *mask)
{
	char *copy, *item, *save = NULL;
	int ret = 0;

	if (!val || !*val || strstr(val, ",,") || val[0] == ',' ||
	    val[strlen(val) - 1] == ',') {
		bad(where, key, val, "a comma-separated list");
		return -EINVAL;
	}
	copy = strdup(val);
	if (!copy)
		return -ENOMEM;
	*mask = 0;
	for (item = strtok_r(copy, ",", &save); !ret && item;
	     item = strtok_r(NULL, ",", &save)) {
		unsigned i;

		for (i = 0; i < count && strcmp(item, names[i]); i++)
			;
		if (i == count) {
			char why[160] = "expected ";

			for (unsigned j = 0; j < count; j++)
				snprintf(why + strlen(why), sizeof(why) - strlen(why),
					 "%s%s", j ? "," : "", names[j]);
			bad(where, key, item, why);
			ret = -EINVAL;
		}
		*mask |= 1u << i;
	}
	free(copy);
	return ret;
}

/* The api sweep's variants: names and aliases (sweep_api_variant_mask). */
static int parse_api_variants(const char *where, const char *key,
			      const char *val, unsigned *mask)
{
	char *copy, *item, *save = NULL;
	int ret = 0;

	if (!val || !*val || strstr(val, ",,") || val[0] == ',' ||
	    val[strlen(val) - 1] == ',') {
		bad(where, key, val, "a comma-separated list");
		return -EINVAL;
	}
	copy = strdup(val);
	if (!copy)
		return -ENOMEM;
	*mask = 0;
	for (item = strtok_r(copy, ",", &save); !ret && item;
	     item = strtok_r(NULL, ",", &save)) {
		unsigned m;
		char why[300];

		if (!sweep_api_variant_mask(item, &m)) {
			*mask |= m;
			continue;
		}
		snprintf(why, sizeof(why), "expected %s", sweep_api_variant_names());
		bad(where, key, item, why);
		ret = -EINVAL;
	}
	free(copy);
	return ret;
}

static int set_size(struct sweep_opts *o, const char *where, const char *key,
		    const char *val)
{
	if (parse_size(val, &o->size)) {
		bad(where, key, val, "a size like 10M, 50000000");
		return -EINVAL;
	}
	if (o->size == 0 || o->size > MAX_FILE) {
		bad(where, key, val, "the file size must be 1 byte .. 1 TiB");
		return -ERANGE;
	}
	return 0;
}

static int set_uint(const char *where, const char *key, const char *val,
		    unsigned min, unsigned max, unsigned *out)
{
	char why[64];
	int ret = parse_uint(val, min, max, out);

	if (!ret)
		return 0;
	snprintf(why, sizeof(why), "a whole number %u..%u", min, max);
	bad(where, key, val, why);
	return ret;
}

static int set_double(const char *where, const char *key, const char *val,
		      double min, double max, double *out)
{
	char why[64];

	if (!parse_double(val, out) && *out >= min && *out <= max)
		return 0;
	snprintf(why, sizeof(why), "a number %g..%g", min, max);
	bad(where, key, val, why);
	return -EINVAL;
}

static int set_enum(struct sweep_opts *o, const char *where, const char *key,
		    const char *val)
{
	if (!strcmp(key, "cache")) {
		if (val && !cache_mode_parse(val, &o->cache))
			return 0;
		bad(where, key, val, "cold, warm or asis");
		return -EINVAL;
	}
	if (val && (!strcmp(val, "file") || !strcmp(val, "none"))) {
		o->fsync = !strcmp(val, "file") ? FSYNC_FILE : FSYNC_NONE;
		return 0;
	}
	bad(where, key, val, "file or none");
	return -EINVAL;
}

void sweep_opt_each(setting_fn fn, void *ctx)
{
	static const char *const keys[] = {
		"out", "dir", "keep", "reps", "size", "sizes", "cache", "fsync",
		"files", "scale", "knee-tol", "buffer", "ops", "apis", "variants",
	};

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		struct setting o = { .name = keys[i], .type = sweep_opt_is_flag(keys[i]) ? SET_BOOL : SET_STRING };

		fn(&o, ctx);
	}
}

bool sweep_opt_is_flag(const char *key)
{
	return !strcmp(key, "keep");
}

int sweep_opt_set(struct sweep_opts *o, const char *where, const char *key,
		  const char *val)
{
	static const char *const op_names[] = { "write", "read" };

	if (!strcmp(key, "keep")) {
		o->keep = true;
		if (!val || !parse_bool(val, &o->keep))
			return 0;
		errorf("%s: %s: bad value '%s' (1/0, true/false, yes/no or on/off)", where ? where : "sweep",
		       key, val);
		return -EINVAL;
	}
	if (!val) {
		if (where)
			errorf("%s: %s: missing value", where, key);
		else
			errorf("--%s: missing value", key);
		return -EINVAL;
	}
	if (!strcmp(key, "out") || !strcmp(key, "dir")) {
		if (!*val) {
			bad(where, key, val, "an empty path");
			return -EINVAL;
		}
		*(!strcmp(key, "out") ? &o->out : &o->dir) = val;
		return 0;
	}
	if (!strcmp(key, "reps"))
		return set_uint(where, key, val, 1, 1000, &o->reps);
	if (!strcmp(key, "size"))
		return set_size(o, where, key, val);
	if (!strcmp(key, "files") && o->kind == SWEEP_BUFSIZE)
		return set_uint(where, key, val, 1, MAX_FILES, &o->files);
	if (!strcmp(key, "scale") && o->kind == SWEEP_BUFSIZE)
		return set_double(where, key, val, 1e-6, 1000, &o->scale);
	if (!strcmp(key, "knee-tol") && o->kind == SWEEP_BUFSIZE)
		return set_double(where, key, val, 0, 1000, &o->knee_tol);
	if (!strcmp(key, "sizes"))
		return parse_size_list(where, key, val, o->kind == SWEEP_API,
				       o->sizes, &o->nsizes);
	if (!strcmp(key, "buffer") && o->kind == SWEEP_BLOCKSIZE)
		return parse_size_list(where, key, val, false, o->buffers,
				       &o->nbuffers);
	if (!strcmp(key, "ops") && o->kind != SWEEP_BUFSIZE)
		return parse_names(where, key, val, op_names, 2, &o->ops);
	if ((!strcmp(key, "apis") || !strcmp(key, "variants")) &&
	    o->kind == SWEEP_API)
		return parse_api_variants(where, key, val, &o->avariants);
	if ((!strcmp(key, "apis") || !strcmp(key, "variants")) &&
	    o->kind != SWEEP_BUFSIZE)
		return parse_names(where, key, val, api_names, API_N, &o->apis);
	if (!strcmp(key, "cache") || !strcmp(key, "fsync"))
		return set_enum(o, where, key, val);
	return -ENOENT;
}

int sweep_opts_check(const struct sweep_opts *o)
{
	double scaled = (double)o->size * o->scale;

	if (o->kind == SWEEP_BUFSIZE && (scaled < 1 || scaled > (double)MAX_FILE)) {
		errorf("--scale: %g x %llu bytes is not a usable file size", o->scale,
		       (unsigned long long)o->size);
		return -EINVAL;
	}
	if (o->kind == SWEEP_BUFSIZE)
		return 0;
	for (size_t i = 0; i < o->nsizes; i++)
		if (o->sizes[i] == SWEEP_WHOLE && o->size > MAX_BLOCK) {
			errorf("--sizes: 'whole' needs --size of at most 1 GiB");
			return -EINVAL;
		}
	return 0;
}

void sweep_opts_help(FILE *f, enum sweep_kind kind)
{
	fputs("common options:\n"
	      "  --out DIR         results directory (default results/<UTC time>-sweep-KIND)\n"
	      "  --dir DIR         where the data files go (default OUT/data); removed\n"
	      "                    afterwards unless --keep\n"
	      "  --keep            keep the data files\n"
	      "  --reps N          measured repetitions per variant (default 3; medians shown)\n"
	      "  --sizes LIST      block/buffer sizes: 1,5,4k,64k or ranges 32..1M (doubling)\n"
	      "  --cache MODE      cold|warm|asis before every read\n", f);
	switch (kind) {
	case SWEEP_BLOCKSIZE:
		fputs("blocksize:\n"
		      "  --size SIZE       file size (default 10MiB)\n"
		      "  --sizes LIST      default 1,5,50,500,4096,65536,1048576\n"
		      "  --ops LIST        write,read (default both, write first)\n"
		      "  --variants LIST   syscall,stdio,iostream,mmap (default syscall,stdio)\n"
		      "  --buffer LIST     also run stdio with these setvbuf buffer sizes\n"
		      "  --fsync MODE      file|none: fsync written files inside the time (file)\n"
		      "  --cache MODE      default warm\n", f);
		break;
	case SWEEP_BUFSIZE:
		fputs("bufsize:\n"
		      "  --files N         number of files (default 10)\n"
		      "  --size SIZE       bytes per file (default 50000000)\n"
		      "  --scale X         multiply the file size (default 1; 0.01 = 500 kB)\n"
		      "  --sizes LIST      default 32..1M\n"
		      "  --knee-tol PCT    knee: the smallest buffer whose median elapsed is\n"
		      "                    within PCT% of the best median (default 5)\n"
		      "  --cache MODE      default cold (caches dropped before every read)\n", f);
		break;
	default:
		fputs("api:\n"
		      "  --size SIZE       file size (default 10MiB)\n"
		      "  --sizes LIST      default 32..32k,whole ('whole' = the file at once)\n"
		      "  --ops LIST        write,read (default both)\n"
		      "  --apis LIST       variants (default all): syscall, stdio-default,\n"
		      "                    iostream-default (the library's own buffer, as the\n"
		      "                    original study), stdio-callsize, iostream-callsize\n"
		      "                    (setvbuf/pubsetbuf = call size), mmap; stdio and\n"
		      "                    iostream name both of theirs, study and callsize a\n"
		      "                    scored set\n"
		      "  --fsync MODE      file|none (default file)\n"
		      "  --cache MODE      default warm\n", f);
	}
}
