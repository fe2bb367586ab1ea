// SPDX-License-Identifier: MIT
/* Device numbers as the tracepoints report them. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/blockdev.h"
#include "lib/util.h"
#include "trace.h"

uint32_t kdev_of(dev_t d)
{
	return (uint32_t)(major(d) << 20 | (minor(d) & 0xfffff));
}

/* /sys/block/DISK/dev is "MAJ:MIN". */
static int disk_kdev(const char *disk, uint32_t *kdev)
{
	char p[PATH_MAX], v[64];
	unsigned ma, mi;
	int ret;

	snprintf(p, sizeof(p), "/sys/block/%s/dev", disk);
	ret = read_sysfs(p, v, sizeof(v));
	if (ret)
		return ret;
	if (sscanf(v, "%u:%u", &ma, &mi) != 2)
		return -EINVAL;
	*kdev = ma << 20 | mi;
	return 0;
}

int trace_dev_of_path(const char *path, uint32_t *disk_dev, uint32_t *fs_dev,
		      char *disk, size_t len)
{
	struct blockdev_info bi;
	int ret = blockdev_of_path(path, &bi);

	if (ret)
		return ret;
	*fs_dev = kdev_of(bi.dev);
	snprintf(disk, len, "%s", bi.disk);
	if (!bi.disk[0])
		return -ENODEV; /* tmpfs, overlay: no disk behind it */
	return disk_kdev(bi.disk, disk_dev);
}

int trace_dev_of_disk(const char *name, uint32_t *disk_dev, char *disk,
		      size_t len)
{
	const char *base = strrchr(name, '/');
	struct blockdev_info bi;
	struct stat sb;

	base = base ? base + 1 : name;
	if (!disk_kdev(base, disk_dev)) {
		snprintf(disk, len, "%s", base);
		return 0;
	}
	/* A partition (/dev/vda1) or dm node: its disk, via sysfs. */
	if (stat(name, &sb) == 0 && S_ISBLK(sb.st_mode)) {
		char p[PATH_MAX], real[PATH_MAX], *slash;

		snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/partition",
			 major(sb.st_rdev), minor(sb.st_rdev));
		if (access(p, F_OK)) {
			*disk_dev = kdev_of(sb.st_rdev);
			trace_disk_name(*disk_dev, disk, len);
			return 0;
		}
		snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/..",
			 major(sb.st_rdev), minor(sb.st_rdev));
		if (!realpath(p, real))
			return -errno;
		slash = strrchr(real, '/');
		snprintf(disk, len, "%s", slash ? slash + 1 : real);
		return disk_kdev(disk, disk_dev);
	}
	/* Anything else: the disk behind that path. */
	if (!blockdev_of_path(name, &bi) && bi.disk[0]) {
		snprintf(disk, len, "%s", bi.disk);
		return disk_kdev(bi.disk, disk_dev);
	}
	return -ENODEV;
}

void trace_disk_name(uint32_t kdev, char *buf, size_t len)
{
	char p[PATH_MAX], real[PATH_MAX], *slash;

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", kdev >> 20, kdev & 0xfffff);
	if (!realpath(p, real)) {
		snprintf(buf, len, "%u:%u", kdev >> 20, kdev & 0xfffff);
		return;
	}
	slash = strrchr(real, '/');
	snprintf(buf, len, "%s", slash ? slash + 1 : real);
}
