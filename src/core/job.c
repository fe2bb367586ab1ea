// SPDX-License-Identifier: MIT
/* Helpers a strategy uses on its job: its options by name and its input paths. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "strategy.h"
#include "lib/util.h"

const char *job_opt_get(const struct job *job, const char *name)
{
	for (size_t i = 0; i < job->nopts; i++)
		if (!strcmp(job->opts[i].name, name))
			return job->opts[i].value;
	return NULL;
}

int job_opt_size(const struct job *job, const char *name, size_t def,
		 size_t *out)
{
	const char *v = job_opt_get(job, name);
	uint64_t n;

	*out = def;
	if (!v)
		return 0;
	if (parse_size(v, &n) || n == 0 || n > SIZE_MAX / 2)
		return -EINVAL;
	*out = (size_t)n;
	return 0;
}

void job_in_path(const struct job *job, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", job->in_dir, job->files[i]);
}
