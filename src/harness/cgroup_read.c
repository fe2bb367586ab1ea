// SPDX-License-Identifier: MIT
/* Reading cgroup and /proc counter files: "key value" lines, one number, PSI totals. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "lib/util.h"

int cg_key_in(const char *text, const char *key, uint64_t *out)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, klen) && p[klen] == ' ') {
			*out = strtoull(p + klen + 1, NULL, 10);
			return 0;
		}
	return -ENOENT;
}

int cg_read_key(const char *path, const char *key, uint64_t *out)
{
	size_t len;
	char *text;
	int ret = read_file_small(path, &text, &len);

	if (ret)
		return ret;
	ret = cg_key_in(text, key, out);
	free(text);
	return ret;
}

int cg_read_u64(const char *path, uint64_t *out)
{
	char buf[64];
	int ret = read_sysfs(path, buf, sizeof(buf));

	if (ret)
		return ret;
	*out = strtoull(buf, NULL, 10);
	return 0;
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=123" */
static uint64_t psi_total(const char *text, const char *kind)
{
	const char *p = strstr(text, kind), *t;

	if (!p)
		return 0;
	t = strstr(p, "total=");
	return t ? strtoull(t + 6, NULL, 10) : 0;
}

int cg_read_psi(const char *path, uint64_t *some, uint64_t *full)
{
	size_t len;
	char *text;
	int ret = read_file_small(path, &text, &len);

	if (ret)
		return ret;
	*some = psi_total(text, "some ");
	*full = psi_total(text, "full ");
	free(text);
	return 0;
}
