/* SPDX-License-Identifier: MIT */
/* The eBPF tracer as iostrat uses it: load, filter, reset between measurements, read figures. */
#ifndef IOSTRAT_TRACE_H
#define IOSTRAT_TRACE_H

/*
 * The eBPF probes of the registry (probes.c) as iostrat uses them: load
 * once, filter to a disk / filesystem / process tree, reset between
 * measurements, read the figures.  Used by `iostrat run --trace`
 * (hooks.c) and `iostrat trace` (src/cmd/trace.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <linux/types.h>

#include <jansson.h>

#include "probe.h"

struct tracer_filter {
	uint32_t disk_dev; /* kernel dev_t of the disk; 0 = every disk */
	uint32_t fs_dev;   /* kernel dev_t of the filesystem; 0 = every one */
	bool pids;         /* page cache: only tracer_watch_pid()'s trees */
	bool files;        /* page cache: only tracer_watch_file()'s files */
};

struct tracer {
	struct probe_state probes[PROBE_MAX]; /* by the registry's order */
	struct tracer_filter filter;
	/* One line per figure the kernel cannot give: "FIGURE: none (why)" */
	char notes[1024];
	/* The attach points that took another source than the one asked for
	 * (IOSTRAT_TRACE_MODE) or the one they would have taken, and why:
	 * the trace_fallback column; "" when none did (fallback.c). */
	char fallback[320];
};

/* Load and attach every probe, each attach point on its own (tracer.c).
 * 0 when at least one point is attached; the figures the kernel cannot
 * give are in t->notes.  Else -errno and a short reason in why ("needs
 * root (CAP_BPF and CAP_PERFMON)", "no BTF", ...). */
int tracer_load(struct tracer *t, const struct tracer_filter *f, char *why,
		size_t len);
void tracer_unload(struct tracer *t);
/* Fill t->fallback, and add it to t->notes (fallback.c). */
void tracer_note_fallback(struct tracer *t);
/* Detach the programs but keep them loaded (verifying is the slow part),
 * and attach them again. */
void tracer_detach(struct tracer *t);
int tracer_attach(struct tracer *t);
/* Zero every counter and forget watched processes and in-flight state. */
int tracer_reset(struct tracer *t);
/* probes.c: through every probe of the registry. */
/* Count for this process tree only (filter.pids). */
int tracer_watch_pid(struct tracer *t, pid_t pid);
/* Count page-cache events of this file (filter.files); -E2BIG past
 * tracer_watch_max() files.  tracer_unwatch_files() forgets them all. */
int tracer_watch_file(struct tracer *t, dev_t dev, ino_t ino);
int tracer_unwatch_files(struct tracer *t);
size_t tracer_watch_max(void);
/* Read every loaded probe's counters (each probe_state's data). */
int tracer_read(struct tracer *t);
/* Set traced=true, trace_fallback and every probe's columns (null where
 * the kernel gives no figure), from what tracer_read() read. */
void trace_fill_row(json_t *row, const struct tracer *t);
/* The `iostrat trace` report: every probe's part. */
void trace_print(FILE *f, const struct tracer *t);
/* Free a probe's data (its free_data). */
void probe_free_data(struct probe_state *ps);
/* For the probes' fill_row: set column k to v; v, or null when v < 0;
 * an integer; v when the kernel gives the figure (has), else null. */
void trace_set(json_t *row, const char *k, json_t *v);
json_t *trace_real(double v);
json_t *trace_u64(uint64_t v);
json_t *trace_when(bool has, json_t *v);

/* The source ("tp_btf", ..., "none") serving an attach point of any probe
 * ("rq_issue", "reads", "add", "sync_ra", ...: the probes' tables). */
const char *tracer_source(const struct tracer *t, const char *point);
/* Print t->notes, each line prefixed (warnings of the figures missing). */
void tracer_print_notes(const struct tracer *t, const char *prefix);

/* dev.c: device numbers in the kernel's encoding (major << 20 | minor). */
uint32_t kdev_of(dev_t d);
/* Disk that serves path (whole disk, not partition): its kernel dev_t and
 * name; fs_dev the kernel dev_t of path's filesystem.  -errno. */
int trace_dev_of_path(const char *path, uint32_t *disk_dev, uint32_t *fs_dev,
		      char *disk, size_t len);
/* A block device given as "loop0", "/dev/loop0": its whole-disk dev_t. */
int trace_dev_of_disk(const char *name, uint32_t *disk_dev, char *disk,
		      size_t len);
/* Name of a disk from its kernel dev_t ("7:0" when unknown). */
void trace_disk_name(uint32_t kdev, char *buf, size_t len);

/* print.c: text histograms for the probes' parts of the report. */
/* v in binary units ("4K", "1M") + unit. */
void trace_human(char *buf, size_t len, double v, const char *unit);
/* A bar of v out of max, then a newline. */
void trace_bar(FILE *f, uint64_t v, uint64_t max);
/* A run of two or more empty rows from *i: one "..." line, *i moved past
 * it (true); else false. */
bool trace_skip_zeros(FILE *f, const __u64 *v, unsigned *i, unsigned last);
/* Rows of power-of-two ranges (row 0: the value 0) of n counts; scale
 * turns values into the unit shown (512 for sectors shown as bytes). */
void trace_print_pow2(FILE *f, const char *title, const __u64 *v, unsigned n,
		      double scale, const char *unit);

/* seeks.c, for its unit test.  The seek_hist column: "SLOT:COUNT;..."
 * over the non-empty slots of a log2 distance histogram of
 * SEEK_DIST_SLOTS slots (ebpf/seeks.h; slot 0: sequential, distance 0;
 * slot s >= 1: 2^(s-1) <= distance < 2^s sectors of 512 bytes); "" when
 * empty. */
void trace_seek_hist(const __u64 *dist, char *buf, size_t len);

/* seeks.c, for every probe's log-linear histograms of SEEK_FINE_SLOTS
 * slots (fine_slot(), ebpf/seeks.h): the p-th quantile (0..1), linear
 * within the slot it falls in, or that slot's low bound when not
 * interpolate; -1 when empty. */
double fine_quantile(const __u64 *h, double p, bool interpolate);

/* reqlat.c, for its unit test.  Collapse such a histogram to n log2 rows (row 0: the value 0, row r:
 * 2^(r-1) up to 2^r; the last row holds the rest). */
void rql_log2(const __u64 *fine, __u64 *rows, unsigned n);
/* Little's law checked: depth_mean / (completions / window_s x
 * dev_mean_s); -1 when any of them is missing. */
double rql_little(double depth_mean, uint64_t completions, double window_s,
		  double dev_mean_s);

#endif
