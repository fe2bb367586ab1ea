// SPDX-License-Identifier: MIT
/* Helpers a strategy uses on its job: its input paths, and whether it can run the job's I/O modes there. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dontcache.h"
#include "strategy.h"
#include "xform.h"
#include "lib/util.h"

void job_in_path(const struct job *job, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", job->in_dir, job->files[i]);
}

/* --direct: the strategy must declare STRAT_DIRECT. */
static int check_direct(const struct strategy *s, char *why, size_t len)
{
	char names[128];

	snprintf(why, len, "--direct: strategy %s does not do direct I/O (%s do)", s->name,
		 strategy_names_with(STRAT_DIRECT, " and ", names, sizeof(names)));
	return 1;
}

/* --dontcache: the strategy must declare STRAT_DONTCACHE (where the
 * kernel and the file systems take it: job_check_where). */
static int check_dontcache(const struct strategy *s, const struct job *job,
			   char *why, size_t len)
{
	char names[128];

	if (!(s->flags & STRAT_DONTCACHE)) {
		snprintf(why, len, "--dontcache: strategy %s does not do uncached "
			 "buffered I/O (%s do)", s->name,
			 strategy_names_with(STRAT_DONTCACHE, ", ", names, sizeof(names)));
		return 1;
	}
	if (job->direct) {
		snprintf(why, len, "--dontcache: not with --direct (O_DIRECT does "
			 "not use the page cache at all)");
		return 1;
	}
	return 0;
}

static int check_records(const struct strategy *s, const struct job *job,
			 char *why, size_t len)
{
	char names[128];

	snprintf(why, len, "--transform %s: strategy %s runs only the xor transform "
		 "(%s run any)", job->xform->name, s->name,
		 strategy_names_with(STRAT_RECORDS, ", ", names, sizeof(names)));
	return 1;
}

int job_check_modes(const struct strategy *s, const struct job *job,
		    char *why, size_t len)
{
	if (job->direct && !(s->flags & STRAT_DIRECT))
		return check_direct(s, why, len);
	if (job->dontcache)
		return check_dontcache(s, job, why, len);
	if (!job_xform_in_place(job) && !(s->flags & (STRAT_RECORDS | STRAT_NO_OUTPUT)))
		return check_records(s, job, why, len);
	return s->check ? s->check(job, why, len) : 0;
}

/* A run setting the job sets (non-zero) and s does not use (flag): 1
 * and why. */
static int knob(const struct strategy *s, unsigned flag, const char *name, bool set,
		char *why, size_t len)
{
	char names[128];

	if (!set || (s->flags & flag))
		return 0;
	snprintf(why, len, "--%s: strategy %s does not use it (%s do)", name, s->name,
		 strategy_names_with(flag, ", ", names, sizeof(names)));
	return 1;
}

int job_check_knobs(const struct strategy *s, struct job *job, bool drop,
		    char *why, size_t len)
{
	if (drop) {
		job->bufsize = s->flags & STRAT_BUFSIZE ? job->bufsize : 0;
		job->chunk = s->flags & STRAT_CHUNK ? job->chunk : 0;
		job->qd = s->flags & STRAT_QD ? job->qd : 0;
		return 0;
	}
	return knob(s, STRAT_BUFSIZE, "bufsize", job->bufsize, why, len) ||
	       knob(s, STRAT_CHUNK, "chunk", job->chunk, why, len) ||
	       knob(s, STRAT_QD, "qd", job->qd, why, len);
}

int job_check_where(const struct strategy *s, const struct job *job,
		    char *why, size_t len)
{
	bool writes = job->sink != SINK_NULL && !(s->flags & STRAT_NO_OUTPUT);

	if (s->check_where && s->check_where(job, why, len))
		return 1;
	if (!job->dontcache)
		return 0;
	return dontcache_probe(job->in_dir, writes ? job->out_dir : NULL, why, len);
}

bool job_xform_in_place(const struct job *job)
{
	return !job->xform || job->xform->in_place;
}
