// SPDX-License-Identifier: MIT
/* Which filesystem and disk serve a path, and that disk's queue settings from sysfs. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blockdev.h"
#include "lib/util.h"

/* Pick the mountinfo entry for dev with the longest mount point that
 * prefixes the path (bind mounts share a dev).  In a chroot the mount
 * holding the path may be outside its view: then another mount of the same
 * dev (a bind from it) still tells the filesystem's type, and only that. */
static void mount_of(const char *path, dev_t dev, struct blockdev_info *bi)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	size_t best = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned ma, mi;
		char mp[1024], opts[512], fs[64], src[512];
		char *sep;

		if (sscanf(line, "%*u %*u %u:%u %*s %1023s %511s", &ma, &mi, mp,
			   opts) != 4)
			continue;
		if (makedev(ma, mi) != dev)
			continue;
		sep = strstr(line, " - ");
		if (!sep || sscanf(sep + 3, "%63s %511s", fs, src) != 2)
			continue;
		if (!best && !bi->fs[0])
			snprintf(bi->fs, sizeof(bi->fs), "%s", fs);
		if (!path_within(path, mp) || strlen(mp) < best)
			continue;
		best = strlen(mp);
		snprintf(bi->mount_point, sizeof(bi->mount_point), "%s", mp);
		snprintf(bi->mount_options, sizeof(bi->mount_options), "%s", opts);
		snprintf(bi->fs, sizeof(bi->fs), "%s", fs);
		snprintf(bi->source, sizeof(bi->source), "%s", src);
	}
	fclose(f);
}

/* For a dm device, the first slave, recursively. */
static void resolve_dm(char *disk, size_t len, char *via, size_t vlen)
{
	for (int depth = 0; depth < 8 && !strncmp(disk, "dm-", 3); depth++) {
		char p[PATH_MAX];
		struct dirent *de;
		DIR *d;
		int found = 0;

		snprintf(p, sizeof(p), "/sys/block/%s/slaves", disk);
		d = opendir(p);
		if (!d)
			return;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(disk, len, "%s", de->d_name);
			found = 1;
			break;
		}
		closedir(d);
		if (!found)
			return;
		snprintf(via, vlen, "dm slave");
		/* a slave may itself be a partition */
		snprintf(p, sizeof(p), "/sys/class/block/%s/partition", disk);
		if (!access(p, F_OK)) {
			char link[PATH_MAX], *slash;

			snprintf(p, sizeof(p), "/sys/class/block/%s", disk);
			if (!realpath(p, link))
				return;
			slash = strrchr(link, '/');
			if (slash) {
				*slash = 0;
				slash = strrchr(link, '/');
				if (slash)
					snprintf(disk, len, "%s", slash + 1);
			}
		}
	}
}

int blockdev_of_path(const char *path, struct blockdev_info *bi)
{
	char abs[PATH_MAX], sys[PATH_MAX], real[PATH_MAX], *slash;
	struct stat sb;
	int ret;

	memset(bi, 0, sizeof(*bi));
	ret = abspath(path, abs, sizeof(abs));
	if (ret)
		return ret;
	if (stat(abs, &sb) < 0)
		return -errno;
	bi->dev = sb.st_dev;
	mount_of(abs, sb.st_dev, bi);
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(sb.st_dev),
		 minor(sb.st_dev));
	if (!realpath(sys, real))
		return 0; /* no block device: tmpfs, overlay, nfs */
	slash = strrchr(real, '/');
	snprintf(bi->device, sizeof(bi->device), "%s", slash + 1);
	snprintf(bi->disk, sizeof(bi->disk), "%s", bi->device);
	snprintf(sys, sizeof(sys), "%s/partition", real);
	if (!access(sys, F_OK)) {
		*slash = 0;
		slash = strrchr(real, '/');
		snprintf(bi->disk, sizeof(bi->disk), "%s", slash + 1);
		snprintf(bi->resolved_via, sizeof(bi->resolved_via), "partition");
	}
	resolve_dm(bi->disk, sizeof(bi->disk), bi->resolved_via,
		   sizeof(bi->resolved_via));
	if (!strncmp(bi->disk, "loop", 4) && !bi->resolved_via[0])
		snprintf(bi->resolved_via, sizeof(bi->resolved_via), "loop");
	return 0;
}

int blockdev_queue_attr(const char *disk, const char *name, char *buf,
			size_t len)
{
	char p[PATH_MAX];

	if (!disk || !*disk)
		return -ENODEV;
	snprintf(p, sizeof(p), "/sys/block/%s/queue/%s", disk, name);
	return read_sysfs(p, buf, len);
}

void blockdev_scheduler(const char *disk, char *buf, size_t len)
{
	char raw[256], *a, *b;

	buf[0] = 0;
	if (blockdev_queue_attr(disk, "scheduler", raw, sizeof(raw)))
		return;
	a = strchr(raw, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b) {
		*b = 0;
		snprintf(buf, len, "%s", a + 1);
	} else {
		snprintf(buf, len, "%s", raw); /* "none" alone */
	}
}

static json_t *attr_json(const char *disk, const char *name)
{
	char v[256];
	uint64_t n;

	if (blockdev_queue_attr(disk, name, v, sizeof(v)))
		return json_null();
	if (!parse_u64(v, &n))
		return json_integer((json_int_t)n);
	return json_text(v);
}

json_t *blockdev_json(const char *path)
{
	struct blockdev_info bi;
	char sched[64];
	json_t *o = json_object();

	if (blockdev_of_path(path, &bi))
		return o;
	blockdev_scheduler(bi.disk, sched, sizeof(sched));
	json_object_set_new(o, "fs", json_text(bi.fs));
	json_object_set_new(o, "mount_point", json_text(bi.mount_point));
	json_object_set_new(o, "mount_options", json_text(bi.mount_options));
	json_object_set_new(o, "device", json_text(bi.device));
	json_object_set_new(o, "disk", json_text(bi.disk));
	json_object_set_new(o, "resolved_via", json_text(bi.resolved_via));
	json_object_set_new(o, "scheduler", json_text(sched));
	json_object_set_new(o, "read_ahead_kb", attr_json(bi.disk, "read_ahead_kb"));
	json_object_set_new(o, "rotational", attr_json(bi.disk, "rotational"));
	json_object_set_new(o, "nr_requests", attr_json(bi.disk, "nr_requests"));
	json_object_set_new(o, "logical_block_size",
			    attr_json(bi.disk, "logical_block_size"));
	return o;
}

/* "254 0 vda reads merged sectors ms writes merged sectors ..." */
bool blockdev_diskstats_in(FILE *f, const char *disk, uint64_t dev[4])
{
	char line[512], name[64];
	unsigned long long r, rs, w, ws;
	bool found = false;

	/* a seq file, read again from the start: the buffer dropped first
	 * (stdio would otherwise serve a seek to 0 from what it holds) */
	fflush(f);
	if (fseek(f, 0, SEEK_SET) || lseek(fileno(f), 0, SEEK_SET))
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*u %*u %63s %llu %*u %llu %*u %llu %*u %llu",
			       name, &r, &rs, &w, &ws) == 5 && !strcmp(name, disk);
	if (found) {
		dev[0] = rs;
		dev[1] = ws;
		dev[2] = r;
		dev[3] = w;
	}
	return found;
}

bool blockdev_diskstats(const char *disk, uint64_t dev[4])
{
	FILE *f = disk[0] ? fopen("/proc/diskstats", "re") : NULL;
	bool found = f && blockdev_diskstats_in(f, disk, dev);

	if (f)
		fclose(f);
	return found;
}
