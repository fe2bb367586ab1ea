// SPDX-License-Identifier: MIT
/*
 * `iostrat run --trace`: the probes are loaded once, filtered to the disk
 * and filesystem of the input directory and to the process tree of each
 * repetition, reset before each repetition, and read into its row.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../runner.h"
#include "../util.h"
#include "trace.h"

struct run_tracer {
	struct rep_hooks hooks;
	struct tracer t;
};

static int hook_before(void *arg)
{
	struct run_tracer *rt = arg;

	return tracer_reset(&rt->t);
}

static int hook_started(void *arg, pid_t child)
{
	struct run_tracer *rt = arg;

	return tracer_watch_pid(&rt->t, child);
}

static void hook_after(void *arg, json_t *row)
{
	struct run_tracer *rt = arg;
	struct seek_entry *e = NULL;
	struct pc_stats pc;
	size_t n = 0;

	if (tracer_read_seeks(&rt->t, &e, &n) || tracer_read_pc(&rt->t, &pc)) {
		json_object_set_new(row, "trace_error", json_string("reading probes"));
		free(e);
		return;
	}
	trace_fill_row(row, &rt->t, e, n, &pc);
	free(e);
}

const struct rep_hooks *tracer_open(const struct run_config *cfg)
{
	struct tracer_filter f = { .pids = true };
	struct run_tracer *rt;
	char disk[64], why[256];
	int ret;

	ret = trace_dev_of_path(cfg->job.in_dir, &f.disk_dev, &f.fs_dev, disk,
				sizeof(disk));
	if (ret == -ENODEV)
		f.disk_dev = UINT32_MAX; /* no disk (tmpfs): no block requests */
	else if (ret) {
		warnf("--trace: %s: cannot find its device (%s); running untraced "
		      "(traced=false)", cfg->job.in_dir, strerror(-ret));
		return NULL;
	}
	rt = calloc(1, sizeof(*rt));
	if (!rt) {
		warnf("--trace: out of memory; running untraced (traced=false)");
		return NULL;
	}
	ret = tracer_load(&rt->t, &f, why, sizeof(why));
	if (ret) {
		warnf("--trace: eBPF probes unavailable, %s; running untraced "
		      "(traced=false)", why);
		free(rt);
		return NULL;
	}
	rt->hooks = (struct rep_hooks){ hook_before, hook_started, hook_after, rt };
	return &rt->hooks;
}

void tracer_close(const struct rep_hooks *hooks)
{
	struct run_tracer *rt;

	if (!hooks)
		return;
	rt = hooks->arg;
	tracer_unload(&rt->t);
	free(rt);
}
