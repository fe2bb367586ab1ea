/* SPDX-License-Identifier: MIT */
/* The reboot queue's state directory and its entries. */
#ifndef IOSTRAT_QUEUE_STORE_H
#define IOSTRAT_QUEUE_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/*
 * The reboot queue's state, all under one directory:
 *
 *   queue/NNNNNN.json  one entry each, in run order (ID order); written
 *                      atomically (temp, fsync, rename, fsync dir)
 *   next-id            the next ID to hand out (IDs are never reused)
 *   lock               flock'd around every change of the above
 *   run.lock           flock'd by `run-next` for its whole run: an entry
 *                      marked running while this lock is free was cut off
 *                      (power loss, panic, watchdog, SIGKILL)
 *   paused             present = run-next does nothing
 *   results.log        every command's output, appended, never truncated
 *   history.jsonl      one line per attempt's outcome, appended, fsync'd
 *
 * An entry is a JSON object: id, name, argv[], cwd, kernel (or null),
 * state ("queued" | "running"), attempts (started so far), kernel_boots,
 * added, last_error, and timeout (seconds, 0 = none) when `queue add
 * --timeout` gave the entry its own watchdog.
 */

struct qstore {
	char dir[4096];
	int lock_fd;     /* -1 when not held */
	int run_fd;      /* -1 when not held */
};

void qstore_init(struct qstore *q, const char *dir);
/* Create the directory tree (for commands that write). */
int qstore_create(struct qstore *q);
/* Take / drop the state lock (blocking). */
int qstore_lock(struct qstore *q);
void qstore_unlock(struct qstore *q);
/* Try the run lock: 0, -EBUSY when another run-next holds it. */
int qstore_run_lock(struct qstore *q);
void qstore_run_unlock(struct qstore *q);
/* Is some process holding the run lock?  (Does not take it.) */
bool qstore_run_busy(struct qstore *q);

/* Entry IDs in run order; *ids freed by the caller.  A missing state
 * directory is an empty queue. */
int qstore_ids(struct qstore *q, unsigned **ids, size_t *n);
int qstore_load(struct qstore *q, unsigned id, json_t **entry);
/* The same; for a corrupt entry (-EBADMSG) why says what is wrong: the
 * JSON error with its line, or what the object lacks. */
int qstore_load_why(struct qstore *q, unsigned id, json_t **entry, char *why,
		    size_t len);
int qstore_save(struct qstore *q, json_t *entry);
int qstore_delete(struct qstore *q, unsigned id);
/* Give entry a fresh ID and save it; call with the lock held. */
int qstore_append(struct qstore *q, json_t *entry);

bool qstore_paused(struct qstore *q);
int qstore_set_paused(struct qstore *q, bool paused);
/* Append one line to history.jsonl and fsync it. */
int qstore_history(struct qstore *q, json_t *record);
/* Path of a file in the state directory. */
void qstore_path(const struct qstore *q, const char *name, char *out,
		 size_t len);

/* "2026-11-21T23:59:59Z" for now */
void qstore_timestamp(char *buf, size_t len);
/* Helpers for entry fields. */
const char *qentry_str(json_t *e, const char *key);
unsigned qentry_uint(json_t *e, const char *key);
/* "cmd arg 'arg with space'" for display */
void qentry_cmdline(json_t *e, char *buf, size_t len);

#endif
