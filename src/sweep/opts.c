// SPDX-License-Identifier: MIT
/* The sweeps' settings table: argv, profile keys, help, row columns and config_id parts. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "harness/runner.h"
#include "sweep.h"

#define MAX_BLOCK (1ULL << 30)
#define MAX_FILE (1ULL << 40)
#define MAX_FILES 10000
#define O(f) offsetof(struct sweep_opts, f)

static const char *const kind_names[] = { "blocksize", "bufsize", "api" };
static const char *const api_names[] = { "syscall", "stdio", "iostream", "mmap", NULL };
static const char *const op_names[] = { "write", "read", NULL };

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
	return op_names[op];
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
	o->files = 1;
	o->scale = 1.0;
	for (const struct setting *const *t = sweep_kind_cmdopts(kind)->tables; *t; t++)
		settings_defaults(*t, o);
	o->ops = 1u << OP_WRITE | 1u << OP_READ;
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

/* ---- the list values (SET_CALL): errors "--KEY: ..." or "file.ini:12: KEY: ..." */

/* Where s's value came from: the profile line (o->where) or "--NAME". */
static const char *where_of(const struct setting *s, const struct sweep_opts *o,
			    char *buf, size_t len)
{
	if (o->where)
		return o->where;
	snprintf(buf, len, "--%s", s->name);
	return buf;
}

static void bad(const char *where, const char *val, const char *why)
{
	errorf("%s: bad value '%s' (%s)", where, val ? val : "", why);
}

static int size_item(const char *where, const char *s, uint64_t *v)
{
	int ret = parse_size(s, v);

	if (ret) {
		char why[128];

		snprintf(why, sizeof(why), "'%s' is not a size like 32, 4k, 1M", s);
		bad(where, s, why);
		return -EINVAL;
	}
	if (*v == 0 || *v > MAX_BLOCK) {
		bad(where, s, "sizes must be 1 byte .. 1 GiB");
		return -ERANGE;
	}
	return 0;
}

static int list_add(const char *where, const char *val, size_t *list,
		    size_t *n, size_t v)
{
	if (*n >= SWEEP_MAX_SIZES) {
		bad(where, val, "more than 64 sizes");
		return -ERANGE;
	}
	list[(*n)++] = v;
	return 0;
}

/* "A..B": A, 2A, 4A ... up to B */
static int range_item(const char *where, const char *val, char *item,
		      size_t *list, size_t *n)
{
	char *dots = strstr(item, "..");
	uint64_t a, b;
	int ret;

	*dots = 0;
	ret = size_item(where, item, &a);
	if (!ret)
		ret = size_item(where, dots + 2, &b);
	if (ret)
		return ret;
	if (a > b) {
		bad(where, val, "a range A..B needs A <= B");
		return -EINVAL;
	}
	for (uint64_t s = a; !ret && s <= b; s *= 2)
		ret = list_add(where, val, list, n, (size_t)s);
	return ret;
}

/* A comma-separated list with no empty item: 0, or -EINVAL after why. */
static int list_shape(const char *where, const char *val, const char *why)
{
	if (val && *val && val[0] != ',' && val[strlen(val) - 1] != ',' &&
	    !strstr(val, ",,"))
		return 0;
	bad(where, val, why);
	return -EINVAL;
}

/* A size list's destination, for each of its items. */
struct size_items {
	const char *where, *val;
	bool allow_whole;
	size_t *list, *n;
};

static int size_list_item(char *item, void *ctx)
{
	struct size_items *s = ctx;
	uint64_t v;
	int ret;

	if (!strcmp(item, "whole") && s->allow_whole)
		return list_add(s->where, s->val, s->list, s->n, SWEEP_WHOLE);
	if (strstr(item, ".."))
		return range_item(s->where, s->val, item, s->list, s->n);
	ret = size_item(s->where, item, &v);
	return ret ? ret : list_add(s->where, s->val, s->list, s->n, (size_t)v);
}

/* Comma-separated sizes, ranges A..B (doubling) and, if allowed, "whole". */
static int parse_size_list(const char *where, const char *val,
			   bool allow_whole, size_t *list, size_t *n)
{
	struct size_items s = { where, val, allow_whole, list, n };
	int ret = list_shape(where, val, val && *val ? "an empty item in the list" :
			     "an empty list");

	if (ret)
		return ret;
	*n = 0;
	return words_each(val, ",", size_list_item, &s);
}

/* One name of names[count] into *mask, or -EINVAL after one line. */
static int name_bit(const char *where, const char *item,
		    const char *const *names, unsigned count, unsigned *mask)
{
	char why[160] = "expected ";

	for (unsigned i = 0; i < count; i++)
		if (!strcmp(item, names[i])) {
			*mask |= 1u << i;
			return 0;
		}
	for (unsigned j = 0; j < count; j++)
		snprintf(why + strlen(why), sizeof(why) - strlen(why), "%s%s",
			 j ? "," : "", names[j]);
	bad(where, item, why);
	return -EINVAL;
}

/* A variant of the api sweep or an alias (sweep_api_variant_mask). */
static int variant_bits(const char *where, const char *item, unsigned *mask)
{
	char why[300];
	unsigned m;

	if (!sweep_api_variant_mask(item, &m)) {
		*mask |= m;
		return 0;
	}
	snprintf(why, sizeof(why), "expected %s", sweep_api_variant_names());
	bad(where, item, why);
	return -EINVAL;
}

/* A name list's names and mask, for each of its items. */
struct name_items {
	const char *where;
	const char *const *names;
	unsigned count, *mask;
};

static int name_item(char *item, void *ctx)
{
	struct name_items *s = ctx;

	return s->names ? name_bit(s->where, item, s->names, s->count, s->mask)
			: variant_bits(s->where, item, s->mask);
}

/* Comma-separated names into a bit mask: names[count], or (names NULL)
 * the api sweep's variants. */
static int parse_names(const char *where, const char *val,
		       const char *const *names, unsigned count, unsigned *mask)
{
	struct name_items s = { where, names, count, mask };
	int ret = list_shape(where, val, "a comma-separated list");

	if (ret)
		return ret;
	*mask = 0;
	return words_each(val, ",", name_item, &s);
}

/* sizes= / block=: the block (bufsize: buffer) sizes; api also takes whole */
static int set_size_list(const struct setting *s, const char *v, void *obj)
{
	struct sweep_opts *o = obj;
	char w[64];

	return parse_size_list(where_of(s, o, w, sizeof(w)), v,
			       o->kind == SWEEP_API, o->sizes, &o->nsizes);
}

/* buffer=: blocksize's extra stdio buffers */
static int set_buffer_list(const struct setting *s, const char *v, void *obj)
{
	struct sweep_opts *o = obj;
	char w[64];

	return parse_size_list(where_of(s, o, w, sizeof(w)), v, false,
			       o->buffers, &o->nbuffers);
}

static int set_op_list(const struct setting *s, const char *v, void *obj)
{
	struct sweep_opts *o = obj;
	char w[64];

	return parse_names(where_of(s, o, w, sizeof(w)), v, op_names, 2, &o->ops);
}

/* apis= / variants=: the api sweep's variants, or blocksize's APIs */
static int set_api_list(const struct setting *s, const char *v, void *obj)
{
	struct sweep_opts *o = obj;
	char w[64];

	if (o->kind == SWEEP_API)
		return parse_names(where_of(s, o, w, sizeof(w)), v, NULL, 0,
				   &o->avariants);
	return parse_names(where_of(s, o, w, sizeof(w)), v, api_names, API_N,
			   &o->apis);
}

/* ---- the table ----------------------------------------------------------- */


#define SIZES_HELP "block/buffer sizes: 1,5,4k,64k or ranges 32..1M (doubling);\n" \
	"default blocksize 1,5,50,500,4096,65536,1048576, bufsize 32..1M,\n" \
	"api 32..32k,whole ('whole' = the file at once)"
#define OPS_HELP "blocksize, api: write,read (default both, write first)"
#define APIS_HELP "blocksize: syscall,stdio,iostream,mmap (default syscall,stdio);\n" \
	"api: the variants (default all): syscall, stdio-default,\n" \
	"iostream-default (the library's own buffer, as the original\n" \
	"study), stdio-callsize, iostream-callsize (setvbuf/pubsetbuf =\n" \
	"call size), mmap; stdio and iostream name both of theirs, study\n" \
	"and callsize a scored set"
/* --apis and its blocksize spelling --variants: one setting, two names. */
#define APIS_SETTING                                                  \
	SETTING_CALL(struct sweep_opts, apis), .arg = true,           \
	.call = set_api_list, .metavar = "LIST", .where = SET_BOTH

/*
 * Every sweep's settings.  A list (sizes, ops, apis, buffer) is a SET_CALL
 * entry that collects it: on argv it expands into configurations, in a
 * bench section it must hold one value (engine/kind_sweep.c).  Profile-only entries
 * are the keys a section may also use (block=, op=, api=).  cache and
 * fsync are typed: their columns and config_id parts come from here.
 */
const struct setting sweep_settings[] = {
	{ .name = "out", SETTING_STRING(struct sweep_opts, out), .metavar = "DIR",
	  .where = SET_ARGV,
	  .help = "results directory (default results/<UTC time>-sweep-KIND)" },
	{ .name = "dir", SETTING_STRING(struct sweep_opts, dir), .metavar = "DIR",
	  .where = SET_ARGV,
	  .help = "where the data files go (default OUT/data); removed\n"
		  "afterwards unless --keep" },
	{ .name = "keep", SETTING_BOOL(struct sweep_opts, keep), .def = "0",
	  .where = SET_ARGV, .help = "keep the data files" },
	{ .name = "reps", SETTING_UINT(struct sweep_opts, reps), .min = 1, .max = 1000,
	  .def = "3", .metavar = "N", .where = SET_ARGV,
	  .help = "measured repetitions per variant (default 3; medians shown)" },
	{ .name = "size", SETTING_SIZE(struct sweep_opts, size), .min = 1, .max = MAX_FILE,
	  .def = "10M", .metavar = "SIZE", .where = SET_BOTH,
	  .help = "file size (blocksize, api: default 10MiB; bufsize: bytes\n"
		  "per file, default 50000000)" },
	{ .name = "sizes", SETTING_CALL(struct sweep_opts, sizes),
	  .arg = true, .call = set_size_list,
	  .metavar = "LIST", .where = SET_BOTH, .help = SIZES_HELP,
	  .aliases = "block|block_size" },
	{ .name = "cache", SETTING_ENUM(struct sweep_opts, cache),
	  .values = cache_mode_names,
	  .def = "warm", .where = SET_BOTH, .column = "cache", .id = "%s",
	  .help = "before every read (blocksize, api: default warm;\n"
		  "bufsize: cold, caches dropped before every read)" },
	{ .name = "fsync", SETTING_ENUM(struct sweep_opts, fsync),
	  .values = fsync_mode_names,
	  .def = "file", .metavar = "file|none", .where = SET_BOTH,
	  .column = "fsync", .id = "fsync=%s",
	  .help = "blocksize, api: fsync written files inside the time\n"
		  "(default file)" },
	{ 0 },
};

/*
 * What one configuration is, beside sweep_settings' cache and fsync: its
 * row columns and, in table order, its config_id parts
 * (DATASET/sweep-KIND/VARIANT/OP/BLOCK[/whole]/CACHE/fsync=F, made by
 * config_id_make in sweep_add_cfg).  Not options: a list option or a
 * section's key chooses them.
 */
const struct setting sweep_point_settings[] = {
	{ .name = "variant", SETTING_STRING(struct sweep_point, variant),
	  .column = "variant", .id = "%s" },
	{ .name = "operation", SETTING_ENUM(struct sweep_point, op), .values = op_names,
	  .column = "operation", .id = "%s" },
	{ .name = "api", SETTING_ENUM(struct sweep_point, api), .values = api_names,
	  .column = "api" },
	{ .name = "block_size", SETTING_SIZE(struct sweep_point, block),
	  .column = "block_size", .id = "%s" },
	{ .name = "whole_file", SETTING_BOOL(struct sweep_point, whole),
	  .column = "whole_file", .id = "whole" },
	{ 0 },
};

/* blocksize and api: what runs */
const struct setting sweep_rw_settings[] = {
	{ .name = "ops", SETTING_CALL(struct sweep_opts, ops),
	  .arg = true, .call = set_op_list,
	  .metavar = "LIST", .where = SET_BOTH, .help = OPS_HELP,
	  .aliases = "op|operation" },
	{ .name = "apis", APIS_SETTING, .help = APIS_HELP, .aliases = "api|variant" },
	{ .name = "variants", APIS_SETTING, .help = "the same as --apis" },
	{ 0 },
};

const struct setting sweep_blocksize_settings[] = {
	{ .name = "buffer", SETTING_CALL(struct sweep_opts, buffers),
	  .arg = true, .call = set_buffer_list,
	  .metavar = "LIST", .where = SET_BOTH,
	  .help = "blocksize: also run stdio with these setvbuf buffer sizes" },
	{ 0 },
};

const struct setting sweep_bufsize_settings[] = {
	{ .name = "files", SETTING_UINT(struct sweep_opts, files), .min = 1,
	  .max = MAX_FILES, .def = "10", .metavar = "N", .where = SET_BOTH,
	  .help = "bufsize: number of files (default 10)" },
	{ .name = "scale", SETTING_DOUBLE(struct sweep_opts, scale), .max = 1000,
	  .def = "1", .metavar = "X", .where = SET_BOTH,
	  .help = "bufsize: multiply the file size (default 1; 0.01 = 500 kB)" },
	{ .name = "knee-tol", SETTING_DOUBLE(struct sweep_opts, knee_tol), .max = 1000,
	  .def = "5", .metavar = "PCT", .where = SET_BOTH,
	  .help = "bufsize: the knee is the smallest buffer whose median\n"
		  "elapsed is within PCT% of the best median (default 5)" },
	{ 0 },
};

static void usage_of(FILE *f, enum sweep_kind k)
{
	fprintf(f, "usage: iostrat sweep %s [options]\n\n", sweep_kind_name(k));
}

static void blocksize_usage(FILE *f)
{
	usage_of(f, SWEEP_BLOCKSIZE);
}

static void bufsize_usage(FILE *f)
{
	usage_of(f, SWEEP_BUFSIZE);
}

static void api_usage(FILE *f)
{
	usage_of(f, SWEEP_API);
}

/* The options of each sweep, in the order of enum sweep_kind. */
static const struct cmd_opts kind_cmdopts[SWEEP_NKINDS] = {
	{ .cmd = "sweep blocksize", .usage = blocksize_usage,
	  .tables = { sweep_settings, sweep_rw_settings, sweep_blocksize_settings } },
	{ .cmd = "sweep bufsize", .usage = bufsize_usage,
	  .tables = { sweep_settings, sweep_bufsize_settings } },
	{ .cmd = "sweep api", .usage = api_usage,
	  .tables = { sweep_settings, sweep_rw_settings } },
};

const struct cmd_opts *sweep_kind_cmdopts(enum sweep_kind k)
{
	return &kind_cmdopts[k];
}

const struct setting *sweep_setting_find(enum sweep_kind k, const char *key,
					 unsigned where)
{
	const struct cmd_opts *c = &kind_cmdopts[k];

	for (int t = 0; t < CMD_MAX_TABLES && c->tables[t]; t++) {
		const struct setting *s = setting_find(c->tables[t], key);

		if (s && (s->where & where))
			return s;
	}
	return NULL;
}

/* A sweep fsyncs each written file before close, or not: no "end". */
static int fsync_check(const struct sweep_opts *o, const char *where)
{
	if (o->fsync != FSYNC_END)
		return 0;
	errorf("%s: bad value 'end' (file or none)", where);
	return -EINVAL;
}

int sweep_opt_set(struct sweep_opts *o, const struct setting *s,
		  const char *where, const char *value)
{
	int ret;

	o->where = where;
	ret = setting_store(s, o, where, value);
	o->where = NULL;
	return ret ? ret : s->off == O(fsync) ? fsync_check(o, where) : 0;
}

unsigned sweep_opt_count(const struct setting *s, const struct sweep_opts *o,
			 const char **what)
{
	*what = NULL;
	if (s->off == O(ops)) {
		*what = "operation";
		return (unsigned)__builtin_popcount(o->ops);
	}
	if (s->off == O(apis) && o->kind == SWEEP_API) {
		*what = "variant (e.g. stdio-default or stdio-callsize)";
		return (unsigned)__builtin_popcount(o->avariants);
	}
	if (s->off == O(apis)) {
		*what = "api";
		return (unsigned)__builtin_popcount(o->apis);
	}
	if (s->off == O(sizes) || s->off == O(buffers))
		*what = s->off == O(sizes) ? "block size" : "buffer";
	return s->off == O(sizes) ? (unsigned)o->nsizes :
	       s->off == O(buffers) ? (unsigned)o->nbuffers : 1;
}

/* An empty path is no path. */
static int path_check(const char *v, const char *opt)
{
	if (!v || *v)
		return 0;
	errorf("%s: bad value '' (an empty path)", opt);
	return -EINVAL;
}

int sweep_opts_check(const struct sweep_opts *o)
{
	double scaled = (double)o->size * o->scale;

	if (path_check(o->out, "--out") || path_check(o->dir, "--dir") ||
	    fsync_check(o, "--fsync"))
		return -EINVAL;
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
