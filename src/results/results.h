/* SPDX-License-Identifier: MIT */
/* The results directory every measuring command writes and report and plot read. */
#ifndef IOSTRAT_RESULTS_H
#define IOSTRAT_RESULTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

/*
 * A results directory (docs/benches.md lists its files):
 *   results.jsonl  one row per measured repetition, appended and fsync'd
 *                  row by row, so a crash loses at most the running one
 *   results.csv    the same rows, flat (rewritten atomically at finish)
 *   summary.csv    one row per config_id: n, median, min, max, rsd_pct,
 *                  q1, q3 of the metric, medians of every other figure
 *   env.json       the machine context
 * Every subcommand that measures (bench, run --results, sweep, net, fio;
 * sched through bench) writes one through this API, so report and plot
 * read them all alike.
 */
struct results_dir {
	char path[PATH_MAX];
	FILE *jsonl;
	int lock_fd;  /* the directory, flock'd while we write it... */
	bool locked;  /* ...if true (a zeroed struct holds no lock) */
	json_t *rows; /* every row, in order: for the CSVs */
};

/* Create dir (mkdir -p) or, when dir is NULL, results/<UTC time>-<name>.
 * Writes env.json if env is given.  Fails if dir has results already
 * (any of results.jsonl/csv, summary.csv, env.json, profile.ini: use
 * results_resume or another dir) or another process writes it (locked
 * until results_close).  resumable: the command has --resume, and the
 * refusal says so.  Prints its errors. */
int results_open(struct results_dir *r, const char *dir, const char *name,
		 json_t *env, bool resumable);
/* No --out: a new directory results/TIME-NAME, made with mkdir(2) so two
 * runs never share one (a run started in the same second as another gets
 * TIME-NAME-2, -3 ...); its path in path.  0 or -errno. */
int results_make_default_dir(char *path, size_t len, const char *name);
/* The check results_open makes, alone, before a command does any work:
 * 0 if dir is not there, or no other iostrat writes it and it holds none
 * of a results directory's files; else -EBUSY or -EEXIST after printing
 * the same refusal. */
int results_check_fresh(const char *dir, bool resumable);
/* Open an existing directory for appending (--resume): rows loaded (those
 * that are not measurements named and left out, so they are run again),
 * results.jsonl cut back durably to its last complete row first. */
int results_resume(struct results_dir *r, const char *dir);
/* Append one row to results.jsonl (fsync'd) and to r->rows. */
int results_append(struct results_dir *r, json_t *row);
/* Write results.csv and summary.csv (atomically) from r->rows. */
int results_finish(struct results_dir *r);
void results_close(struct results_dir *r);

/* Load DIR/results.jsonl into an array (a last line without its newline,
 * from a crash, is skipped with a warning; any other line that is not a
 * row is an error).  Not a regular file: an error.  Prints its errors.
 * Every reader (report, compare, plot) loads through here: a row that is
 * not a measurement (row_check: a negative, non-finite or non-numeric
 * time, size, count or rate) is named with its line in a warning and left
 * out; a file holding nothing else is an error. */
int results_load(const char *dir, json_t **rows);
/* summary rows (one object per config_id, in natural config_id order); a row
 * that is not a measurement (row_check) is in none of them. */
json_t *results_summarize(json_t *rows);
/* The metric a row is summarized by: its "metric" key, else elapsed_s. */
const char *results_metric(json_t *row);
/* Write a JSON array of flat objects as CSV, atomically, to path. */
int results_write_csv(const char *path, json_t *rows);

#endif
