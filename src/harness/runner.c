// SPDX-License-Identifier: MIT
/* One measured repetition: cache state, forked strategy, time and rusage, output check, row. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/checksum.h"
#include "results/dataset.h"
#include "cache_left.h"
#include "env.h"
#include "core/outfile.h"
#include "core/xform.h"
#include "results/row.h"
#include "inwatch.h"
#include "iosample.h"
#include "cgroup.h"
#include "kcost.h"
#include "oom_order.h"
#include "prewait.h"
#include "stop.h"
#include "runner.h"
#include "config/jobopts.h"
#include "results/config_id.h"
#include "lib/util.h"

/* Above this, a "cold" run did not start cold and is flagged. */
#define COLD_MAX_RESIDENT_PCT 1.0

const char *fsync_mode_name(enum fsync_mode m)
{
	return fsync_mode_names[m];
}

void runner_set_files(struct run_config *cfg, const struct filelist *fl)
{
	cfg->job.files = fl->names;
	cfg->job.sizes = fl->sizes;
	cfg->job.nfiles = fl->n;
}

int runner_reference(const struct run_config *cfg, const struct filelist *fl,
		     char hex[17])
{
	const char *bad;
	uint64_t sum;
	int ret = checksum_reference(cfg->job.in_dir, fl, cfg->job.xform, cfg->job.work,
				     &sum, &bad);

	if (ret == -EILSEQ)
		errorf("%s", bad);
	if (ret == -EILSEQ)
		return ret;
	if (ret)
		return error_errno(ret, bad, "reading for the reference");
	checksum_hex(sum, hex);
	return 0;
}

/* Entries that may be in an output directory before iostrat marked it:
 * its own temporaries (a run killed before it wrote the mark). */
static bool our_leftover(const char *name)
{
	size_t n = strlen(name), t = strlen(".iostrat-tmp");

	return name[0] == '.' && n > t && !strcmp(name + n - t, ".iostrat-tmp");
}

/* OUT holds only what iostrat wrote: it is empty, or carries the mark a
 * run left (OUTDIR_MARK).  Anything else (a data set, the current
 * directory, a user's own files) is refused, never overwritten. */
static int check_out_ours(const char *out)
{
	char mark[PATH_MAX];
	struct dirent *de;
	const char *foreign = NULL;
	DIR *d;

	snprintf(mark, sizeof(mark), "%s/%s", out, OUTDIR_MARK);
	if (!access(mark, F_OK))
		return 0;
	d = opendir(out);
	if (!d)
		return error_errno(-errno, out, "output directory");
	while (!foreign && (errno = 0, de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    !our_leftover(de->d_name))
			foreign = de->d_name;
	if (!foreign && errno) {
		int ret = -errno;

		closedir(d);
		return error_errno(ret, out, "reading output directory");
	}
	if (foreign && !strcmp(foreign, DATASET_MANIFEST)) {
		errorf("%s: output directory is an iostrat data set (swapped IN and "
		       "OUT?); refusing to overwrite it", out);
		closedir(d);
		return -ENOTEMPTY;
	}
	if (foreign) {
		errorf("%s: output directory not empty and not iostrat's own (holds "
		       "'%.40s', no %s); refusing to overwrite: give an empty or "
		       "new directory", out, foreign, OUTDIR_MARK);
		closedir(d);
		return -ENOTEMPTY;
	}
	closedir(d);
	return 0;
}

int runner_mark_out(const char *out)
{
	char mark[PATH_MAX];
	int fd;

	snprintf(mark, sizeof(mark), "%s/%s", out, OUTDIR_MARK);
	fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return error_errno(-errno, mark, "marking output directory");
	close(fd);
	return 0;
}

static int refuse_inside(const char *out, const char *in_abs)
{
	errorf("%s: output directory is the input directory or inside it (%s, "
	       "same device and inode); refusing to overwrite inputs", out, in_abs);
	return -EINVAL;
}

void runner_unmake_out(const char *out)
{
	char mark[PATH_MAX];
	struct dirent *de;
	bool other = false;
	DIR *d = opendir(out);

	if (!d)
		return;
	while (!other && (de = readdir(d)))
		other = strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
			strcmp(de->d_name, OUTDIR_MARK);
	closedir(d);
	if (other)
		return;
	snprintf(mark, sizeof(mark), "%s/%s", out, OUTDIR_MARK);
	unlink(mark);
	rmdir(out);
}

int runner_check_dirs(const char *in, const char *out, char *in_abs,
		      char *out_abs, size_t len, bool *made)
{
	struct stat sb, in_id;
	int ret;

	if (stat(in, &in_id) < 0)
		return error_errno(-errno, in, "input directory");
	if (!S_ISDIR(in_id.st_mode)) {
		errorf("%s: input is not a directory", in);
		return -ENOTDIR;
	}
	ret = abspath(in, in_abs, len);
	if (!ret)
		ret = abspath(out, out_abs, len);
	if (ret)
		return error_errno(ret, out, "resolving path");
	/* before mkdir: a new OUT inside IN would already change IN */
	if (path_within(out_abs, in_abs) || dir_is_or_under(out_abs, &in_id))
		return refuse_inside(out, in_abs);
	*made = !mkdir(out_abs, 0755);
	if (!*made && errno != EEXIST)
		return error_errno(-errno, out, "creating output directory");
	if (stat(out_abs, &sb) < 0)
		return error_errno(-errno, out, "output directory");
	if (!S_ISDIR(sb.st_mode)) {
		errorf("%s: output is not a directory", out);
		return -ENOTDIR;
	}
	if (access(out_abs, W_OK | X_OK) < 0)
		return error_errno(-errno, out, "output directory not writable");
	/* realpath again: out may have been a new directory */
	ret = abspath(out, out_abs, len);
	if (ret)
		return error_errno(ret, out, "resolving path");
	if (path_within(out_abs, in_abs) || dir_is_or_under(out_abs, &in_id))
		return refuse_inside(out, in_abs);
	return check_out_ours(out_abs);
}

void runner_clean_temporaries(const char *out, const struct filelist *fl)
{
	char p[PATH_MAX];

	for (size_t i = 0; i < fl->n; i++) {
		if (out_tmp_path(out, fl->names[i], p, sizeof(p)))
			continue;
		unlink(p);
	}
}

void runner_clean_outputs(const char *out, const struct filelist *fl)
{
	char p[PATH_MAX];

	for (size_t i = 0; i < fl->n; i++) {
		snprintf(p, sizeof(p), "%s/%s", out, fl->names[i]);
		unlink(p);
	}
	runner_clean_temporaries(out, fl);
}

/* ---- the child ---------------------------------------------------------- */

static void child_report(int fd, int ret, struct run_stats *st, double secs)
{
	json_t *o = json_object();
	char *s;

	json_object_set_new(o, "ret", json_integer(ret));
	json_object_set_new(o, "errmsg", json_text(st->errmsg));
	json_object_set_new(o, RC_BYTES_IN, json_integer((json_int_t)st->bytes_in));
	json_object_set_new(o, "bytes_out", json_integer((json_int_t)st->bytes_out));
	json_object_set_new(o, "child_elapsed_s", json_real(secs));
	json_object_set(o, "extra", st->extra);
	s = json_dumps(o, JSON_COMPACT);
	if (s)
		write_full(fd, s, strlen(s));
	free(s);
	json_decref(o);
}

static void __attribute__((noreturn))
child_main(const struct run_config *cfg, int go_fd, int res_fd)
{
	struct run_stats st;
	char c;
	double t0;
	int ret;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* a parent killed with SIGKILL takes its repetition with it */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	oom_order_child_first();
	if (read(go_fd, &c, 1) != 1)
		_exit(3); /* parent gone before the start */
	close(go_fd);
	stats_init(&st);
	t0 = now_mono();
	ret = cfg->strat->run(&cfg->job, &st);
	if (!ret && st.err)
		ret = st.err;
	if (ret && !st.errmsg[0])
		stats_fail(&st, ret, cfg->job.in_dir, cfg->strat->name);
	if (!ret && cfg->job.fsync == FSYNC_END && cfg->job.sink != SINK_NULL &&
	    !(cfg->strat->flags & STRAT_NO_OUTPUT)) {
		ret = syncfs_dir(cfg->job.out_dir);
		if (ret)
			stats_fail(&st, ret, cfg->job.out_dir, "syncfs");
	}
	child_report(res_fd, ret, &st, now_mono() - t0);
	close(res_fd);
	_exit(ret ? 1 : 0);
}

/* ---- the parent --------------------------------------------------------- */

static volatile pid_t current_child;

pid_t runner_child_pid(void)
{
	return current_child;
}

static json_t *read_report(int fd)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	json_t *o;

	for (;;) {
		ssize_t n;

		if (len + 4096 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 8192);

			if (!nb)
				break;
			buf = nb;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (!buf)
		return NULL;
	buf[len] = 0;
	o = len ? json_loads(buf, 0, NULL) : NULL;
	free(buf);
	return o;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void runner_config_id(const struct run_config *cfg, const char *dataset,
		      char *buf, size_t len)
{
	const struct setting *tables[] = { run_settings, cfg->strat->opts, NULL };
	const void *objs[] = { cfg, cfg->sopts };

	config_id_make(buf, len, dataset, cfg->strat->name, tables, objs);
}

static void config_id_of(const struct run_config *cfg, char *buf, size_t len)
{
	if (cfg->config_id)
		snprintf(buf, len, "%s", cfg->config_id);
	else
		runner_config_id(cfg, cfg->dataset, buf, len);
}

/* The transform's own columns beside "transform" (its id form). */
static void transform_row(const struct run_config *cfg, json_t *row)
{
	const struct xform *x = cfg->job.xform;

	if (!x)
		return;
	json_object_set_new(row, "transform_version", json_integer(x->t->version));
	if (x->hash[0])
		json_object_set_new(row, "transform_hash", json_text(x->hash));
	if (cfg->transform_spec && strcmp(cfg->transform_spec, x->id))
		json_object_set_new(row, "transform_spec", json_text(cfg->transform_spec));
}

static void fill_config(const struct run_config *cfg, const struct filelist *fl,
			unsigned rep, json_t *row)
{
	json_t *in = cfg->env ? json_object_get(cfg->env, "in") : NULL;
	char id[CONFIG_ID_MAX];

	config_id_of(cfg, id, sizeof(id));
	json_object_set_new(row, RC_CONFIG_ID, json_text(id));
	json_object_set_new(row, "rep", json_integer(rep));
	if (cfg->dataset)
		json_object_set_new(row, RC_DATASET, json_text(cfg->dataset));
	json_object_set_new(row, "files", json_integer((json_int_t)fl->n));
	json_object_set_new(row, RC_STRATEGY, json_text(cfg->strat->name));
	settings_row(run_settings, cfg, row);
	transform_row(cfg, row);
	if (cfg->strat->opts)
		settings_row(cfg->strat->opts, cfg->sopts, row);
	env_row(row, in);
}

static void fill_usage(json_t *row, const struct rusage *ru, double elapsed,
		       uint64_t in, uint64_t out)
{
	json_object_set_new(row, RC_BYTES_IN, json_integer((json_int_t)in));
	json_object_set_new(row, "bytes_out", json_integer((json_int_t)out));
	json_object_set_new(row, RC_ELAPSED, json_real(elapsed));
	json_object_set_new(row, RC_USER, json_real(tv_s(ru->ru_utime)));
	json_object_set_new(row, RC_SYS, json_real(tv_s(ru->ru_stime)));
	json_object_set_new(row, RC_MAXRSS, json_integer(ru->ru_maxrss));
	json_object_set_new(row, "minflt", json_integer(ru->ru_minflt));
	json_object_set_new(row, "majflt", json_integer(ru->ru_majflt));
	json_object_set_new(row, "nvcsw", json_integer(ru->ru_nvcsw));
	json_object_set_new(row, "nivcsw", json_integer(ru->ru_nivcsw));
	json_object_set_new(row, RC_MB_S, json_real(elapsed > 0 ?
				  (double)in / elapsed / 1e6 : 0.0));
}

static int row_error(json_t *row, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int row_error(json_t *row, int err, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (json_is_null(json_object_get(row, "error")))
		json_object_set_new(row, "error", json_text(msg));
	errorf("%s", msg);
	return err;
}

/* Sync, bring the inputs to the cache state, and prove it. */
static int prepare_rep(const struct run_config *cfg, const struct filelist *fl,
		       json_t *row)
{
	const char *how, *bad = "sync(2)", *method;	/* bad: what failed */
	double pct;
	int ret;

	if (cfg->job.sink != SINK_NULL && !(cfg->strat->flags & STRAT_NO_OUTPUT))
		runner_clean_outputs(cfg->job.out_dir, fl);
	ret = prewait_sync();
	if (!ret)
		ret = cache_prepare(cfg->job.in_dir, fl, cfg->cache, &how, &bad);
	if (ret == -EINTR && stop_caught())
		return ret; /* stopped before the fork: no row, no error line */
	if (ret)
		return row_error(row, ret, "%s: preparing %s cache: %s", bad,
				 cache_mode_name(cfg->cache), strerror(-ret));
	ret = cache_residency(cfg->job.in_dir, fl, &pct, &method, &bad);
	if (ret)
		return row_error(row, ret, "%s: measuring residency: %s", bad,
				 strerror(-ret));
	json_object_set_new(row, "resident_pct_before", json_real(pct));
	json_object_set_new(row, "cache_method", json_text(how));
	json_object_set_new(row, "residency_method", json_text(method));
	json_object_set_new(row, "cold_ok", cfg->cache == CACHE_COLD ?
			    json_boolean(pct <= COLD_MAX_RESIDENT_PCT) : json_null());
	if (cfg->cache == CACHE_COLD && pct > COLD_MAX_RESIDENT_PCT)
		warnf("%s: %.1f%% of the input still cached after '%s': this "
		      "cold run is flagged (cold_ok=false)", cfg->job.in_dir,
		      pct, how);
	return 0;
}

/* The child forked, waiting for the go byte on its end of *go (its
 * results to come on *res): 0 or -errno. */
static int fork_waiting(const struct run_config *cfg, pid_t *pid, int *go, int *res)
{
	int g[2], r[2], err;

	if (pipe2(g, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(r, O_CLOEXEC) < 0) {
		err = -errno;
		close(g[0]); close(g[1]);
		return err;
	}
	fflush(NULL);
	*pid = fork();
	if (*pid < 0) {
		err = -errno;
		close(g[0]); close(g[1]); close(r[0]); close(r[1]);
		return err;
	}
	if (*pid == 0) {
		close(g[1]);
		close(r[0]);
		child_main(cfg, g[0], r[1]);
	}
	close(g[0]);
	close(r[1]);
	*go = g[1];
	*res = r[0];
	return 0;
}

/* Wait for pid (again after EINTR): 0 or -errno. */
static int reap(pid_t pid, int *status, struct rusage *ru)
{
	int ret = 0;

	while (!ret && wait4(pid, status, 0, ru) < 0)
		if (errno != EINTR)
			ret = -errno;
	current_child = 0;
	return ret;
}

/* A limited repetition whose child could not be moved into its cgroup
 * never starts (it would run unlimited): no go byte, its end closed (the
 * child reads EOF and exits: no write to a pipe whose reader may be gone,
 * no SIGPIPE), the child reaped, the row's error the cgroup step. */
static int unstarted(pid_t pid, int go, int res, const struct cgroup_rep *cg,
		     int err, json_t *row)
{
	struct rusage ru;
	int status;

	close(go);
	close(res);
	reap(pid, &status, &ru);
	return row_error(row, err, "memory_max: %s", cg->why);
}

/* The go byte, with SIGPIPE held back: a child killed before it (a stop
 * signal kills the running child) leaves the pipe without a reader, and
 * that is EPIPE here, never the signal's death of iostrat itself. */
static bool send_go(int go)
{
	static const struct timespec now = { 0, 0 };
	sigset_t pipe, old;
	ssize_t n;

	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe, &old);
	n = write(go, "g", 1);
	if (n < 0 && errno == EPIPE)
		sigtimedwait(&pipe, NULL, &now); /* the SIGPIPE it raised, taken */
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return n == 1;
}

/* The repetition's child: moved into cg, started, reaped (under a limit,
 * a failed move leaves it unstarted): 0, or -errno after the row's error. */
static int spawn(const struct run_config *cfg, struct cgroup_rep *cg, json_t *row,
		 json_t **report, struct rusage *ru, double *elapsed, int *status)
{
	int go = -1, res = -1, ret;
	struct iosample io;
	pid_t pid = 0;
	double t0;

	ret = fork_waiting(cfg, &pid, &go, &res);
	if (ret)
		return row_error(row, ret, "%s: starting the run: %s",
				 cfg->job.in_dir, strerror(-ret));
	current_child = pid;
	if (stop_caught()) /* a stop between the last look and current_child */
		kill(pid, SIGKILL);
	ret = cgroup_rep_enter(cg, pid);
	if (ret && cg->limit)
		return unstarted(pid, go, res, cg, ret, row);
	cgroup_rep_sample(cg);
	if (cfg->hooks && cfg->hooks->started &&
	    cfg->hooks->started(cfg->hooks->arg, pid))
		json_object_set_new(row, "trace_error", json_text("probe filter"));
	/* the timed repetitions' throughput over time (traced ones have hooks) */
	iosample_start(&io, cfg->hooks ? NULL :
		       json_string_value(json_object_get(row, "device")));
	t0 = now_mono();
	if (!send_go(go))
		kill(pid, SIGKILL);
	close(go);
	*report = read_report(res);
	close(res);
	ret = reap(pid, status, ru);
	*elapsed = now_mono() - t0;
	if (!ret && WIFSIGNALED(*status) && WTERMSIG(*status) == SIGKILL)
		cgroup_rep_settle(cg);
	iosample_stop(&io, row);
	if (ret)
		return row_error(row, ret, "%s: waiting for the run: %s",
				 cfg->job.in_dir, strerror(-ret));
	return 0;
}

/* What another process did to an input while the repetition read it
 * (changed >= 0: the input watch's finding): the output cannot match, and
 * the cause is the input, not the strategy. */
struct input_change {
	long changed;
	enum inwatch_how how;
	char why[96];
};

static int blame_input(const struct run_config *cfg, const struct filelist *fl,
		       const struct input_change *c, json_t *row)
{
	const char *name = fl->names[c->changed];

	if (c->how == INWATCH_REMOVED)
		return row_error(row, -ESTALE, "%s/%s: input removed during the run",
				 cfg->job.in_dir, name);
	return row_error(row, -ESTALE, "%s/%s: input %s during the run (%s): the "
			 "output cannot match the reference", cfg->job.in_dir, name,
			 c->how == INWATCH_RESIZED ? "changed" : "modified",
			 c->how == INWATCH_RESIZED ? c->why : "same size");
}

static int check_output(const struct run_config *cfg, const struct filelist *fl,
			const char *ref_hex, const struct input_change *c, json_t *row)
{
	const char *bad;
	uint64_t sum;
	char hex[17];
	int ret;

	if (cfg->job.sink == SINK_NULL || (cfg->strat->flags & STRAT_NO_OUTPUT))
		return 0;
	ret = checksum_files(cfg->job.out_dir, fl, &sum, &bad);
	if (ret) {
		json_object_set_new(row, "verified", json_false());
		return row_error(row, ret, "%s: reading output: %s", bad,
				 strerror(-ret));
	}
	checksum_hex(sum, hex);
	json_object_set_new(row, "checksum", json_text(hex));
	if (!ref_hex)
		return 0;
	json_object_set_new(row, "verified", json_boolean(!strcmp(hex, ref_hex)));
	if (strcmp(hex, ref_hex) && c->changed >= 0)
		return blame_input(cfg, fl, c, row);
	if (strcmp(hex, ref_hex))
		return row_error(row, -EBADMSG, "%s: output of strategy %s differs "
				 "from the reference (xxh3 %s, expected %s); see "
				 "`iostrat verify`", cfg->job.out_dir,
				 cfg->strat->name, hex, ref_hex);
	return 0;
}

/* After the repetition: input_changed in the row, and when the output
 * check did not already blame the input (an error naming it), one warning
 * naming the file: the measurement read something else than was listed. */
static void note_input_change(const struct run_config *cfg, const struct filelist *fl,
			      const struct input_change *c, unsigned rep, int ret,
			      json_t *row)
{
	json_object_set_new(row, "input_changed", json_boolean(c->changed >= 0));
	if (c->changed >= 0 && ret != -ESTALE)
		warnf("%s/%s: input changed during repetition %u (%s): its row says "
		      "input_changed=true", cfg->job.in_dir, fl->names[c->changed],
		      rep, c->why);
}

/* The child in the repetition's cgroup (with memory_max or accounting:
 * a cgroup costs the measured time, docs/memory.md), the kernel's cost
 * around it (always): spawn() between cgroup_rep_open/kcost_begin and
 * their reading and removal (also after a stop signal killed the child). */
static int measured_spawn(const struct run_config *cfg, json_t *row, json_t **report,
			  struct rusage *ru, double *elapsed, int *status)
{
	struct cgroup_rep cg = { .version = 0 };
	struct kcost kc;
	int ret = 0;

	if (cfg->memory_max || cfg->accounting)
		ret = cgroup_rep_open(&cg, cfg->memory_max);
	else
		snprintf(cg.why, sizeof(cg.why), "none asked (memory_max or accounting)");
	if (ret && cfg->memory_max)
		return row_error(row, ret, "memory_max: cannot limit a repetition's "
				 "memory here: %s", cg.why);
	kcost_begin(&kc, json_string_value(json_object_get(row, "device")));
	ret = spawn(cfg, &cg, row, report, ru, elapsed, status);
	kcost_end(&kc, row);
	cgroup_rep_finish(&cg, row);
	cgroup_rep_close(&cg);
	return ret;
}

/* What a repetition the OOM killer ended wrote: complete outputs and
 * temporaries (removed: nothing half-written is left). */
static uint64_t written_so_far(const struct run_config *cfg, const struct filelist *fl)
{
	char p[PATH_MAX];
	struct stat sb;
	uint64_t sum = 0;

	for (size_t i = 0; i < fl->n; i++) {
		snprintf(p, sizeof(p), "%s/%s", cfg->job.out_dir, fl->names[i]);
		if (!stat(p, &sb))
			sum += (uint64_t)sb.st_size;
		if (!out_tmp_path(cfg->job.out_dir, fl->names[i], p, sizeof(p)) &&
		    !stat(p, &sb))
			sum += (uint64_t)sb.st_size;
	}
	return sum;
}

/* An out-of-memory repetition is a result when its own memory_max was
 * reached (oom_kill); one killed for another limit (oom_elsewhere) is a
 * failure naming that limit.  Either row says how far it got,
 * at the peak charged (row_mem_peak: the sampled one where the kernel
 * keeps none), or "peak unknown": never a 0 MiB that was not measured. */
static int oom_result(const struct run_config *cfg, const struct filelist *fl,
		      json_t *row)
{
	const char *elsewhere = json_string_value(json_object_get(row, "oom_elsewhere"));
	double mib = 1024.0 * 1024.0, peak;
	char at[96] = ", peak unknown", lim[32], pk[32];
	bool sampled;

	if (cfg->job.sink != SINK_NULL && !(cfg->strat->flags & STRAT_NO_OUTPUT)) {
		json_object_set_new(row, "bytes_out", json_integer((json_int_t)
					written_so_far(cfg, fl)));
		runner_clean_temporaries(cfg->job.out_dir, fl);
	}
	peak = row_mem_peak(row, &sampled);
	if (!isnan(peak) && peak < mib)
		snprintf(at, sizeof(at), " at %s charged%s", fmt_limit((unsigned long long)
			 peak, pk, sizeof(pk)), sampled ? " (sampled: anon + page cache)" : "");
	else if (!isnan(peak))
		snprintf(at, sizeof(at), " at %.0f MiB charged%s", peak / mib,
			 sampled ? " (sampled: anon + page cache)" : "");
	fmt_limit(cfg->memory_max, lim, sizeof(lim));
	if (elsewhere)
		return row_error(row, -ENOMEM, "%s: strategy %s killed by the "
				 "out-of-memory killer%s, not by its memory_max (%s): %s",
				 cfg->job.in_dir, cfg->strat->name, at,
				 cfg->memory_max ? lim : "none", elsewhere);
	return row_error(row, -ENOMEM, "%s: strategy %s killed by the out-of-memory "
			 "killer%s (memory_max %s)", cfg->job.in_dir,
			 cfg->strat->name, at, lim);
}

int runner_rep(const struct run_config *cfg, const struct filelist *fl,
	       unsigned rep, const char *ref_hex, json_t **rowp)
{
	json_t *row = row_new(cfg->bench, "run"), *report = NULL;
	struct rusage ru = { 0 };
	double elapsed = 0;
	struct input_change change;
	struct inwatch w;
	const char *bad;
	int status = 0, ret;

	*rowp = row;
	fill_config(cfg, fl, rep, row);
	ret = prepare_rep(cfg, fl, row);
	if (!ret && stop_caught())
		ret = -EINTR; /* a stop before the fork: no child, no row */
	if (ret)
		return ret;
	ret = inwatch_take(&w, cfg->job.in_dir, fl, &bad);
	if (ret)
		return row_error(row, ret, "%s/%s: %s", cfg->job.in_dir, bad,
				 strerror(-ret));
	if (cfg->hooks && cfg->hooks->before && cfg->hooks->before(cfg->hooks->arg))
		json_object_set_new(row, "trace_error", json_text("probe reset"));
	ret = measured_spawn(cfg, row, &report, &ru, &elapsed, &status);
	if (ret) {
		inwatch_free(&w);
		return ret;
	}
	fill_usage(row, &ru, elapsed,
		   (uint64_t)json_integer_value(json_object_get(report, RC_BYTES_IN)),
		   (uint64_t)json_integer_value(json_object_get(report, "bytes_out")));
	if (report)
		row_merge(row, json_object_get(report, "extra"));
	if (cfg->hooks && cfg->hooks->after)
		cfg->hooks->after(cfg->hooks->arg, row);
	cache_left_note(cfg, fl, row); /* before check_output reads the outputs */
	change.changed = inwatch_changed(&w, cfg->job.in_dir, fl, &change.how,
					 change.why, sizeof(change.why));
	inwatch_free(&w);
	if (WIFSIGNALED(status) && (json_is_true(json_object_get(row, "oom_kill")) ||
				     json_is_string(json_object_get(row, "oom_elsewhere")))) {
		ret = oom_result(cfg, fl, row);
	} else if (WIFSIGNALED(status) && stop_caught()) {
		ret = -EINTR; /* iostrat's own SIGKILL after a stop: no strategy's fault */
	} else if (WIFSIGNALED(status)) {
		ret = row_error(row, -EINTR, "%s: strategy %s killed by signal %d (%s)",
				cfg->job.in_dir, cfg->strat->name, WTERMSIG(status),
				strsignal(WTERMSIG(status)));
	} else if (WEXITSTATUS(status) || !report) {
		const char *msg = json_string_value(json_object_get(report, "errmsg"));
		int err = (int)json_integer_value(json_object_get(report, "ret"));

		ret = row_error(row, err < 0 ? err : -EIO, "%s", msg && *msg ? msg :
				"strategy failed without a message");
	} else {
		ret = check_output(cfg, fl, ref_hex, &change, row);
	}
	note_input_change(cfg, fl, &change, rep, ret, row);
	json_decref(report);
	return ret;
}
