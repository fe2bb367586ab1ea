// SPDX-License-Identifier: MIT
/* One repetition of a sweep configuration (a forked child, verified, a
 * result row), and `iostrat sweep`'s run: set up, build, run (through
 * o->through), tables, tear down. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/checksum.h"
#include "harness/env.h"
#include "harness/runner.h"
#include "results/row.h"
#include "results/stats_math.h"
#include "harness/stop.h"
#include "lib/util.h"
#include "sweep.h"

/* A stop signal wakes the measurement loop (measure.c) at once. */
static bool stop_measure(int sig, unsigned count)
{
	(void)sig;
	(void)count;
	measure_stop = 1;
	return false;
}

const char *sweep_size_str(size_t v, bool whole, char *buf, size_t len)
{
	if (whole)
		snprintf(buf, len, "whole");
	else if (v >= (1u << 20) && v % (1u << 20) == 0)
		snprintf(buf, len, "%zuM", v >> 20);
	else if (v >= 1024 && v % 1024 == 0)
		snprintf(buf, len, "%zuK", v >> 10);
	else
		snprintf(buf, len, "%zu", v);
	return buf;
}

variant_fn sweep_variant_fn(enum sweep_api api, enum sweep_op op)
{
	static const variant_fn fns[API_N][2] = {
		[API_SYSCALL] = { raw_write, raw_read },
		[API_STDIO] = { stdio_write, stdio_read },
		[API_IOSTREAM] = { iostream_write, iostream_read },
		[API_MMAP] = { mmap_write, mmap_read },
	};

	return fns[api][op];
}

struct sweep_point sweep_point_of(const struct sweep_cfg *c)
{
	return (struct sweep_point){ .variant = c->variant, .op = (int)c->op,
		.api = (int)c->api, .block = c->block, .whole = c->whole };
}

const char *sweep_dataset(const struct sweep_run *r, const struct sweep_cfg *c,
			  char *buf, size_t len)
{
	unsigned files = r->o->kind == SWEEP_BUFSIZE ? r->o->files : 1;

	snprintf(buf, len, "%ux%llu", c->op == OP_READ ? files : 1,
		 (unsigned long long)r->data_size);
	return buf;
}

/* The one id of c, for `iostrat sweep` and a bench's sections alike:
 * groups the repetitions of one configuration. */
static void sweep_cfg_id(const struct sweep_run *r, struct sweep_cfg *c)
{
	const struct sweep_point pt = sweep_point_of(c);
	const struct setting *const tables[] = { sweep_point_settings,
						 sweep_settings, NULL };
	const void *const objs[] = { &pt, r->o };
	char ds[64], head[32];

	snprintf(head, sizeof(head), "sweep-%s", sweep_kind_name(r->o->kind));
	config_id_make(c->id, sizeof(c->id), sweep_dataset(r, c, ds, sizeof(ds)),
		       head, tables, objs);
}

struct sweep_cfg *sweep_add_cfg(struct sweep_run *r, enum sweep_op op,
				enum sweep_api api, size_t block, bool whole,
				size_t lib_buf)
{
	struct sweep_cfg *nc = realloc(r->cfgs, (r->ncfgs + 1) * sizeof(*nc)), *c;
	unsigned reps = r->o->reps;

	if (!nc)
		return NULL;
	r->cfgs = nc;
	c = &nc[r->ncfgs];
	memset(c, 0, sizeof(*c));
	c->el = calloc(reps, sizeof(double));
	c->us = calloc(reps, sizeof(double));
	c->sy = calloc(reps, sizeof(double));
	c->sc = calloc(reps, sizeof(double));
	r->ncfgs++; /* counted now, so teardown frees what was allocated */
	if (!c->el || !c->us || !c->sy || !c->sc)
		return NULL;
	c->op = op;
	c->api = api;
	c->block = whole ? (size_t)r->data_size : block;
	c->whole = whole;
	c->lib_buf = lib_buf;
	c->fn = sweep_variant_fn(api, op);
	if (r->o->kind == SWEEP_BLOCKSIZE && api == API_STDIO && lib_buf)
		snprintf(c->variant, sizeof(c->variant), "stdio-%zu", lib_buf);
	else
		snprintf(c->variant, sizeof(c->variant), "%s", sweep_api_name(api));
	sweep_cfg_id(r, c);
	return c;
}

struct sweep_cfg *sweep_add_api_cfg(struct sweep_run *r, enum sweep_op op,
				    enum api_variant av, size_t block, bool whole)
{
	const struct api_variant_def *d = sweep_api_variant(av);
	size_t call = whole ? (size_t)r->data_size : block;
	struct sweep_cfg *c = sweep_add_cfg(r, op, d->api, block, whole,
					    sweep_api_libbuf(av, call));

	if (!c)
		return NULL;
	c->av = av;
	snprintf(c->variant, sizeof(c->variant), "%s", d->name);
	sweep_cfg_id(r, c);
	return c;
}

/* ---- one repetition ----------------------------------------------------- */

static json_t *new_row(const struct sweep_run *r, const struct sweep_cfg *c,
		       unsigned rep)
{
	const struct sweep_opts *o = r->o;
	json_t *row = row_new(o->bench ? o->bench : NULL, "sweep");
	json_t *data = json_object_get(r->env, "in");
	const struct sweep_point pt = sweep_point_of(c);
	char bench[64], ds[64];

	if (!o->bench) {
		snprintf(bench, sizeof(bench), "sweep-%s", sweep_kind_name(o->kind));
		json_object_set_new(row, "bench", json_text(bench));
	}
	json_object_set_new(row, RC_CONFIG_ID, json_text(c->id));
	json_object_set_new(row, "rep", json_integer(rep));
	json_object_set_new(row, RC_DATASET, json_text(sweep_dataset(r, c, ds, sizeof(ds))));
	json_object_set_new(row, "files", json_integer(c->op == OP_READ ?
						       (json_int_t)r->ndata : 1));
	json_object_set_new(row, RC_STRATEGY, json_text(c->variant));
	json_object_set_new(row, RC_THREADS, json_integer(1));
	json_object_set_new(row, "direct", json_false());
	env_row(row, data);
	/* the sweep's own columns, after the core ones */
	json_object_set_new(row, "sweep", json_text(sweep_kind_name(o->kind)));
	settings_row(sweep_point_settings, &pt, row);
	json_object_set_new(row, "file_size", json_integer((json_int_t)r->data_size));
	json_object_set_new(row, "fsync", c->op == OP_WRITE ?
			    json_text(fsync_mode_name(o->fsync)) : json_null());
	json_object_set_new(row, "metric", json_text(RC_ELAPSED));
	return row;
}

const struct column sweep_columns[] = {
	{ "sweep", COL_TEXT, "blocksize|bufsize|api", 0, "sweep", "which sweep", 0 },
	{ "file_size", COL_SIZE, 0, "bytes", "sweep", "the data file's size", 0 },
	{ "bufsize", COL_SIZE, 0, "bytes", "sweep", "the library's or the call's buffer", 0 },
	{ "syscalls_method", COL_TEXT, "counted|kernel", 0, "sweep", "syscalls counted by the sweep, or the kernel's syscr + syscw", 0 },
	{ "cpu_s", COL_TIME, 0, "s", "sweep", "user_s + sys_s", 0 },
	{ "proc_elapsed_s", COL_TIME, 0, "s", "sweep", "wall time of the whole measuring process", 0 },
	{ "proc_user_s", COL_TIME, 0, "s", "sweep", "user CPU of the whole measuring process", 0 },
	{ "proc_sys_s", COL_TIME, 0, "s", "sweep", "system CPU of the whole measuring process", 0 },
	{ "metric", COL_TEXT, 0, 0, "sweep", "the column the kind's verdict compares", 0 },
	{ 0 },
};

/*
 * No stale output for a write, then sync, then the reads' cache state
 * (proven by residency).  The unlink comes before the sync: freeing the
 * last output's blocks (and, on a discard mount, discarding them) is
 * journalled, and left pending it would be committed by the next
 * variant's fsync, inside that variant's time.
 */
static int prepare(struct sweep_run *r, const struct sweep_cfg *c, json_t *row)
{
	const char *how, *bad, *method;
	double pct;
	int ret;

	if (c->op == OP_WRITE && unlink(r->wpath) < 0 && errno != ENOENT)
		return error_errno(-errno, r->wpath, "removing the last output");
	sync();
	if (c->op == OP_WRITE)
		return 0;
	ret = cache_prepare(r->dir, r->fl, r->o->cache, &how, &bad);
	if (ret)
		return error_errno(ret, bad ? bad : r->dir, "preparing the cache");
	ret = cache_residency(r->dir, r->fl, &pct, &method, &bad);
	if (ret)
		return error_errno(ret, bad ? bad : r->dir, "measuring residency");
	json_object_set_new(row, "cache", json_text(cache_mode_name(r->o->cache)));
	json_object_set_new(row, "resident_pct_before", json_real(pct));
	json_object_set_new(row, "cache_method", json_text(how));
	return 0;
}

static void fill_figures(const struct sweep_cfg *c, const struct measurement *m,
			 json_t *row)
{
	int64_t kernel = m->syscr >= 0 ? m->syscr + m->syscw : -1;
	uint64_t calls = m->syscalls;
	bool counted = c->api == API_SYSCALL || c->api == API_MMAP;

	if (!counted)
		calls = kernel >= 0 ? (uint64_t)kernel : 0;
	json_object_set_new(row, c->op == OP_READ ? RC_BYTES_IN : "bytes_out",
			    json_integer((json_int_t)m->bytes));
	json_object_set_new(row, RC_ELAPSED, json_real(m->elapsed));
	json_object_set_new(row, RC_USER, json_real(m->user));
	json_object_set_new(row, RC_SYS, json_real(m->sys));
	json_object_set_new(row, RC_MAXRSS, json_integer(m->maxrss_kb));
	json_object_set_new(row, "minflt", json_integer(m->minflt));
	json_object_set_new(row, "majflt", json_integer(m->majflt));
	json_object_set_new(row, "nvcsw", json_integer(m->nvcsw));
	json_object_set_new(row, "nivcsw", json_integer(m->nivcsw));
	json_object_set_new(row, RC_MB_S, json_real(m->elapsed > 0 ?
				  (double)m->bytes / m->elapsed / 1e6 : 0.0));
	if (m->lib_buf || c->api == API_STDIO || c->api == API_IOSTREAM)
		json_object_set_new(row, "bufsize", json_integer((json_int_t)
					  (m->lib_buf ? m->lib_buf : c->lib_buf)));
	else if (c->api == API_SYSCALL)
		json_object_set_new(row, "bufsize", json_integer((json_int_t)c->block));
	json_object_set_new(row, "syscalls", json_integer((json_int_t)calls));
	json_object_set_new(row, "syscalls_method",
			    json_text(counted ? "counted" : "kernel"));
	json_object_set_new(row, "kernel_reads", m->syscr >= 0 ?
			    json_integer(m->syscr) : json_null());
	json_object_set_new(row, "kernel_writes", m->syscw >= 0 ?
			    json_integer(m->syscw) : json_null());
	json_object_set_new(row, "cpu_s", json_real(m->user + m->sys));
	json_object_set_new(row, "proc_elapsed_s", json_real(m->proc_elapsed));
	json_object_set_new(row, "proc_user_s", json_real(m->proc_user));
	json_object_set_new(row, "proc_sys_s", json_real(m->proc_sys));
}

/* xxh3 and size of a file the parent reads (not part of any measurement) */
static int file_xxh3(const char *path, uint64_t *sum, uint64_t *size)
{
	XXH3_state_t *st = XXH3_createState();
	char *buf = malloc(1 << 20);
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;
	ssize_t n;

	*size = 0;
	if (fd < 0 || !st || !buf) {
		ret = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	XXH3_64bits_reset(st);
	while ((n = read_full(fd, buf, 1 << 20)) > 0) {
		XXH3_64bits_update(st, buf, (size_t)n);
		*size += (uint64_t)n;
	}
	if (n < 0)
		ret = (int)n;
	*sum = XXH3_64bits_digest(st);
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	XXH3_freeState(st);
	return ret;
}

static const char *what(const struct sweep_run *r, const struct sweep_cfg *c,
			char *buf, size_t len)
{
	char sz[32];

	snprintf(buf, len, "sweep %s: %s %s, %s bytes per call",
		 sweep_kind_name(r->o->kind), c->variant, sweep_op_name(c->op),
		 sweep_size_str(c->block, c->whole, sz, sizeof(sz)));
	return buf;
}

static int fail_row(json_t *row, int err, const char *msg)
{
	json_object_set_new(row, "error", json_text(msg));
	errorf("%s", msg);
	return err;
}

/* The data must equal the reference before the time counts. */
static int verify(struct sweep_run *r, const struct sweep_cfg *c,
		  const struct measurement *m, json_t *row)
{
	uint64_t sum = m->sum, ref = c->op == OP_READ ? r->ref_read : r->ref_write;
	uint64_t size = 0;
	char hex[17], rhex[17], msg[1024], w[256];
	int ret;

	if (c->op == OP_WRITE) {
		ret = file_xxh3(r->wpath, &sum, &size);
		if (ret) {
			snprintf(msg, sizeof(msg), "%s: %s: reading the output back: %s",
				 what(r, c, w, sizeof(w)), r->wpath, strerror(-ret));
			return fail_row(row, ret, msg);
		}
		if (size != r->data_size)
			sum = ~ref; /* a short file can't match, whatever its hash */
	}
	checksum_hex(sum, hex);
	checksum_hex(ref, rhex);
	json_object_set_new(row, "checksum", json_text(hex));
	json_object_set_new(row, "verified", json_boolean(sum == ref));
	if (sum == ref)
		return 0;
	snprintf(msg, sizeof(msg), "%s: data checksum xxh3 %s differs from the "
		 "reference %s%s; the sweep stops (its time does not count)",
		 what(r, c, w, sizeof(w)), hex, rhex, c->op == OP_WRITE &&
		 size != r->data_size ? " (wrong file size)" : "");
	return fail_row(row, -EBADMSG, msg);
}

int sweep_rep(struct sweep_run *r, struct sweep_cfg *c, unsigned rep,
	      json_t **rowp)
{
	const char *wp[] = { r->wpath };
	struct measurement m;
	struct vctx v;
	char msg[1024], w[256];
	json_t *row = new_row(r, c, rep);
	int ret = prepare(r, c, row);

	*rowp = NULL;
	if (ret) {
		json_decref(row);
		return ret;
	}
	memset(&v, 0, sizeof(v));
	v.paths = c->op == OP_READ ? (const char *const *)r->data : wp;
	v.npaths = c->op == OP_READ ? r->ndata : 1;
	v.size = r->data_size;
	v.block = c->block;
	v.stdio_buf = c->lib_buf;
	v.fsync = r->o->fsync;
	v.seed = 1;
	v.corrupt = r->o->corrupt && !strcmp(r->o->corrupt, sweep_api_name(c->api));
	measure_stop = 0;
	stop_catch(STOP_SECOND_ENDS, stop_measure, false);
	ret = measure_variant(c->fn, &v, c->op == OP_WRITE, &m);
	stop_release();
	if (ret) {
		json_decref(row);
		return error_errno(ret, r->dir, "starting a measured child");
	}
	*rowp = row;
	fill_figures(c, &m, row);
	c->lib_buf_used = m.lib_buf;
	if (m.err) {
		snprintf(msg, sizeof(msg), "%s: %s", what(r, c, w, sizeof(w)),
			 m.errmsg[0] ? m.errmsg : strerror(-m.err));
		return fail_row(row, m.err, msg);
	}
	return verify(r, c, &m, row);
}

/* ---- all of them -------------------------------------------------------- */

static double median_of(const double *v, unsigned n)
{
	struct summary s;

	summarize(v, n, &s);
	return s.median;
}

static void medians(struct sweep_run *r)
{
	for (size_t i = 0; i < r->ncfgs; i++) {
		struct sweep_cfg *c = &r->cfgs[i];
		uint64_t bytes = c->op == OP_READ ? r->data_size * r->ndata :
			r->data_size;

		c->med_el = median_of(c->el, c->n);
		c->med_us = median_of(c->us, c->n);
		c->med_sy = median_of(c->sy, c->n);
		c->med_sc = median_of(c->sc, c->n);
		c->med_mb_s = c->med_el > 0 ? (double)bytes / c->med_el / 1e6 : 0;
	}
}

/* The tables go to out and to OUT/sweep.txt. */
static void print_tables(const struct sweep_run *r,
			 void (*print)(const struct sweep_run *r, FILE *f),
			 FILE *out)
{
	char *text = NULL, p[4200];
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int ret;

	if (!mem) {
		print(r, out);
		return;
	}
	print(r, mem);
	fclose(mem);
	fwrite(text, 1, len, out);
	fflush(out);
	snprintf(p, sizeof(p), "%s/sweep.txt", r->out);
	ret = write_file_atomic(p, text, len);
	if (ret)
		warnf("%s: %s", p, strerror(-ret));
	free(text);
}

int sweep_main(const struct sweep_opts *o, FILE *out, unsigned nfiles,
	       uint64_t size, int (*build)(struct sweep_run *r),
	       void (*print)(const struct sweep_run *r, FILE *f))
{
	struct sweep_run r;
	int ret;

	memset(&r, 0, sizeof(r));
	ret = sweep_setup(&r, o, nfiles, size, o->ops & (1u << OP_WRITE));
	if (!ret)
		ret = build(&r);
	if (!ret)
		ret = o->through(&r);
	if (!ret) {
		medians(&r);
		print_tables(&r, print, out);
	}
	if (r.results)
		fprintf(out, "results: %s\n", r.out);
	return sweep_teardown(&r, ret);
}
