/* SPDX-License-Identifier: MIT */
/* A repetition's own cgroup (v1 memory or v2): its memory limit, its accounting, its removal. */
#ifndef IOSTRAT_CGROUP_H
#define IOSTRAT_CGROUP_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

/*
 * Every cgroup iostrat makes is beneath the cgroup it runs in
 * (/proc/self/cgroup), named iostrat-PID..., and removed after the
 * repetition (one that cannot be, warned about in one line).  What an
 * iostrat that is gone left (its PID dead) is removed by the next iostrat
 * to make a cgroup there, before its first (cgroup_rep_open, cgroup_check).
 * A repetition's cgroup is named by a count of the cgroups this process
 * made (N = 1, 2, ...), never by its repetition number: a traced and a
 * timed repetition 1, or two configurations' repetition 1, are two names.
 *   v2 (the memory controller on the unified hierarchy): iostrat moves
 *      itself into OWN/iostrat-PID/main (a cgroup with processes cannot
 *      give controllers to its children), enables memory and io for
 *      OWN/iostrat-PID, and each repetition is OWN/iostrat-PID/cg-N;
 *      at exit it moves back and removes both.
 *   v1 (hybrid hosts): MEMORY_OWN/iostrat-PID-cg-N (v1 blkio's throttle
 *      files count nothing without a throttle rule: device I/O comes
 *      from /proc/diskstats, kcost.c).
 * Test seams: IOSTRAT_CGROUP_ROOT=DIR takes DIR as iostrat's own cgroup
 * (its version by the files in it), for tests of the refusal;
 * IOSTRAT_FAKE_CGROUP_ENTER_FAIL=1 makes cgroup_rep_enter fail with
 * EACCES (as a move across a delegation boundary would), the cgroup made.
 */
struct cgroup_rep {
	int version;             /* 0: none (why), 1 or 2 */
	char dir[PATH_MAX];      /* v2: the cgroup; v1: the memory cgroup */
	char why[256];           /* version 0: why there is no cgroup */
	uint64_t limit;          /* 0: none */
	bool oom;                /* after finish: the OOM killer killed in it */
	pthread_t sampler;
	bool sampling;
	pthread_mutex_t mu;      /* stop, and the sampler's wake-up */
	pthread_cond_t wake;
	bool stop;
	_Atomic uint64_t peak_anon, peak_file;
	_Atomic bool sampled;    /* a sample read memory.stat (the peaks are figures) */
	int stat_fd;             /* memory.stat, open from open to close (stat_open):
	                          * the sampler and the settle reread it, as an open
	                          * is a charge and the cgroup may be full */
	bool stat_open;
};

/* Make the repetition's cgroup, limit (0: none) set.  0, or -errno with
 * cg->why (version 0): a run that asked for a limit refuses in that line,
 * one that did not records why in cgroup_error. */
int cgroup_rep_open(struct cgroup_rep *cg, uint64_t limit);
/* Move pid (the waiting child) into it.  0, or -errno with cg->why
 * ("moving the repetition into DIR: reason") and version 0: the cgroup
 * is no longer the repetition's (finish writes cgroup_error, not its
 * figures; close still removes it). */
int cgroup_rep_enter(struct cgroup_rep *cg, pid_t pid);
/* Sample anon and page cache charged every 20 ms until cgroup_rep_finish
 * (which wakes the sampler: no wait for its next tick). */
void cgroup_rep_sample(struct cgroup_rep *cg);
/* Stop the sampler (cgroup_rep_finish and _close call it). */
void cgroup_rep_unsample(struct cgroup_rep *cg);
/* After its child died of SIGKILL: wait (up to 1 s) until the child's
 * anonymous memory is uncharged.  A killed child's pages are freed a few
 * milliseconds after it is reaped, and until then a charge by the harness
 * (opening a file) in a full enclosing cgroup makes the harness the next
 * OOM victim. */
void cgroup_rep_settle(struct cgroup_rep *cg);
/* Stop sampling; the cgroup's columns into row (cgroup_error when none). */
void cgroup_rep_finish(struct cgroup_rep *cg, json_t *row);
/* Whether the repetition's child was killed by the cgroup's OOM killer. */
bool cgroup_rep_oom(const struct cgroup_rep *cg);
/* Remove the cgroup (also after a signal: the child is reaped first). */
void cgroup_rep_close(struct cgroup_rep *cg);
/* The least memory_max a repetition starts in: iostrat's forked child,
 * moved into its cgroup, was killed before its strategy ran at 32 KiB and
 * ran stream at 48 KiB (Linux 6.18, cgroup v1, a 6-byte input); 1 MiB
 * leaves room for kernels that charge more. */
#define CGROUP_LIMIT_FLOOR (1024 * 1024)

/* Before any work: 0, or -errno after one line saying why a limit of
 * `limit` bytes cannot be set here ("memory_max: ...": below
 * CGROUP_LIMIT_FLOOR, or no cgroup). */
int cgroup_check(uint64_t limit);

/* The readers behind both versions (cgroup_read.c). */
/* The number after "KEY " at a line's start in text: 0, or -ENOENT. */
int cg_key_in(const char *text, const char *key, uint64_t *out);
int cg_read_key(const char *path, const char *key, uint64_t *out);
int cg_read_u64(const char *path, uint64_t *out);
/* PSI "total=" microseconds of some and full in a pressure file. */
int cg_read_psi(const char *path, uint64_t *some, uint64_t *full);

#endif
