// SPDX-License-Identifier: MIT
/* The driver in which N threads share the file list, each taking the next file. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "per_file.h"

struct shared {
	const struct job *job;
	struct run_stats *st;
	const struct per_file_ops *ops;
	size_t next;
};

static void *worker(void *arg)
{
	struct shared *sh = arg;
	void *ctx = NULL;
	int ret = 0;

	if (sh->ops->thread_init)
		ret = sh->ops->thread_init(sh->job, sh->st, &ctx);
	if (ret) {
		stats_fail(sh->st, ret, sh->job->in_dir, "thread setup");
		return NULL;
	}
	while (!stats_failed(sh->st)) {
		size_t i = __atomic_fetch_add(&sh->next, 1, __ATOMIC_RELAXED);

		if (i >= sh->job->nfiles)
			break;
		if (sh->ops->file(sh->job, i, ctx, sh->st))
			break;
	}
	if (sh->ops->thread_fini)
		sh->ops->thread_fini(ctx);
	return NULL;
}

int per_file_run(const struct job *job, struct run_stats *st,
		 const struct per_file_ops *ops)
{
	struct shared sh = { .job = job, .st = st, .ops = ops };
	unsigned n = job->threads ? job->threads : 1;
	pthread_t *tids;
	unsigned started = 0;

	if (n == 1) {
		worker(&sh);
		return st->err;
	}
	tids = calloc(n, sizeof(*tids));
	if (!tids)
		return stats_fail(st, -ENOMEM, job->in_dir, "threads");
	for (; started < n; started++) {
		int ret = pthread_create(&tids[started], NULL, worker, &sh);

		if (ret) {
			stats_fail(st, -ret, job->in_dir, "starting threads");
			break;
		}
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	return st->err;
}
