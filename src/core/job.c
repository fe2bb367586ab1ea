// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "strategy.h"
#include "lib/util.h"

void job_in_path(const struct job *job, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", job->in_dir, job->files[i]);
}
