// SPDX-License-Identifier: MIT
/*
 * `iostrat run --trace`: the probes are loaded once, filtered to the disk
 * and filesystem of the input directory and to the process tree of each
 * repetition, reset before each repetition, and read into its row.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "trace/hooks.h"
#include "lib/util.h"
#include "trace.h"

struct run_tracer {
	struct rep_hooks hooks;
	struct tracer t;
};

/* Why the last tracer_open() gave no hooks: the rows' trace_error. */
static char untraced_why[320];

__attribute__((format(printf, 1, 2)))
static void untraced(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(untraced_why, sizeof(untraced_why), fmt, ap);
	va_end(ap);
	warnf("--trace: %s; running untraced (traced=false)", untraced_why);
}

void tracer_mark_untraced(json_t *row)
{
	if (untraced_why[0])
		json_object_set_new(row, "trace_error", json_text(untraced_why));
}

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

	if (tracer_read(&rt->t)) {
		json_object_set_new(row, "trace_error", json_text("reading probes"));
		return;
	}
	trace_fill_row(row, &rt->t);
}

/*
 * Callers may open and close the tracer around every repetition (iostrat
 * bench does).  Loading means the kernel verifies every program, a good
 * fraction of a second; so tracer_close() only detaches, and the next
 * tracer_open() with the same filter attaches the same programs again.
 */
static struct run_tracer *idle;
static bool atexit_set;

static struct run_tracer *reuse_idle(const struct tracer_filter *f)
{
	struct run_tracer *rt = idle;

	if (!rt)
		return NULL;
	idle = NULL;
	if (rt->t.filter.disk_dev == f->disk_dev && rt->t.filter.fs_dev == f->fs_dev &&
	    rt->t.filter.pids == f->pids && rt->t.filter.files == f->files &&
	    !tracer_attach(&rt->t))
		return rt;
	tracer_unload(&rt->t);
	free(rt);
	return NULL;
}

static void unload_idle(void)
{
	if (!idle)
		return;
	tracer_unload(&idle->t);
	free(idle);
	idle = NULL;
}

/*
 * Page-cache events count for the input files only: not the iostrat
 * binary's own text faulting in after fork, not the outputs being written.
 * Above tracer_watch_max() files, the whole filesystem and process tree
 * count.
 */
static int watch_inputs(struct tracer *t, const struct job *job)
{
	char p[PATH_MAX];
	struct stat sb;
	int ret = tracer_unwatch_files(t);

	for (size_t i = 0; !ret && i < job->nfiles; i++) {
		job_in_path(job, i, p, sizeof(p));
		if (stat(p, &sb) < 0)
			return -errno;
		ret = tracer_watch_file(t, sb.st_dev, sb.st_ino);
	}
	return ret;
}

int tracer_check(void)
{
	char why[160];

	if (!probe_mode_check(why, sizeof(why)))
		return 0;
	errorf("%s", why);
	return -EINVAL;
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
		untraced("%s: cannot find its device (%s)", cfg->job.in_dir,
			 strerror(-ret));
		return NULL;
	}
	f.files = cfg->job.nfiles <= tracer_watch_max();
	rt = reuse_idle(&f);
	if (rt && (ret = watch_inputs(&rt->t, &cfg->job))) {
		tracer_close(&rt->hooks);
		rt = NULL;
		untraced("%s: %s", cfg->job.in_dir, strerror(-ret));
		return NULL;
	}
	if (rt) {
		untraced_why[0] = 0;
		return &rt->hooks;
	}
	rt = calloc(1, sizeof(*rt));
	if (!rt) {
		untraced("out of memory");
		return NULL;
	}
	ret = tracer_load(&rt->t, &f, why, sizeof(why));
	if (ret) {
		untraced("eBPF probes unavailable, %s", why);
		free(rt);
		return NULL;
	}
	untraced_why[0] = 0;
	tracer_print_notes(&rt->t, "--trace: ");
	rt->hooks = (struct rep_hooks){ hook_before, hook_started, hook_after, rt };
	if (f.files && (ret = watch_inputs(&rt->t, &cfg->job))) {
		tracer_unload(&rt->t);
		free(rt);
		untraced("%s: %s", cfg->job.in_dir, strerror(-ret));
		return NULL;
	}
	if (!atexit_set)
		atexit_set = !atexit(unload_idle);
	return &rt->hooks;
}

void tracer_close(const struct rep_hooks *hooks)
{
	struct run_tracer *rt;

	if (!hooks)
		return;
	rt = hooks->arg;
	unload_idle();
	tracer_detach(&rt->t);
	idle = rt;
}
