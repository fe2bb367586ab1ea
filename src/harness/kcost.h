/* SPDX-License-Identifier: MIT */
/* The kernel's work around a repetition, system-wide (see kcost.c). */
#ifndef IOSTRAT_KCOST_H
#define IOSTRAT_KCOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct kthread {
	int pid;
	unsigned long long ticks, start;
	char name[32];
};

/*
 * Taken before the child starts and after it is reaped: the CPU time of
 * kernel threads (PF_KTHREAD: kswapd, kworker*, ksoftirqd*, the rest)
 * between the two scans of /proc/PID/stat, /proc/pressure's io and
 * memory stall totals, /proc/vmstat's reclaim.  System-wide: work for
 * other processes in that time counts too (docs/memory.md).
 */
struct kcost {
	struct kthread *before;
	size_t nbefore;
	uint64_t vm[3];   /* pgscan, pgsteal, workingset_refault */
	uint64_t psi[4];  /* io some, io full, memory some, memory full (us) */
	bool psi_ok;
	char disk[32];    /* the input's disk in /proc/diskstats, "" if unknown */
	uint64_t dev[4];  /* its sectors read, sectors written, reads, writes */
	bool dev_ok;
};

/* disk: the input's whole disk (env's "disk", e.g. vda), or NULL. */
void kcost_begin(struct kcost *k, const char *disk);
/* The deltas into row: kthread_s, kswapd_s, kworker_s, ksoftirqd_s,
 * pgscan, pgsteal, workingset_refault (reclaim_source "system"),
 * psi_*_us (psi_source "system"), dev_* of the disk (dev_source); a cgroup's own figures overwrite them. */
void kcost_end(struct kcost *k, json_t *row);

#endif
