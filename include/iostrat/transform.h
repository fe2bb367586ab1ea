/* SPDX-License-Identifier: MIT */
/* iostrat's transform contract: the per-record code iostrat runs inside every I/O strategy (docs/transform.md). */
#ifndef IOSTRAT_TRANSFORM_ABI_H
#define IOSTRAT_TRANSFORM_ABI_H

#include <stddef.h>
#include <sys/types.h>

/*
 * A transform is a shared object that exports one symbol,
 * IOSTRAT_TRANSFORM_SYMBOL, a struct iostrat_transform (define it with
 * IOSTRAT_TRANSFORM_DEFINE).  iostrat loads it with
 * `--transform PATH.so[:ARG]` (or `transform=` in a profile) and runs it
 * inside every strategy: each worker thread calls init once, record once
 * per record of its share of the input, in input order within a record
 * run, and fini once.  The output of a file is the outputs of its
 * records in input order; iostrat checks every strategy's output against
 * its own reference (the records read one by one by the simplest reader)
 * byte for byte, and refuses a transform whose two reference runs differ.
 *
 * Records: IOSTRAT_RECORD_LINE, a line without its '\n' (the last line
 * of a file may have none); the output of a kept line is followed by
 * '\n' when the input line had one.  IOSTRAT_RECORD_FIXED: record_size
 * bytes (the last record of a file may be shorter); outputs are
 * concatenated as they are.
 *
 * Errors are negative errno values: iostrat stops the repetition and
 * names the file and the transform.  Any other symbol, global state or
 * thread of the plug-in is its own business; record may be called from
 * several threads at once, each with its own state.
 */

#define IOSTRAT_TRANSFORM_ABI 1
#define IOSTRAT_TRANSFORM_SYMBOL "iostrat_transform"
/* A record longer than this is an error (-E2BIG), in every strategy. */
#define IOSTRAT_RECORD_MAX (16u << 20)

enum iostrat_record {
	IOSTRAT_RECORD_LINE = 0,
	IOSTRAT_RECORD_FIXED = 1,
};

struct iostrat_transform {
	unsigned abi;            /* IOSTRAT_TRANSFORM_ABI */
	const char *name;        /* a word: the row's transform column */
	unsigned version;        /* the row's transform_version: bump it when
				    the output for the same input changes */
	enum iostrat_record kind; /* what a record is */
	size_t record_size;      /* IOSTRAT_RECORD_FIXED: bytes a record */
	/* The most bytes record() writes for an input of len bytes (the
	 * buffer iostrat gives it has that room). */
	size_t (*out_max)(size_t len);
	/* Per worker thread, before its first record: *state for it, from
	 * arg (the ARG of PATH.so:ARG, "" when none).  0 or -errno.  NULL:
	 * no state. */
	int (*init)(const char *arg, void **state);
	/* Per worker thread, after its last record.  NULL: nothing to free. */
	void (*fini)(void *state);
	/* One record of len bytes at in: its output into out, its length
	 * returned (0 drops the record), or -errno. */
	ssize_t (*record)(void *state, const unsigned char *in, size_t len,
			  unsigned char *out);
};

#define IOSTRAT_TRANSFORM_DEFINE(...) \
	__attribute__((visibility("default"))) \
	const struct iostrat_transform iostrat_transform = { \
		.abi = IOSTRAT_TRANSFORM_ABI, __VA_ARGS__ }

#endif
