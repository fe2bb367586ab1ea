// SPDX-License-Identifier: MIT
/*
 * tracefs for the "tracepoint" attach family: libbpf reads each event's id
 * from /sys/kernel/tracing/events/CAT/NAME/id (or under debugfs).  systemd
 * mounts tracefs at boot; a machine booted without it (a minimal init, a
 * container, a freshly restarted CI box seen here) has the directory but
 * nothing in it.
 *
 * As root, iostrat then mounts tracefs itself -- in a mount namespace of its
 * own, made a slave of the host's, so the mount is seen by iostrat and the
 * commands it runs and vanishes with them: the system is left as it was,
 * also after a crash or SIGKILL, and nothing has to be unmounted.
 *
 * In a chroot "/" is not a mount point, and changing its propagation fails
 * (EINVAL): then every mount the chroot sees is made a slave one by one,
 * and the mount holding /sys/kernel/tracing must be one of them, or a
 * tracefs mount there could reach the system's mounts: iostrat refuses.
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>

#include "probe.h"

#define TRACEFS "/sys/kernel/tracing"

static bool has_events(void)
{
	return !access(TRACEFS "/events", F_OK) ||
	       !access("/sys/kernel/debug/tracing/events", F_OK);
}

/* mountinfo's escapes (\040 for a space, \011, \012, \134) undone in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++)
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] && s[3]) {
			*o++ = (char)strtol((char[]){ s[1], s[2], s[3], 0 }, NULL, 8);
			s += 3;
		} else {
			*o++ = *s;
		}
	*o = 0;
}

/* path lies on (or under) the mount point mp. */
static bool under(const char *path, const char *mp)
{
	size_t n = strlen(mp);

	return !strcmp(mp, "/") ||
	       (!strncmp(path, mp, n) && (path[n] == '/' || !path[n]));
}

/* Every mount in /proc/self/mountinfo a slave, one by one.  0, -EXDEV when
 * none of them holds TRACEFS, or -errno. */
static int slave_each_mount(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], mp[4096];
	bool holds = false;
	int err = 0;

	if (!f)
		return -errno;
	while (!err && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1)
			continue;
		unescape(mp);
		if (mount(NULL, mp, NULL, MS_SLAVE, NULL) && errno != ENOENT)
			err = -errno;
		holds |= under(TRACEFS, mp);
	}
	fclose(f);
	return err ? err : holds ? 0 : -EXDEV;
}

/* This (new) namespace's mounts slaves of the system's. */
static int make_slaves(void)
{
	if (!mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL))
		return 0;
	return errno == EINVAL ? slave_each_mount() : -errno;
}

static int mount_own(void)
{
	int err;

	if (geteuid() != 0)
		return -EACCES;
	/* CLONE_NEWNS affects this thread only: the probes are loaded, and
	 * the workload forked, from the same (main) thread. */
	if (unshare(CLONE_NEWNS))
		return -errno;
	err = make_slaves();
	if (err)
		return err;
	if (mount("tracefs", TRACEFS, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL))
		return -errno;
	return has_events() ? 0 : -ENOENT;
}

int tracefs_ensure(void)
{
	static int done; /* 0 not tried, 1 ok, < 0 -errno of the one try */

	if (done)
		return done > 0 ? 0 : done;
	if (probe_withheld("tracefs")) /* a machine without it, mounted or not */
		return done = -ENOENT;
	if (has_events())
		return done = 1, 0;
	done = mount_own();
	if (done)
		return done;
	fprintf(stderr, "iostrat: tracefs was not mounted; mounted it at "
		TRACEFS " in iostrat's own mount namespace (the system's "
		"mounts are unchanged)\n");
	return done = 1, 0;
}

void tracefs_explain(int err, const char *what, char *why, size_t len)
{
	if (err == -EACCES)
		snprintf(why, len, "%s: tracefs is not mounted at " TRACEFS
			 ", and only root can mount it", what);
	else if (err == -EXDEV)
		snprintf(why, len, "%s: tracefs is not mounted at " TRACEFS
			 ", and in this chroot no mount of its own holds it, so "
			 "a mount there could reach the system's", what);
	else if (err == -ENOENT && probe_withheld("tracefs"))
		snprintf(why, len, "%s: tracefs withheld by IOSTRAT_TRACE_WITHOUT",
			 what);
	else
		snprintf(why, len, "%s: tracefs is not mounted at " TRACEFS
			 " and mounting it failed: %s", what, strerror(-err));
}
