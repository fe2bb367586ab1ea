/* SPDX-License-Identifier: MIT */
/* Where a path lives: its filesystem, its disk and the disk's request-queue settings. */
#ifndef IOSTRAT_BLOCKDEV_H
#define IOSTRAT_BLOCKDEV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

/* Where a path lives: its filesystem and the disk whose request queue
 * serves it.  Partitions resolve to their disk and device-mapper devices
 * to the first disk below them; a loop device is its own disk (it has its
 * own queue and scheduler).  Empty strings when unknown (tmpfs, overlay). */
struct blockdev_info {
	dev_t dev;              /* st_dev of the path */
	char fs[32];            /* ext4, tmpfs, ... */
	char mount_point[256];
	char mount_options[256];
	char source[128];       /* /dev/vda1 as mounted */
	char device[64];        /* vda1: the block device holding the fs */
	char disk[64];          /* vda: the disk whose queue matters */
	char resolved_via[64];  /* "partition", "dm slave", "loop", "" */
};

int blockdev_of_path(const char *path, struct blockdev_info *bi);
/* /sys/block/DISK/queue/NAME into buf; -errno when absent. */
int blockdev_queue_attr(const char *disk, const char *name, char *buf,
			size_t len);
/* The active scheduler ("[mq-deadline]" form unwrapped), or "". */
void blockdev_scheduler(const char *disk, char *buf, size_t len);
/* /proc/diskstats' line of disk: dev[0] sectors read, dev[1] sectors
 * written (512 bytes each), dev[2] reads, dev[3] writes completed; false
 * when the disk is not there (or disk is ""). */
bool blockdev_diskstats(const char *disk, uint64_t dev[4]);
/* The same from /proc/diskstats open as f (reread from its start): a
 * sampler that must not open a file while it runs. */
bool blockdev_diskstats_in(FILE *f, const char *disk, uint64_t dev[4]);
/* {fs, mount_options, device, disk, scheduler, read_ahead_kb, rotational,
 *  nr_requests, logical_block_size} for a path. */
json_t *blockdev_json(const char *path);

#endif
