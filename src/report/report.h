/* SPDX-License-Identifier: MIT */
/* `iostrat report` and `compare`: a loaded results directory and the tables built from it. */
#ifndef IOSTRAT_REPORT_H
#define IOSTRAT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "table.h"

/* A results directory, loaded for report and compare. */
struct rrun {
	char dir[4096];
	json_t *rows; /* results.jsonl */
	json_t *sum;  /* results_summarize(rows) */
	json_t *env;  /* env.json, or an empty object */
	char *profile; /* profile.ini text (what ran, expanded), or NULL */
	char *given;   /* profile.given.ini text (as written), or NULL */
	json_t *stop;  /* stop.json (why each cell stopped), or an empty array */
};

int rrun_load(const char *dir, struct rrun *r); /* prints its errors */
void rrun_free(struct rrun *r);
/* The metric of the good rows of config id that were timed (a row whose
 * "role" is "traced" ran with the probes attached and is no sample of
 * its elapsed time); *out freed by the caller. */
size_t rrun_samples(const struct rrun *r, const char *id, double **out);
/* The timed samples of config ids a and b paired by round (row column
 * "round", else "rep" for rows written before it; the first row of a
 * config in a round): the number of pairs, into *a and *b (freed by the
 * caller); -1 when a row has neither column (the samples cannot be
 * paired), -ENOMEM. */
long rrun_pairs(const struct rrun *r, const char *ida, const char *idb, double **a,
		double **b);
const char *rrun_name(const struct rrun *r);
/* The timed samples of config id with their rounds (by round): how many;
 * -1 when a row has no round; -ENOMEM.  *x, *round freed by the caller. */
long rrun_rounds(const struct rrun *r, const char *id, double **x, unsigned **round);
/* stop.json's cell holding config id, or NULL. */
json_t *rrun_stop_cell(const struct rrun *r, const char *id);

/* The tables of `iostrat report`. */
void report_build(const struct rrun *r, struct rdoc *d);
/* The strategy / fio baseline ratio table (fio_ratio.c); nothing when
 * the directory has no fio rows. */
void report_fio_ratios(const struct rrun *r, struct rdoc *d);
/* The summary of the fio configuration mirroring run summary s (same data
 * set, cache state and fsync class: fio_same_ground; the job doing the
 * strategy's I/O at its block size and depth), or NULL; always NULL for
 * a --dontcache run (fio_can_mirror). */
json_t *report_fio_baseline(json_t *sum, json_t *s);
/* Medians of the eBPF figures of traced run configurations
 * (kernel_view.c); nothing when no run was traced. */
void report_kernel_view(const struct rrun *r, struct rdoc *d);

/* The probes' cost of one configuration (probe_cost.c): the ratio of its
 * traced repetitions' elapsed to its timed (untraced) ones', with an
 * interval -- the 95% Hodges-Lehmann one (paired.h's unpaired_ratio_ci)
 * where the counts allow it, else the range of every traced/timed pair --
 * and no figure at all with fewer than 2 of either. */
struct probe_cost {
	size_t ntimed, ntraced;
	double timed_s, traced_s; /* medians; NAN when none */
	double cost;              /* the ratio; NAN when there is no interval */
	double cost_lo, cost_hi;  /* its interval; NAN with it */
	const char *cost_by;      /* "95% CI", "range of the pairs", or why none */
	char traced_reps[64];     /* "1, 2": the traced repetitions' rep numbers */
};
/* Of config id's good rows in rows (run's own rows, or a directory's). */
void probe_cost_of(json_t *rows, const char *id, struct probe_cost *pc);
/* The table: every configuration with a traced repetition; nothing when
 * none was traced. */
void report_probe_cost(const struct rrun *r, struct rdoc *d);
/* A run's whole cost (cost.c): per run configuration the medians of its
 * timed repetitions' CPU (user+sys and kernel threads'), PSI, reclaim,
 * device bytes and peak memory; nothing when no row has kthread_s. */
void report_cost(const struct rrun *r, struct rdoc *d);
/* The page cache each run left, where one used --dontcache. */
void report_cache_left(const struct rrun *r, struct rdoc *d);
/* report.html (html.c): the verdict, the figures figs[0..nfigs) (SVG
 * files, in their order) inline, the tables, the profile and env.json, as
 * one self-contained page. */
void report_html(const struct rrun *r, const struct rdoc *d, char *const *figs,
		 size_t nfigs, FILE *out);
/* The tables of `iostrat compare` (runs[0] is the base, A..Z). */
#define RUNS_MAX 26
/* spread: also the long table, one row per configuration and run with its
 * median, min, max, q1, q3, ratio to A, p and sig (figure 6 reads it from
 * `--format csv`; text and markdown leave it out: it repeats the first). */
#define COMPARE_SPREAD_TITLE "per configuration and run: spread and significance against A"
void compare_build(const struct rrun *runs, size_t n, struct rdoc *d, bool spread);
/* fleet.c: the host a run was made on (env.json's "host", else its first
 * row's; "" when neither says). */
const char *rrun_host(const struct rrun *r);
/* Do the runs come from more than one host? */
bool rrun_hosts_differ(const struct rrun *runs, size_t n);
/* Run k's name in compare's tables and figure 6: its host when the runs
 * come from several hosts (host:dir for a host's second run), else its
 * directory's last component. */
void compare_label(const struct rrun *runs, size_t n, size_t k, char *buf, size_t len);
/* The fleet summary: per verdict cell, each run's fastest strategy and
 * whether the runs agree. */
void compare_fastest(const struct rrun *runs, size_t n, struct rdoc *d);

#endif
