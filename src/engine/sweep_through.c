// SPDX-License-Identifier: MIT
/* `iostrat sweep` through the bench engine: its configurations as a profile of [sweep-KIND] sections, the rows back into each configuration. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "engine/bench.h"
#include "engine/kind_sweep.h"
#include "engine/profile.h"
#include "harness/cache.h"
#include "harness/runner.h"
#include "lib/util.h"
#include "sweep/sweep.h"

/* The settings that make c, as a [sweep-KIND] section's keys. */
static int conf_of(const struct sweep_run *r, const struct sweep_cfg *c,
		   struct profile *p, const struct bench_kind *kind)
{
	const struct sweep_opts *o = r->o;
	char block[32], buf[32], size[32], files[32], reps[16], sec[64];
	const char *kv[24];
	size_t n = 0;

	snprintf(block, sizeof(block), "%zu", c->block);
	snprintf(buf, sizeof(buf), "%zu", c->lib_buf);
	snprintf(size, sizeof(size), "%llu", (unsigned long long)r->data_size);
	snprintf(files, sizeof(files), "%u", o->files);
	snprintf(reps, sizeof(reps), "%u", o->reps);
	snprintf(sec, sizeof(sec), "sweep-%s", sweep_kind_name(o->kind));
	if (o->kind != SWEEP_BUFSIZE) {
		kv[n++] = "op";
		kv[n++] = sweep_op_name(c->op);
		kv[n++] = "api";
		kv[n++] = o->kind == SWEEP_API ? c->variant : sweep_api_name(c->api);
	}
	kv[n++] = "block";
	kv[n++] = c->whole ? "whole" : block;
	if (o->kind == SWEEP_BLOCKSIZE && c->lib_buf) {
		kv[n++] = "buffer";
		kv[n++] = buf;
	}
	kv[n++] = "size";
	kv[n++] = size;
	if (o->kind == SWEEP_BUFSIZE) {
		kv[n++] = "files";
		kv[n++] = files;
	}
	kv[n++] = "cache";
	kv[n++] = cache_mode_name(o->cache);
	kv[n++] = "fsync";
	kv[n++] = fsync_mode_name(o->fsync);
	kv[n++] = "reps";
	kv[n++] = reps;
	kv[n] = NULL;
	return engine_profile_add(p, sec, kind, "iostrat sweep", kv);
}

/* The configurations, in order, as a profile named as the rows' bench. */
static int sweep_profile(const struct sweep_run *r, struct profile *p)
{
	char name[64];
	const struct bench_kind *kind = bench_kind_find("sweep");
	int ret;

	snprintf(name, sizeof(name), "sweep-%s", sweep_kind_name(r->o->kind));
	ret = engine_profile_new(p, r->o->bench ? r->o->bench : name);
	for (size_t i = 0; !ret && i < r->ncfgs; i++)
		ret = conf_of(r, &r->cfgs[i], p, kind);
	if (ret)
		profile_free(p);
	return ret;
}

static void keep_row(void *arg, json_t *row)
{
	json_array_append(arg, row);
}

/* The measured repetitions of each configuration, from the rows kept. */
static void take_rows(struct sweep_run *r, json_t *rows)
{
	json_t *index = json_object(), *row, *k;
	size_t i;

	for (i = 0; index && i < r->ncfgs; i++)
		json_object_set_new(index, r->cfgs[i].id, json_integer((json_int_t)i));
	json_array_foreach(rows, i, row) {
		struct sweep_cfg *c;
		json_t *buf = json_object_get(row, "bufsize");

		k = json_object_get(index, json_string_value(json_object_get(row, RC_CONFIG_ID)));
		if (!k || !json_is_null(json_object_get(row, "error")))
			continue;
		c = &r->cfgs[json_integer_value(k)];
		if (c->n == r->o->reps)
			continue;
		c->el[c->n] = json_real_value(json_object_get(row, RC_ELAPSED));
		c->us[c->n] = json_real_value(json_object_get(row, RC_USER));
		c->sy[c->n] = json_real_value(json_object_get(row, RC_SYS));
		c->sc[c->n] = (double)json_integer_value(json_object_get(row, "syscalls"));
		c->n++;
		if (!c->lib_buf && (c->api == API_STDIO || c->api == API_IOSTREAM))
			c->lib_buf_used = (uint64_t)json_integer_value(buf);
	}
	json_decref(index);
}

/*
 * The configurations through the bench engine: each round in its own
 * shuffled order (order_seed), so no variant
 * always runs right after the same one: what a variant leaves behind (on
 * a VM, a write after mmap's write gets its page cache from long-idle
 * memory, see README) would otherwise land on the same neighbour every
 * time.  The first failed repetition stops the sweep.  The engine's
 * status (0, 1 failed, 2 refused, 128 + a stop signal), its errors
 * printed; r->results says whether the directory was made.
 */
int sweep_through_engine(struct sweep_run *r)
{
	json_t *rows = json_array();
	char dir[PATH_MAX] = "";
	struct engine_opts eo = {
		.out = r->out, .env = r->env, .quiet = true, .stop_on_fail = true,
		.cmd = "sweep", .on_row = keep_row, .arg = rows,
		.dir = dir, .dir_len = sizeof(dir),
	};
	struct profile prof;
	int ret = rows ? sweep_profile(r, &prof) : -ENOMEM;

	if (!ret && (ret = sweep_kind_lend(r)))
		profile_free(&prof);
	if (ret) {
		json_decref(rows);
		return error_errno(ret, r->out, "sweep configurations");
	}
	ret = engine_run_profile(&prof, &eo);
	sweep_kind_unlend();
	r->results = dir[0] != 0;
	if (!ret)
		take_rows(r, rows);
	json_decref(rows);
	return ret;
}
