// SPDX-License-Identifier: MIT
/* Every switch to a scheduler under the settings its first switch found
 * (rounds.h). */
#include <errno.h>
#include <string.h>

#include "rounds.h"

/* A capture's first value is its scheduler (sysq_read). */
static const struct sysq *find(const struct sched_rounds *r, const char *sched)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->base[i].n && !strcmp(r->base[i].v[0].value, sched))
			return &r->base[i];
	return NULL;
}

int rounds_switch(struct sched_rounds *r, const char *disk,
		  const char *scheduler)
{
	const struct sysq *b = find(r, scheduler);
	int ret = sysq_set(disk, "scheduler", scheduler);

	if (ret)
		return ret;
	if (b)
		return sysq_apply(b);
	if (r->n >= SCHED_VALUES)
		return -E2BIG;
	if ((ret = sysq_read(&r->base[r->n], disk)))
		return ret;
	r->n++;
	return 0;
}
