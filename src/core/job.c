// SPDX-License-Identifier: MIT
/* Helpers a strategy uses on its job: its options by name and its input paths. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "strategy.h"
#include "lib/util.h"

void job_in_path(const struct job *job, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", job->in_dir, job->files[i]);
}
