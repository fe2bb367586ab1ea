// SPDX-License-Identifier: MIT
/* Where iostrat's own cgroup is: /proc/self/cgroup under the hierarchy's mount (mountinfo). */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_find.h"
#include "lib/util.h"

/* Whether word is one of the comma-separated list. */
static bool in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
		if (!strncmp(p, word, n) && (p[n] == ',' || !p[n] || p[n] == '\n' ||
					     p[n] == ' '))
			return true;
	return false;
}

/* The path of our cgroup in the hierarchy: controller NULL for v2's "0::" */
static int self_path(const char *controller, char *out, size_t len)
{
	char line[1024];
	FILE *f = fopen("/proc/self/cgroup", "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		*c2 = 0;
		line[strcspn(line, ":")] = 0;
		if (controller ? !in_list(c1 + 1, controller) : strcmp(line, "0") || c1[1])
			continue;
		c2[1 + strcspn(c2 + 1, "\n")] = 0;
		snprintf(out, len, "%s", c2 + 1);
		ret = 0;
	}
	fclose(f);
	return ret;
}

/* One mountinfo line: root, mount point, fstype, super options. */
static bool mount_fields(char *line, char **root, char **mnt, char **type, char **opts)
{
	char *dash = strstr(line, " - "), *save = NULL;

	if (!dash)
		return false;
	*dash = 0;
	strtok_r(line, " ", &save);      /* id */
	strtok_r(NULL, " ", &save);      /* parent */
	strtok_r(NULL, " ", &save);      /* major:minor */
	*root = strtok_r(NULL, " ", &save);
	*mnt = strtok_r(NULL, " ", &save);
	*type = strtok_r(dash + 3, " ", &save);
	strtok_r(NULL, " ", &save);      /* source */
	*opts = strtok_r(NULL, " \n", &save);
	return *root && *mnt && *type && *opts;
}

/* The mount of the hierarchy (v2: controller NULL) and its root. */
static int hierarchy_mount(const char *controller, char *mnt_out, char *root_out,
			   size_t len)
{
	char line[4096], *root, *mnt, *type, *opts;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		if (!mount_fields(line, &root, &mnt, &type, &opts))
			continue;
		if (controller ? strcmp(type, "cgroup") || !in_list(opts, controller)
			       : strcmp(type, "cgroup2"))
			continue;
		snprintf(mnt_out, len, "%s", mnt);
		snprintf(root_out, len, "%s", root);
		ret = 0;
	}
	fclose(f);
	return ret;
}

int cgroup_own(const char *controller, char *out, size_t len)
{
	char path[PATH_MAX], mnt[PATH_MAX], root[PATH_MAX];
	const char *rel;
	size_t rl;
	int ret = self_path(controller, path, sizeof(path));

	if (!ret)
		ret = hierarchy_mount(controller, mnt, root, sizeof(mnt));
	if (ret)
		return ret;
	rl = strlen(root);
	rel = strcmp(root, "/") && !strncmp(path, root, rl) ? path + rl : path;
	if (snprintf(out, len, "%s%s", mnt, strcmp(rel, "/") ? rel : "") >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

bool cgroup_has_controller(const char *dir, const char *controller)
{
	char p[PATH_MAX + 32], buf[512];

	snprintf(p, sizeof(p), "%s/cgroup.controllers", dir);
	if (read_sysfs(p, buf, sizeof(buf)))
		return false;
	for (char *s = buf; *s; s++)
		if (*s == ' ')
			*s = ',';
	return in_list(buf, controller);
}
