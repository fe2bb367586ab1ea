/* SPDX-License-Identifier: MIT */
/* A disk's request-queue settings: save, change with a read-back check, restore. */
#ifndef IOSTRAT_SCHED_SYSQ_H
#define IOSTRAT_SCHED_SYSQ_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * A disk's request-queue settings (/sys/block/DISK/queue/...): save them,
 * change them with a read-back check, and put them back.
 *
 * Before the first change, sysq_save writes a state file
 * RUNDIR/sched-DISK.json (RUNDIR = $IOSTRAT_RUN_DIR or /run/iostrat: a
 * tmpfs, so a reboot, which resets sysfs anyway, also forgets it) and
 * holds a lock on RUNDIR/sched-DISK.lock while it lives, removing the file
 * (still holding it) when it ends.  sysq_recover, called at the start of
 * `iostrat sched` and `iostrat bench`, restores any state file whose lock
 * is free (its owner was SIGKILLed) and removes that lock file -- one
 * opendir when there is nothing to do.
 */

#define SYSQ_MAX 64

struct sysq_val {
	char attr[64];     /* "scheduler", "read_ahead_kb", "iosched/quantum" */
	char value[128];
};

struct sysq {
	char disk[64];
	char dev[32];      /* "7:1": the disk's identity, checked on recovery */
	struct sysq_val v[SYSQ_MAX];
	size_t n;
	int lock_fd;       /* held on lock_path, which is removed when sched ends */
	char lock_path[PATH_MAX];
	char state_path[PATH_MAX];
	bool saved;
};

/* The attributes sched may change (besides the scheduler). */
bool sysq_settable(const char *attr);

/* Checks before anything changes, each printing one clear line:
 * DISK exists, has a scheduler file, we are root. */
int sysq_check_disk(const char *disk);
/* Is `name` one of the disk's schedulers? *avail gets the list. */
bool sysq_has_scheduler(const char *disk, const char *name, char *avail,
			size_t len);
/* The active scheduler of the disk ("none", "bfq", ...). */
int sysq_active(const char *disk, char *out, size_t len);

/* Read the scheduler, its tunables, read_ahead_kb, nr_requests and
 * wbt_lat_usec into s (no state file, no lock).  Prints its errors. */
int sysq_read(struct sysq *s, const char *disk);
/* Make the disk's settings those of s: the scheduler first, then the
 * queue's attributes, then the tunables; only what differs is written,
 * each write read back (sysq_set).  Stops at the first failure. */
int sysq_apply(const struct sysq *s);
/* Save scheduler, its tunables, read_ahead_kb, nr_requests, wbt_lat_usec;
 * write the state file and take its lock.  -EBUSY if another iostrat
 * holds the disk.  Prints its errors. */
int sysq_save(struct sysq *s, const char *disk);
/* Write attr (a queue/ attribute or "scheduler") and read it back.
 * Prints "iostrat: DISK: ATTR: ..." on failure. */
int sysq_set(const char *disk, const char *attr, const char *value);
/* Put everything back (scheduler first, then what differs), remove the
 * state file, drop the lock.  Safe to call twice. */
int sysq_restore(struct sysq *s);
/* Restore the state files left by killed processes.  Returns how many
 * were restored; warnings printed. */
int sysq_recover(void);
/* The current tunables as "name=value;..." (for result rows). */
void sysq_tunables(const char *disk, char *out, size_t len);

#endif
