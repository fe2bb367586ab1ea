/* SPDX-License-Identifier: MIT */
/* The plan of `iostrat sched`: every scheduler crossed with every --set axis. */
#ifndef IOSTRAT_SCHED_PLAN_H
#define IOSTRAT_SCHED_PLAN_H

#include <stddef.h>

/* The settings `iostrat sched` compares: every scheduler crossed with
 * every --set axis (read_ahead_kb=128,4096 ...). */

#define SCHED_AXES 4
#define SCHED_VALUES 16

struct sched_axis {
	char attr[32];
	char values[SCHED_VALUES][32];
	size_t n;
};

struct sched_setting {
	char scheduler[32];
	char attr[SCHED_AXES][32];
	char value[SCHED_AXES][32];
	size_t nattr;
	char label[256];   /* "bfq" or "bfq,read_ahead_kb=128": also its dir */
};

struct sched_plan {
	char schedulers[SCHED_VALUES][32];
	size_t nsched;
	struct sched_axis axes[SCHED_AXES];
	size_t naxes;
	struct sched_setting *set;
	size_t nset;
};

/* --schedulers a,b,c (de-duplicated). Prints its errors. */
int plan_schedulers(struct sched_plan *p, const char *list);
/* --set attr=v1,v2 */
int plan_axis(struct sched_plan *p, const char *spec);
/* Cross everything into p->set; current = the scheduler used when
 * --schedulers was not given. */
int plan_expand(struct sched_plan *p, const char *current);
void plan_free(struct sched_plan *p);

#endif
