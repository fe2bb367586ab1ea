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
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
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

int tracefs_ensure(void)
{
	static int done; /* 0 not tried, 1 ok, < 0 -errno of the one try */

	if (done)
		return done > 0 ? 0 : done;
	if (has_events())
		return done = 1, 0;
	if (geteuid() != 0)
		return done = -EACCES;
	/* CLONE_NEWNS affects this thread only: the probes are loaded, and
	 * the workload forked, from the same (main) thread. */
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) ||
	    mount("tracefs", TRACEFS, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL))
		return done = -errno;
	if (!has_events())
		return done = -ENOENT;
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
	else
		snprintf(why, len, "%s: tracefs is not mounted at " TRACEFS
			 " and mounting it failed: %s", what, strerror(-err));
}
