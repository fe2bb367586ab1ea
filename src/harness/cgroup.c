// SPDX-License-Identifier: MIT
/* A repetition's cgroup: which hierarchy, the v2 leaf move, making, limiting and removing it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "cgroup_find.h"
#include "lib/util.h"

#define PREFIX "iostrat-"

/* The hierarchy chosen once per process. */
static struct {
	bool chosen, ready;
	int version;
	char own[PATH_MAX];      /* our cgroup (v2, or v1 memory) */
	char base[PATH_MAX];     /* v2: own/iostrat-PID */
	char why[256];
	bool enabled_own[2];     /* v2: we enabled memory, io in own */
	unsigned made;           /* repetition cgroups made: the next one's name */
} H;

static bool exists(const char *dir, const char *file)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	return !access(p, F_OK);
}

static int write_in(const char *dir, const char *file, const char *val)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	return write_sysfs(p, val);
}

/* rmdir, again for a moment (1 s) while the kernel lets go of a reaped
 * child; a cgroup that stays is said in one line (the sweep of the next
 * iostrat to make a cgroup here removes it once this one is gone). */
static void rmdir_patient(const char *dir)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	for (int i = 0; rmdir(dir) < 0 && errno != ENOENT; i++) {
		if (errno != EBUSY || i == 100) {
			warnf("%s: cannot remove iostrat's cgroup: %s (left behind)",
			      dir, strerror(errno));
			return;
		}
		nanosleep(&ts, NULL);
	}
}

static void choose_seam(const char *seam)
{
	snprintf(H.own, sizeof(H.own), "%s", seam);
	if (exists(seam, "cgroup.controllers"))
		H.version = 2;
	else if (exists(seam, "memory.limit_in_bytes"))
		H.version = 1;
	else
		snprintf(H.why, sizeof(H.why), "IOSTRAT_CGROUP_ROOT=%.200s is not a "
			 "cgroup (no cgroup.controllers, no memory.limit_in_bytes)",
			 seam);
}

static void choose_host(void)
{
	if (!cgroup_own(NULL, H.own, sizeof(H.own)) &&
	    cgroup_has_controller(H.own, "memory")) {
		H.version = 2;
		return;
	}
	if (!cgroup_own("memory", H.own, sizeof(H.own))) {
		H.version = 1;
		return;
	}
	snprintf(H.why, sizeof(H.why), "no memory controller: none on the cgroup "
		 "v2 hierarchy for this process and no cgroup v1 memory hierarchy "
		 "mounted");
}

/* A leftover cgroup and its child cgroups (empty: their processes are gone). */
static void remove_leftover(const char *p)
{
	char sub[PATH_MAX + 300];
	DIR *in = opendir(p);
	struct dirent *e;

	while (in && (e = readdir(in)))
		if (e->d_type == DT_DIR && e->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s", p, e->d_name);
			rmdir(sub);
		}
	if (in)
		closedir(in);
	rmdir(p);
}

/* Remove what an iostrat that is gone left under dir (its PID is dead). */
static void sweep(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	char p[PATH_MAX + 300];

	while (d && (de = readdir(d))) {
		long pid = strncmp(de->d_name, PREFIX, strlen(PREFIX)) ? 0 :
			   strtol(de->d_name + strlen(PREFIX), NULL, 10);

		if (pid <= 0 || pid == getpid() ||
		    !(kill((pid_t)pid, 0) < 0 && errno == ESRCH))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		remove_leftover(p);
	}
	if (d)
		closedir(d);
}

static void v2_teardown(void)
{
	char main_dir[PATH_MAX + 8], pid[24];

	if (!H.ready || H.version != 2)
		return;
	H.ready = false;
	write_in(H.base, "cgroup.subtree_control", "-memory");
	write_in(H.base, "cgroup.subtree_control", "-io");
	if (H.enabled_own[1])
		write_in(H.own, "cgroup.subtree_control", "-io");
	if (H.enabled_own[0])
		write_in(H.own, "cgroup.subtree_control", "-memory");
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	write_in(H.own, "cgroup.procs", pid);
	snprintf(main_dir, sizeof(main_dir), "%s/main", H.base);
	rmdir_patient(main_dir);
	rmdir_patient(H.base);
}

/* Give `what` (memory, io) to own's children; whether we turned it on. */
static int v2_enable(const char *dir, const char *what, bool *turned_on)
{
	char on[16], cur[256], p[PATH_MAX + 32];

	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", dir);
	if (!read_sysfs(p, cur, sizeof(cur)) && strstr(cur, what))
		return 0;
	snprintf(on, sizeof(on), "+%s", what);
	int ret = write_sysfs(p, on);

	if (!ret && turned_on)
		*turned_on = true;
	return ret;
}

static int v2_failed(int err, const char *dir, const char *what)
{
	if (err == -EBUSY && !strcmp(what, "give the memory controller to its children"))
		snprintf(H.why, sizeof(H.why), "%.120s: cannot give the memory "
			 "controller to iostrat's cgroups: the cgroup holds other "
			 "processes (run iostrat in a cgroup of its own, e.g. "
			 "systemd-run --scope)", dir);
	else
		snprintf(H.why, sizeof(H.why), "%.150s: cannot %s: %s", dir, what,
			 strerror(-err));
	return err;
}

/* iostrat into own/iostrat-PID/main, memory (and io) for own/iostrat-PID's children. */
static int v2_setup(void)
{
	static const char give[] = "give the memory controller to its children";
	char main_dir[PATH_MAX + 8], pid[24];
	int ret;

	snprintf(H.base, sizeof(H.base), "%s/" PREFIX "%d", H.own, (int)getpid());
	snprintf(main_dir, sizeof(main_dir), "%s/main", H.base);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (mkdir(H.base, 0755) < 0 && errno != EEXIST)
		return v2_failed(-errno, H.own, "make iostrat's cgroup");
	H.ready = true; /* v2_teardown removes what there is */
	atexit(v2_teardown);
	if (mkdir(main_dir, 0755) < 0 && errno != EEXIST)
		return v2_failed(-errno, H.base, "make iostrat's leaf cgroup");
	if ((ret = write_in(main_dir, "cgroup.procs", pid)))
		return v2_failed(ret, main_dir, "move iostrat into its leaf");
	if (!cgroup_has_controller(H.own, "memory"))
		return v2_failed(-ENOTSUP, H.own, "give the memory controller to its "
				 "children (not in its cgroup.controllers)");
	if ((ret = v2_enable(H.own, "memory", &H.enabled_own[0])))
		return v2_failed(ret, H.own, give);
	if (cgroup_has_controller(H.own, "io"))
		v2_enable(H.own, "io", &H.enabled_own[1]);
	if ((ret = v2_enable(H.base, "memory", NULL)))
		return v2_failed(ret, H.base, give);
	if (cgroup_has_controller(H.base, "io"))
		v2_enable(H.base, "io", NULL);
	return 0;
}

/* 0 when a hierarchy is usable (H.version), else -errno and H.why. */
static int choose(void)
{
	const char *seam = getenv("IOSTRAT_CGROUP_ROOT");
	int ret = 0;

	if (H.chosen)
		return H.version ? 0 : -ENOTSUP;
	H.chosen = true;
	if (seam && *seam)
		choose_seam(seam);
	else
		choose_host();
	if (!H.version)
		return -ENOTSUP;
	sweep(H.own);
	if (H.version == 2)
		ret = v2_setup();
	if (ret && !H.why[0])
		snprintf(H.why, sizeof(H.why), "%.150s: cannot make iostrat's "
			 "cgroup: %s", H.own, strerror(-ret));
	if (ret) {
		v2_teardown();
		H.version = 0;
	}
	return ret;
}

static void set_why(struct cgroup_rep *cg, const char *dir, int err)
{
	snprintf(cg->why, sizeof(cg->why), "%.180s: cannot make a cgroup: %s", dir,
		 strerror(-err));
}

/* Write the limit into dir/file: 0, or -errno and cg->why naming the file. */
static int set_limit(struct cgroup_rep *cg, const char *file)
{
	char lim[32];
	int ret;

	snprintf(lim, sizeof(lim), "%" PRIu64, cg->limit);
	ret = write_in(cg->dir, file, lim);
	if (ret)
		snprintf(cg->why, sizeof(cg->why), "%.180s/%s: cannot set %s: %s",
			 cg->dir, file, lim, strerror(-ret));
	return ret;
}

/* v1: the memory cgroup (which must be one: mkdir made its files); the
 * limit on memory, then (swap accounted: memsw >= memory) on memory +
 * swap too, as v2's memory.swap.max 0: killed at the limit, not swapped. */
static int v1_open(struct cgroup_rep *cg, const char *name)
{
	int ret;

	snprintf(cg->dir, sizeof(cg->dir), "%s/%s", H.own, name);
	if (mkdir(cg->dir, 0755) < 0)
		return -errno;
	if (!exists(cg->dir, "memory.limit_in_bytes")) {
		rmdir(cg->dir);
		snprintf(cg->why, sizeof(cg->why), "%.180s: not a cgroup file system "
			 "(mkdir made no memory.limit_in_bytes)", H.own);
		return -ENOTSUP;
	}
	if (!cg->limit)
		return 0;
	ret = set_limit(cg, "memory.limit_in_bytes");
	if (!ret && exists(cg->dir, "memory.memsw.limit_in_bytes"))
		ret = set_limit(cg, "memory.memsw.limit_in_bytes");
	return ret;
}

static int v2_open(struct cgroup_rep *cg, const char *name)
{
	char lim[32];
	int ret;

	snprintf(cg->dir, sizeof(cg->dir), "%s/%s", H.base, name);
	if (mkdir(cg->dir, 0755) < 0)
		return -errno;
	if (!cg->limit)
		return 0;
	snprintf(lim, sizeof(lim), "%" PRIu64, cg->limit);
	ret = write_in(cg->dir, "memory.max", lim);
	if (!ret && exists(cg->dir, "memory.swap.max"))
		write_in(cg->dir, "memory.swap.max", "0");
	return ret;
}

/* memory.stat kept open for the repetition (a missing one: the sampler
 * reads nothing, as before) */
static void stat_open(struct cgroup_rep *cg)
{
	char p[PATH_MAX + 16];

	snprintf(p, sizeof(p), "%s/memory.stat", cg->dir);
	cg->stat_fd = open(p, O_RDONLY | O_CLOEXEC);
	cg->stat_open = cg->stat_fd >= 0;
}

int cgroup_rep_open(struct cgroup_rep *cg, uint64_t limit)
{
	char name[64];
	int ret;

	memset(cg, 0, sizeof(*cg));
	cg->limit = limit;
	ret = choose();
	if (ret) {
		snprintf(cg->why, sizeof(cg->why), "%s", H.why);
		return ret;
	}
	/* one name per cgroup of this process: never a repetition number
	 * (a traced and a timed rep 1, two configurations' rep 1) */
	if (H.version == 2)
		snprintf(name, sizeof(name), "cg-%u", ++H.made);
	else
		snprintf(name, sizeof(name), PREFIX "%d-cg-%u", (int)getpid(), ++H.made);
	ret = H.version == 2 ? v2_open(cg, name) : v1_open(cg, name);
	if (ret) {
		if (!cg->why[0])
			set_why(cg, H.version == 2 ? H.base : H.own, ret);
		cgroup_rep_close(cg);
		return ret;
	}
	cg->version = H.version;
	stat_open(cg);
	return 0;
}

int cgroup_rep_enter(struct cgroup_rep *cg, pid_t pid)
{
	char s[24];
	int ret;

	if (!cg->version)
		return 0;
	snprintf(s, sizeof(s), "%d", (int)pid);
	/* test seam (cgroup.h): the move refused */
	ret = getenv("IOSTRAT_FAKE_CGROUP_ENTER_FAIL") ? -EACCES :
	      write_in(cg->dir, "cgroup.procs", s);
	if (!ret)
		return 0;
	snprintf(cg->why, sizeof(cg->why), "moving the repetition into %.180s: %s",
		 cg->dir, strerror(-ret));
	cg->version = 0; /* the empty cgroup's figures are not the repetition's */
	return ret;
}

void cgroup_rep_close(struct cgroup_rep *cg)
{
	cgroup_rep_unsample(cg);
	if (cg->stat_open)
		close(cg->stat_fd);
	cg->stat_open = false;
	if (cg->dir[0])
		rmdir_patient(cg->dir);
	cg->dir[0] = 0;
	cg->version = 0;
}

int cgroup_check(uint64_t limit)
{
	struct cgroup_rep cg;
	char lim[32], floor[32];
	int ret;

	if (!limit)
		return 0;
	if (limit < CGROUP_LIMIT_FLOOR) {
		errorf("memory_max: %s is below the %s a repetition needs to start "
		       "(0: no limit)", fmt_limit(limit, lim, sizeof(lim)),
		       fmt_limit(CGROUP_LIMIT_FLOOR, floor, sizeof(floor)));
		return -EINVAL;
	}
	ret = cgroup_rep_open(&cg, limit);
	cgroup_rep_close(&cg);
	if (ret)
		errorf("memory_max: cannot limit a repetition's memory here: %s", cg.why);
	return ret;
}
