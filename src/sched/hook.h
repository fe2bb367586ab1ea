/* SPDX-License-Identifier: MIT */
/* sched as an engine hook: each pass applies one setting of the disk's
 * queue (verified), and every row of it carries that setting. */
#ifndef IOSTRAT_SCHED_HOOK_H
#define IOSTRAT_SCHED_HOOK_H

#include <limits.h>
#include <stdbool.h>

#include <jansson.h>

#include "engine/hooks.h"
#include "lib/column.h"
#include "lib/settings.h"
#include "plan.h"
#include "rounds.h"

/* What the bench of every pass is given (the options of iostrat sched). */
struct sched_bench {
	const char *profile, *data;
	struct setting_list defs;
	bool interleave;
	unsigned reps;     /* 0: the profile's */
};

struct sched_hook {
	const struct sched_bench *bench;
	const struct sched_plan *plan;
	const char *disk, *out;
	struct sched_rounds *rounds; /* large: on the heap */
	json_t **first;    /* per setting: the columns its round 1 ran under */
	json_t **cols;     /* per setting: the columns of its latest round */
	char **defs;       /* bench->defs and reps=, max_reps=, stop=rsd */
	char dir[PATH_MAX], reps[32], maxr[32], stop[16];
};

/* The hook over every setting of plan (engine hooks: sched_hook_engine),
 * rounds interleaved or not; 0 or -ENOMEM. */
int sched_hook_init(struct sched_hook *s, const struct sched_bench *b,
		    const struct sched_plan *p, const char *disk, const char *out);
struct engine_hooks sched_hook_engine(struct sched_hook *s);
void sched_hook_free(struct sched_hook *s);
/* The profile checked (a dry run, its matrix not shown) before anything
 * changes on the disk: the bench's exit status. */
int sched_check_profile(struct sched_hook *s);

/* The columns a sched pass adds to each row (hook.c). */
extern const struct column sched_columns[];

#endif
