/* SPDX-License-Identifier: MIT */
/* Where iostrat's own cgroup is, per hierarchy (see cgroup_find.c). */
#ifndef IOSTRAT_CGROUP_FIND_H
#define IOSTRAT_CGROUP_FIND_H

#include <stdbool.h>
#include <stddef.h>

/* The directory of the cgroup this process is in: controller "memory" or
 * "blkio" for a v1 hierarchy, NULL for the v2 one.  0 or -errno
 * (-ENOENT: no such hierarchy mounted or we are in none). */
int cgroup_own(const char *controller, char *out, size_t len);
/* Whether a v2 cgroup directory offers controller (cgroup.controllers). */
bool cgroup_has_controller(const char *dir, const char *controller);

#endif
