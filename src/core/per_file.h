/* SPDX-License-Identifier: MIT */
/* The common driver of strategies whose threads share the file list. */
#ifndef IOSTRAT_PER_FILE_H
#define IOSTRAT_PER_FILE_H

#include "strategy.h"

/*
 * The common driver for strategies where N threads share the file list:
 * each thread takes the next file index (one atomic counter, nothing else
 * shared) and calls ->file() until the list is done or any thread failed.
 */
struct per_file_ops {
	/* per-thread setup, e.g. allocate the thread's buffer; may be NULL */
	int (*thread_init)(const struct job *job, struct run_stats *st,
			   void **ctx);
	int (*file)(const struct job *job, size_t idx, void *ctx,
		    struct run_stats *st);
	void (*thread_fini)(void *ctx);
};

/* A strategy's ops by the names its file gives them: P_init, P_file and
 * P_fini. */
#define PER_FILE_OPS(P) \
	{ .thread_init = P##_init, .file = P##_file, .thread_fini = P##_fini }

int per_file_run(const struct job *job, struct run_stats *st,
		 const struct per_file_ops *ops);

#endif
