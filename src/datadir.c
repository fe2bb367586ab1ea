// SPDX-License-Identifier: MIT
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datadir.h"

static int is_file(const char *p)
{
	struct stat sb;

	return !stat(p, &sb) && S_ISREG(sb.st_mode);
}

int datadir_file(const char *sub, const char *name, const char *ext,
		 char *out, size_t len)
{
	static const char *const rel[] = { "..", "../share/iostrat" };
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -ENOENT;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return -ENOENT;
	*slash = 0;
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(out, len, "%s/%s/%s/%s", exe, rel[i], sub, name);
		if (is_file(out))
			return 0;
		snprintf(out, len, "%s/%s/%s/%s%s", exe, rel[i], sub, name, ext);
		if (is_file(out))
			return 0;
	}
	return -ENOENT;
}
