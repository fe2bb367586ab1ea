// SPDX-License-Identifier: MIT
/* Finding the shipped data files (profiles, fio jobs, plots) from the binary's place. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datadir.h"

/* Where the shipped data is, relative to the binary's directory, in the
 * order tried: a checkout (build/iostrat), an install (bin/iostrat), the
 * binary beside its data. */
static const char *const rel[] = { "..", "../share/iostrat", "." };
#define NREL (sizeof(rel) / sizeof(rel[0]))

/* The directory of the binary running (not argv[0]: found also when run
 * through $PATH or a symlink). */
static int exe_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	char *slash;

	if (n <= 0)
		return -ENOENT;
	dir[n] = 0;
	slash = strrchr(dir, '/');
	if (!slash)
		return -ENOENT;
	*slash = 0;
	return 0;
}

static int is_file(const char *p)
{
	struct stat sb;

	return !stat(p, &sb) && S_ISREG(sb.st_mode);
}

int datadir_file(const char *sub, const char *name, const char *ext,
		 char *out, size_t len)
{
	char exe[PATH_MAX];

	if (exe_dir(exe, sizeof(exe)))
		return -ENOENT;
	for (size_t i = 0; i < NREL; i++) {
		snprintf(out, len, "%s/%s/%s/%s", exe, rel[i], sub, name);
		if (is_file(out))
			return 0;
		snprintf(out, len, "%s/%s/%s/%s%s", exe, rel[i], sub, name, ext);
		if (is_file(out))
			return 0;
	}
	return -ENOENT;
}

int datadir_dir(const char *sub, bool (*ok)(const char *dir), char *out,
		size_t len)
{
	char exe[PATH_MAX];

	if (exe_dir(exe, sizeof(exe)))
		return -ENOENT;
	for (size_t i = 0; i < NREL; i++) {
		snprintf(out, len, "%s/%s/%s", exe, rel[i], sub);
		if (ok(out))
			return 0;
	}
	return -ENOENT;
}
