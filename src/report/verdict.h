/* SPDX-License-Identifier: MIT */
/* The verdict of `iostrat report`: the fastest strategy per cell, its margin and the reasons. */
#ifndef IOSTRAT_REPORT_VERDICT_H
#define IOSTRAT_REPORT_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "kspread.h"
#include "report.h"

#include "results/paired.h"
#include "results/race.h"

/*
 * The verdict of `iostrat report` (docs/verdict.md): per data set x work
 * level x thread count of the run configurations, the race of its
 * strategies (results/race.h: the rule stop=ci stopped the cell by, on
 * the same rows), so the report says what the engine decided; the fastest
 * is the race's leader, each other one behind (of the leader or of
 * another), equal within min_effect (stop.json's, else RACE_MIN_EFFECT)
 * or undecided; rows without rounds (written before them): the fastest
 * against each, Mann-Whitney's unpaired interval at 1 - 0.05 / m.  Then
 * the reasons, each from the rows' own columns by one rule below.  The
 * thresholds are the documented ones; the unit tests
 * (tests/unit/verdict.c) pin each rule.
 */
#define VERDICT_ALPHA 0.05
#define VERDICT_LEVEL (1 - VERDICT_ALPHA)
/* A cell's "test" when its rows were raced, paired by round (the race's
 * confidence sequence); rows without rounds: "mann-whitney". */
#define VERDICT_TEST_PAIRED "anytime-t"
/* One comparison (the interval of a strategy over the one it is compared
 * with, results/race.h's, band: min_effect as a fraction):
 *   interval within 1/(1+band) .. 1+band -> VD_EQUAL
 *   lo > 1                               -> VD_BEHIND
 *   no interval (rc -EDOM: too few)      -> VD_TOO_FEW
 *   otherwise                            -> VD_UNDECIDED
 * The cell names a winner when every other is VD_BEHIND, "equal" when
 * every other is VD_BEHIND or VD_EQUAL, else "undecided". */
enum vdec { VD_UNDECIDED, VD_TOO_FEW, VD_EQUAL, VD_BEHIND };
enum vdec verdict_decide(int rc, const struct ratio_ci *ci, double band);

/* CPU-bound or I/O-bound: CPU seconds per elapsed second per thread that
 * could run, threads_used = min(threads, cpus) (cpus <= 0: threads).
 *   per_thread >= VERDICT_CPU_BOUND  -> "CPU-bound"
 *   per_thread <= VERDICT_IO_BOUND   -> "I/O-bound"
 *   in between                       -> "mixed" */
#define VERDICT_CPU_BOUND 0.75
#define VERDICT_IO_BOUND 0.35
enum vbound { VB_UNKNOWN, VB_IO, VB_MIXED, VB_CPU };
enum vbound verdict_bound(double cpu_s, double elapsed_s, long long threads,
			  long long cpus, double *per_thread);
const char *verdict_bound_name(enum vbound b);

/* Share of the device reached, where the directory has no limits rows
 * (limits.h: the share of the binding limit is the verdict's reason
 * then): the strategy's MB/s over its mirror job's (the same I/O, which
 * may read then write).
 *   ratio >  VERDICT_DEVICE_OVER -> "above the yardstick": the mirror job
 *                                   is then no limit
 *   ratio >= VERDICT_DEVICE_NEAR -> "at the device's pace"
 *   ratio <  VERDICT_DEVICE_FAR  -> "well below the device"
 *   in between                   -> "below the device"
 * VERDICT_DEVICE_OVER leaves 5% for the two runs' noise. */
#define VERDICT_DEVICE_OVER 1.05
#define VERDICT_DEVICE_NEAR 0.8
#define VERDICT_DEVICE_FAR 0.5
const char *verdict_device(double ratio);
/* An interval "1.05-1.19": two decimals, more (up to 4) where two would
 * print 1.00 for an end that is not 1, so the side of 1 it lies on shows. */
const char *verdict_ci_range(double lo, double hi, char *buf, size_t len);
/* A block size in binary units: "512 B", "128 KiB", "1 MiB". */
const char *verdict_bs(double bytes, char *buf, size_t len);

/* Memory cost: peak RSS over the data size (bytes_in).
 *   share >= VERDICT_MEM_HOLDS   -> "holds the data in memory"
 *   share <= VERDICT_MEM_BOUNDED -> "small beside the data"
 *   in between                   -> "a sizeable share of the data"
 * Not "grows with the data": one data size cannot tell uring's fixed pool
 * (20 MiB of a 150 MB read) from buffer's per-file copy. */
#define VERDICT_MEM_HOLDS 0.5
#define VERDICT_MEM_BOUNDED 0.05
/* Below VERDICT_MEM_MIN_DATA bytes read, RSS cannot speak of the data:
 * a run that holds nothing of it still has the harness's own peak RSS
 * (VERDICT_MEM_BASELINE_KB, measured: maxrss_kb of `iostrat run` with
 * stream, buffer or mmap on one 6-byte file, 2164..2320 KiB), and that
 * alone is more than VERDICT_MEM_BOUNDED of such a read, so "small beside
 * the data" could never be said.  Hence data >= baseline / BOUNDED (20 x
 * the baseline, about 47 MB); below: VERDICT_MEM_TOO_SMALL. */
#define VERDICT_MEM_BASELINE_KB 2300.0
#define VERDICT_MEM_MIN_DATA (VERDICT_MEM_BASELINE_KB * 1024 / VERDICT_MEM_BOUNDED)
#define VERDICT_MEM_TOO_SMALL "too small a read for RSS to judge"
const char *verdict_memory(double rss_bytes, double data_bytes);
/* A size for a sentence: "200 KB" under 1 MB, else "%.0f MB" (SI). */
const char *verdict_size(double bytes, char *buf, size_t len);

/* The page cache and the device, when traced: hit ratio (0..1) of the
 * pages reads asked for and the share of sequential block requests, of
 * the reads and of the writes apart (seq_pct_read, seq_pct_write): a cold
 * sequential read beside its own writes is two sequential streams, though
 * the requests of both together (seq_pct) alternate between two places.
 *   hit ratio <= VERDICT_HIT_COLD -> "read from the device"
 *   hit ratio >= VERDICT_HIT_WARM -> "served from the page cache"
 *   seq pct   >= VERDICT_SEQ      -> "sequential"
 *   seq pct   <  VERDICT_SEQ      -> "partly random"
 * A direction with no block requests (null) is left out; rows without
 * the two (older results) are said by seq_pct, "reads and writes together". */
#define VERDICT_HIT_COLD 0.1
#define VERDICT_HIT_WARM 0.9
#define VERDICT_SEQ 90.0
const char *verdict_cache(double hit_ratio);
const char *verdict_seq(double seq_pct);
/* The request-pattern reason into buf:
 *   "reads 99% sequential, writes 62% sequential (partly random)"
 *   "requests 81% sequential, reads and writes together (partly random)"
 * "" when nothing was traced. */
const char *verdict_seq_text(double all, double rd, double wr, char *buf, size_t len);
/* The same over the traced repetitions (verdict_kernel.c, the rule of
 * kspread.h): a direction's median where its spread allows, with the
 * count where there are fewer than KSPREAD_MIN_N ("reads 49% sequential
 * (partly random; 1 traced repetition, spread unknown)"), else its range
 * ("reads vary: 49-76% sequential over 3 traced repetitions"). */
const char *verdict_seq_spread_text(const struct kspread *all, const struct kspread *rd,
				    const struct kspread *wr, char *buf, size_t len);
/* "page-cache hit ratio 0% cold (read from the device)", by the same
 * rule ("page-cache hit ratio varies: 10-60% cold over 3 traced
 * repetitions"); "" when nothing was traced. */
const char *verdict_hit_spread_text(const struct kspread *hit, const char *cache,
				    char *buf, size_t len);

/* One object per cell, in the order the cells were first run: cell,
 * dataset, settings, work, threads, fastest, runner_up, ratio, ci_lo,
 * ci_hi, ci_level, rounds, p, p_holm, test, decision ("winner", "equal",
 * "undecided", "only"), distinguishable (a winner), tied (no winner: the
 * fastest and those not behind it), ahead_of, ahead_ratio, ahead_p, bound,
 * cpu_per_thread, limit_share, limit (the binding limit's name, limits.h),
 * limit_mb_s, limit_exceeded, mirror_ratio, mirror_job (the like-for-like figure: the
 * strategy's mirror job), rss_share, pc_hit_ratio, seq_pct, seq_pct_read,
 * seq_pct_write, text (the sentence), strategies (every strategy of the cell
 * in median order for the headline: strategy, config_id, decision -- the
 * fastest: the cell's; the others: "behind", "equal", "undecided", "too
 * few" against it -- and for the others ratio, ci_lo, ci_hi, ci_level). */
json_t *verdict_cells(const struct rrun *r);
/* The "verdict" table (one sentence per cell) and "verdict figures" (the
 * same, as numbers); nothing when there are no run configurations. */
void report_verdict(const struct rrun *r, struct rdoc *d);

#endif
