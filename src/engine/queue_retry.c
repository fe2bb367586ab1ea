// SPDX-License-Identifier: MIT
/*
 * A bench run as a reboot-queue entry (iostrat queue sets IOSTRAT_QUEUE_ID
 * and IOSTRAT_QUEUE_ATTEMPT) and cut off by a power loss is retried at the
 * next boot with the same command.  Its --out then holds the first
 * attempt's rows, and a plain bench refuses to write into a directory
 * with results: every retried bench failed at once, so the queue's
 * promise (interrupted, then retried) did not hold for the very command
 * docs/reboot-queue.md queues.  So the first attempt marks --out as this
 * entry's, and a later attempt of the same entry resumes it, as
 * `iostrat bench --resume OUT` would: the rows already written are kept,
 * a torn last row is cut, only what is missing runs.  A directory that
 * is not this entry's (no mark, another entry's) is refused as ever.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "bench.h"

#define MARK ".iostrat-queue-entry"

static bool has(const char *dir, const char *name)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

int bench_queue_retry(struct bench_opts *o)
{
	const char *id = getenv("IOSTRAT_QUEUE_ID");
	const char *att = getenv("IOSTRAT_QUEUE_ATTEMPT");
	char p[PATH_MAX], want[64], *have = NULL;
	unsigned attempt;
	int ret;

	if (!o->out || o->resume || o->dry_run || !id || !*id || !att ||
	    parse_uint(att, 1, 1000000, &attempt))
		return 0;
	snprintf(p, sizeof(p), "%s/" MARK, o->out);
	snprintf(want, sizeof(want), "%s\n", id);
	if (attempt > 1 && !read_file_small(p, &have, NULL) && !strcmp(have, want)) {
		free(have);
		if (has(o->out, "profile.ini")) {
			fprintf(stderr, "iostrat bench: queue entry %s, attempt %u: resuming %s, which an earlier attempt of this entry began\n",
				id, attempt, o->out);
			o->resume = o->out;
			o->out = NULL;
			o->profile = NULL;
			return 0;
		}
		/* cut off before its profile was written: nothing to resume,
		 * and what it wrote first (env.json) is redone */
		snprintf(p, sizeof(p), "%s/env.json", o->out);
		if (unlink(p) < 0 && errno != ENOENT)
			return error_errno(-errno, p, "remove");
		return 0;
	}
	free(have);
	/* The first attempt (or one whose mark is gone): mark --out, unless
	 * it holds results already -- then bench refuses it, as it should. */
	if (has(o->out, "results.jsonl") || has(o->out, "env.json") ||
	    has(o->out, "profile.ini"))
		return 0;
	if ((ret = mkdir_p(o->out, 0755)))
		return error_errno(ret, o->out, "creating results directory");
	snprintf(p, sizeof(p), "%s/" MARK, o->out);
	if ((ret = write_file_atomic(p, want, strlen(want))))
		return error_errno(ret, p, "write");
	return 0;
}
