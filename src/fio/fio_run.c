// SPDX-License-Identifier: MIT
/* Running an fio job on a data set: the job's file, its environment, fio's errors and its row. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/blockdev.h"
#include "config/datadir.h"
#include "harness/env.h"
#include "results/row.h"
#include "harness/sigfwd.h"
#include "core/strategy.h"
#include "lib/util.h"
#include "fio.h"

int fio_version(char *buf, size_t len)
{
	FILE *p = popen("fio --version 2>/dev/null", "r");
	int st;

	if (!p)
		return -errno;
	if (!fgets(buf, (int)len, p))
		buf[0] = 0;
	st = pclose(p);
	buf[strcspn(buf, "\n")] = 0;
	if (st != 0 || !buf[0])
		return -ENOENT;
	return 0;
}

static bool readable(const char *dir)
{
	return !access(dir, R_OK);
}

int fio_job_dir(char *out, size_t len)
{
	const char *env = getenv("IOSTRAT_FIO_JOBS");

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return 0;
	}
	if (!datadir_dir("fio-jobs", readable, out, len))
		return 0;
	snprintf(out, len, "/usr/local/share/iostrat/fio-jobs");
	return access(out, R_OK) ? -ENOENT : 0;
}

int fio_job_env_check(void)
{
	const char *env = getenv("IOSTRAT_FIO_JOBS");
	struct stat sb;
	int ret = 0;

	if (!env || !*env)
		return 0;
	if (stat(env, &sb) < 0 || (S_ISDIR(sb.st_mode) && access(env, R_OK | X_OK) < 0))
		ret = -errno;
	else if (!S_ISDIR(sb.st_mode))
		ret = -ENOTDIR;
	if (ret)
		errorf("IOSTRAT_FIO_JOBS=%s: not a readable directory of fio jobs (%s)",
		       env, strerror(-ret));
	return ret;
}

void fio_job_error(const char *prefix, const char *name, int err)
{
	const char *env = getenv("IOSTRAT_FIO_JOBS");
	char dir[PATH_MAX];

	if (strchr(name, '/'))
		errorf("%s%s: no such fio job (%s)", prefix, name, strerror(-err));
	else if (fio_job_dir(dir, sizeof(dir)))
		errorf("%s%s: no such fio job: no fio-jobs directory found", prefix, name);
	else
		errorf("%s%s: no such fio job in %s%s (%s)", prefix, name, dir,
		       env && *env ? " (IOSTRAT_FIO_JOBS)" : "", strerror(-err));
}

int fio_job_path(const char *name, char *out, size_t len)
{
	char dir[PATH_MAX];
	int ret;

	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return access(out, R_OK) ? -errno : 0;
	}
	ret = fio_job_dir(dir, sizeof(dir));
	if (ret)
		return ret;
	snprintf(out, len, "%s/%s%s", dir, name,
		 strstr(name, ".fio") ? "" : ".fio");
	return access(out, R_OK) ? -errno : 0;
}

/* The value of a "; KEY:" line in a job file's opening comment ("" for
 * "-"); -ENODATA when there is none. */
static int fio_job_decl(const char *path, const char *key, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	char line[512], head[64];
	size_t hn = (size_t)snprintf(head, sizeof(head), "; %s:", key);
	int ret = -ENODATA;

	buf[0] = 0;
	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		char *m = line + hn;

		if (line[0] != ';')
			break;
		if (strncmp(line, head, hn))
			continue;
		m += strspn(m, " ");
		m[strcspn(m, "\n")] = 0;
		snprintf(buf, len, "%s", strcmp(m, "-") ? m : "");
		ret = 0;
	}
	fclose(f);
	return ret;
}

int fio_job_mirrors(const char *path, char *buf, size_t len)
{
	return fio_job_decl(path, "mirrors", buf, len);
}

uint64_t fio_bs_for(const char *strategy, uint64_t chunk, uint64_t bufsize)
{
	const struct strategy *s = strategy ? strategy_find(strategy) : NULL;

	if (chunk)
		return chunk;
	if (bufsize)
		return bufsize;
	if (s && s->default_io)
		return s->default_io;
	return 1 << 20; /* buffer: whole files; fio reads them in 1 MiB */
}

unsigned fio_qd_for(const char *strategy, unsigned qd)
{
	const struct strategy *s = strategy ? strategy_find(strategy) : NULL;

	if (qd)
		return qd;
	return s && s->default_qd ? s->default_qd : 8;
}

static int is_wanted(char *tok, void *want)
{
	return !strcmp(tok, want);
}

bool fio_mirrors_has(const char *list, const char *want)
{
	return words_each(list, " ,", is_wanted, (void *)want) == 1;
}

void fio_mirror_token(const char *strategy, bool direct, char *buf, size_t len)
{
	const struct strategy *s = strategy_find(strategy);
	bool always = s && (s->flags & STRAT_ALWAYS_DIRECT);

	snprintf(buf, len, "%s%s", strategy, direct && !always ? "+direct" : "");
}

static int is_job(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 4 && !strcmp(d->d_name + n - 4, ".fio");
}

/* The first job of dir, in name order, whose "; mirrors:" list names
 * want: 0 (its path in out), -ENOENT, or -EINVAL after naming the first
 * job file without a "; mirrors:" line (every job says what it mirrors). */
static int scan_jobs(const char *dir, const char *want, char *out, size_t len)
{
	struct dirent **ents;
	char m[256], p[PATH_MAX];
	int n = scandir(dir, &ents, is_job, alphasort), ret = -ENOENT;

	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		int r;

		snprintf(p, sizeof(p), "%s/%s", dir, ents[i]->d_name);
		free(ents[i]);
		r = fio_job_mirrors(p, m, sizeof(m));
		if (r == -ENODATA && ret != -EINVAL) {
			errorf("%s: no \"; mirrors:\" line in its opening comment "
			       "(the strategies it mirrors, or -)", p);
			ret = -EINVAL;
		} else if (!r && ret == -ENOENT && fio_mirrors_has(m, want)) {
			snprintf(out, len, "%s", p);
			ret = 0;
		}
	}
	free(ents);
	return ret;
}

int fio_job_for(const char *strategy, bool direct, char *out, size_t len)
{
	char dir[PATH_MAX], want[128];
	int ret = fio_job_dir(dir, sizeof(dir));

	if (ret)
		return ret;
	fio_mirror_token(strategy, direct, want, sizeof(want));
	return scan_jobs(dir, want, out, len);
}


/* "a:b:c" of dir/names, or of scratch/fio-out-N; fio splits on ':'. */
static char *file_list(const char *dir, const struct filelist *fl, int outputs)
{
	size_t cap = 1, n = 0;
	char *s;

	for (size_t i = 0; i < fl->n; i++)
		cap += strlen(dir) + strlen(fl->names[i]) + 32;
	s = malloc(cap);
	if (!s)
		return NULL;
	s[0] = 0;
	for (size_t i = 0; i < fl->n; i++) {
		if (outputs)
			n += (size_t)snprintf(s + n, cap - n, "%s%s/fio-out-%zu", i ? ":" : "",
					      dir, i);
		else
			n += (size_t)snprintf(s + n, cap - n, "%s%s/%s", i ? ":" : "", dir,
					      fl->names[i]);
	}
	return s;
}

static void set_env_u64(const char *k, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	setenv(k, buf, 1);
}

int fio_job_env(const struct fio_params *p)
{
	char *in = file_list(p->in_dir, p->fl, 0), *out = file_list(p->scratch, p->fl, 1);

	if (!in || !out) {
		free(in);
		free(out);
		return -ENOMEM;
	}
	setenv("IOSTRAT_FILES", in, 1);
	setenv("IOSTRAT_OUTFILES", out, 1);
	free(in);
	free(out);
	set_env_u64("IOSTRAT_SIZE", p->fl->total);
	set_env_u64("IOSTRAT_BS", p->set->bs);
	set_env_u64("IOSTRAT_QD", p->set->qd);
	set_env_u64("IOSTRAT_DIRECT", p->set->direct);
	set_env_u64("IOSTRAT_FSYNC_ON_CLOSE", p->set->fsync == FSYNC_FILE);
	set_env_u64("IOSTRAT_END_FSYNC", p->set->fsync == FSYNC_END);
	return 0;
}

static void remove_outputs(const struct fio_params *p)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < p->fl->n; i++) {
		snprintf(path, sizeof(path), "%s/fio-out-%zu", p->scratch, i);
		unlink(path);
	}
}

/* fio as a child: stdout to nowhere, stderr kept for the error line.  In
 * its own process group, so a signal to us reaches fio and the job
 * processes it forks (sigfwd), and not the other way round. */
int fio_spawn(const struct fio_params *p, const char *errlog,
	      struct rusage *ru, double *wall)
{
	char out_opt[PATH_MAX + 16];
	/* fio's own client: "--client=SPEC JOB" per host, each host the job */
	const char *argv[8 + 2 * FIO_CLIENTS_MAX];
	size_t ac = 0;
	int status;
	double t0 = now_mono();
	pid_t pid;

	snprintf(out_opt, sizeof(out_opt), "--output=%s", p->json_out);
	argv[ac++] = "fio";
	argv[ac++] = "--output-format=json";
	argv[ac++] = out_opt;
	for (size_t i = 0; i < p->nclients && i < FIO_CLIENTS_MAX; i++) {
		argv[ac++] = p->clients[i].opt;
		argv[ac++] = p->job;
	}
	if (!p->nclients)
		argv[ac++] = p->job;
	argv[ac] = NULL;
	sigfwd_block(true);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		sigfwd_block(false);
		return err;
	}
	if (pid == 0) {
		int fd;

		sigfwd_in_child();
		setpgid(0, 0);
		fd = open(errlog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		/* we killed with SIGKILL: fio stops its jobs and goes too */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (fd >= 0) {
			dup2(fd, 2);
			dup2(fd, 1);
		}
		execvp("fio", (char *const *)argv);
		_exit(127);
	}
	setpgid(pid, pid); /* whichever of us runs first */
	sigfwd_block(false);
	sigfwd_child(pid, true);
	while (wait4(pid, &status, 0, ru) < 0)
		if (errno != EINTR)
			break;
	sigfwd_child(0, false);
	*wall = now_mono() - t0;
	if (sigfwd_caught())
		return -EINTR;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -ENOENT;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

/* A line of fio's that says what went wrong: fio mixes its reasons with
 * its usage page ("No job(s) defined" comes after 40 lines of it). */
static bool is_reason(const char *line)
{
	static const char *const words[] = {
		"error", "fio:", "No job", "invalid", "Invalid", "failed",
		"unknown", "Bad ", "bad ", NULL,
	};

	for (size_t i = 0; words[i]; i++)
		if (strstr(line, words[i]))
			return true;
	return false;
}

/* fio's reason: its first line that says what went wrong, else its last
 * line, else that it printed nothing. */
void fio_first_error(const char *log, char *buf, size_t len)
{
	char *txt = NULL, *line, *save, *last = NULL;

	snprintf(buf, len, "fio failed (it printed nothing on stderr)");
	if (read_file_small(log, &txt, NULL))
		return;
	for (line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (is_reason(line))
			break;
		if (*line)
			last = line;
	}
	if (!line)
		line = last;
	if (line)
		snprintf(buf, len, "%s%s", strstr(line, "fio") ? "" : "fio: ", line);
	free(txt);
}

static void set_device_columns(const char *dir, json_t *row)
{
	json_t *bd = blockdev_json(dir);

	json_object_set(row, "scheduler", json_object_get(bd, "scheduler"));
	json_object_set(row, "device", json_object_get(bd, "disk"));
	json_object_set(row, "fs", json_object_get(bd, "fs"));
	json_decref(bd);
}

void fio_fill_row(const struct fio_params *p, json_t *row, double resident,
		  const struct rusage *ru, double wall)
{
	char mirrors[256];
	const char *base = strrchr(p->job, '/') ? strrchr(p->job, '/') + 1 : p->job;
	char stem[128];

	snprintf(stem, sizeof(stem), "%.*s", (int)strcspn(base, "."), base);
	fio_job_mirrors(p->job, mirrors, sizeof(mirrors));
	json_object_set_new(row, RC_CONFIG_ID, json_text(p->config_id));
	if (p->dataset)
		json_object_set_new(row, RC_DATASET, json_text(p->dataset));
	json_object_set_new(row, "files", json_integer((json_int_t)p->fl->n));
	json_object_set_new(row, RC_STRATEGY, json_sprintf("fio-%s", stem));
	json_object_set_new(row, RC_THREADS, json_integer(1));
	settings_row(fio_settings, p->set, row); /* cache bufsize qd direct fsync */
	json_object_set_new(row, "resident_pct_before", json_real(resident));
	json_object_set_new(row, RC_USER, json_real((double)ru->ru_utime.tv_sec +
						     ru->ru_utime.tv_usec / 1e6));
	json_object_set_new(row, RC_SYS, json_real((double)ru->ru_stime.tv_sec +
						    ru->ru_stime.tv_usec / 1e6));
	json_object_set_new(row, RC_MAXRSS, json_integer(ru->ru_maxrss));
	json_object_set_new(row, "minflt", json_integer(ru->ru_minflt));
	json_object_set_new(row, "majflt", json_integer(ru->ru_majflt));
	json_object_set_new(row, "nvcsw", json_integer(ru->ru_nvcsw));
	json_object_set_new(row, "nivcsw", json_integer(ru->ru_nivcsw));
	json_object_set_new(row, "traced", json_false());
	json_object_set_new(row, "kernel", json_text(env_kernel()));
	json_object_set_new(row, "host", json_text(env_host()));
	json_object_set_new(row, "baseline_of", json_text(mirrors));
	json_object_set_new(row, "fio_job", json_text(base));
	json_object_set_new(row, "fio_wall_s", json_real(wall));
	set_device_columns(p->in_dir, row);
}

static int parse_output(const struct fio_params *p, json_t *row)
{
	json_error_t e;
	const char *why;
	json_t *j = json_load_file(p->json_out, 0, &e);
	int ret;

	if (!j) {
		errorf("%s: fio's JSON does not parse (%s, line %d)", p->json_out,
		       e.text, e.line);
		return -EINVAL;
	}
	ret = fio_parse_json(j, row, &why);
	json_decref(j);
	if (ret) {
		errorf("%s: fio's JSON lacks the '%s' section this version of iostrat "
		       "reads", p->json_out, why);
		return ret;
	}
	/* the measured time is fio's own runtime, not its start-up */
	json_object_set(row, RC_ELAPSED, json_object_get(row, "fio_elapsed_s"));
	return 0;
}

int fio_run(const struct fio_params *p, json_t **rowp)
{
	char errlog[PATH_MAX], msg[512];
	const char *how, *bad, *method;
	json_t *row = row_new(p->bench, "fio");
	struct rusage ru = { 0 };
	double resident = 0, wall = 0;
	int ret;

	*rowp = row;
	snprintf(errlog, sizeof(errlog), "%s.log", p->json_out);
	ret = fio_job_env(p);
	if (!ret) {
		remove_outputs(p);
		sync();
		ret = cache_prepare(p->in_dir, p->fl, p->set->cache, &how, &bad);
		if (!ret)
			ret = cache_residency(p->in_dir, p->fl, &resident, &method, &bad);
		if (ret)
			error_errno(ret, bad, "preparing the cache for fio");
	}
	if (!ret) {
		sigfwd_catch();
		ret = fio_spawn(p, errlog, &ru, &wall);
		sigfwd_release();
		if (ret == -EINTR) { /* interrupted: no row, no half JSON */
			unlink(p->json_out);
			unlink(errlog);
		} else if (ret == -ENOENT)
			errorf("fio: not installed (apt-get install fio); no baseline");
		else if (ret) {
			fio_first_error(errlog, msg, sizeof(msg));
			errorf("%s: %s", p->job, msg);
		}
	}
	remove_outputs(p);
	/* a failed baseline's row still says which it was (strategy, bs...) */
	if (ret != -EINTR)
		fio_fill_row(p, row, resident, &ru, wall);
	if (!ret)
		ret = parse_output(p, row);
	if (!ret)
		unlink(errlog); /* kept only when fio failed */
	if (ret)
		json_object_set_new(row, "error", json_text("fio baseline failed"));
	return ret;
}
