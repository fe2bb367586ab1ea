/* SPDX-License-Identifier: MIT */
/* The eBPF tracer as iostrat uses it: load, filter, reset between measurements, read figures. */
#ifndef IOSTRAT_TRACE_H
#define IOSTRAT_TRACE_H

/*
 * The eBPF probes (ebpf/seeks.bpf.c, ebpf/pagecache.bpf.c) as iostrat uses
 * them: load once, filter to a disk / filesystem / process tree, reset
 * between measurements, read the figures.  Used by `iostrat run --trace`
 * (hooks.c) and `iostrat trace` (src/cmd/trace.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

#include "../../ebpf/pagecache.h"
#include "../../ebpf/seeks.h"

#include "probe.h"

struct tracer_filter {
	uint32_t disk_dev; /* kernel dev_t of the disk; 0 = every disk */
	uint32_t fs_dev;   /* kernel dev_t of the filesystem; 0 = every one */
	bool pids;         /* page cache: only tracer_watch_pid()'s trees */
	bool files;        /* page cache: only tracer_watch_file()'s files */
};

struct tracer {
	struct probe_state probes[PROBE_COUNT]; /* by the registry's order */
	struct tracer_filter filter;
	/* One line per figure the kernel cannot give: "FIGURE: none (why)" */
	char notes[1024];
	/* The attach points that took another source than the one asked for
	 * (IOSTRAT_TRACE_MODE) or the one they would have taken, and why:
	 * the trace_fallback column; "" when none did (fallback.c). */
	char fallback[320];
};

/* Block stats of one (disk, direction), summed over CPUs. */
struct seek_entry {
	struct seek_key key;
	struct seek_stats st;
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
int tracer_watch_pid(struct tracer *t, pid_t pid);
/* Count page-cache events of this file (filter.files); -E2BIG past
 * PC_WATCH_MAX files.  tracer_unwatch_files() forgets them all. */
int tracer_watch_file(struct tracer *t, dev_t dev, ino_t ino);
int tracer_unwatch_files(struct tracer *t);
/* *out is malloc'd (free it), sorted by disk then direction. */
int tracer_read_seeks(struct tracer *t, struct seek_entry **out, size_t *n);
int tracer_read_pc(struct tracer *t, struct pc_stats *out);

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

/* figures.c */
struct trace_summary {
	uint64_t reqs, rd_reqs, wr_reqs, bytes, seq, rnd;
	double seq_pct, seq_pct_read, seq_pct_write; /* < 0: no data */
	double req_p50_kb, lat_p50_us, lat_p99_us, seek_p50_kb; /* < 0: none */
	double depth_p50;
	unsigned depth_max;
	uint64_t pc_requested, pc_hits, pc_misses;
	double pc_hit_ratio; /* < 0: nothing requested */
	__u64 dist[SEEK_DIST_SLOTS]; /* requests by log2 seek distance */
};

void seek_stats_add(struct seek_stats *into, const struct seek_stats *s);
/* Value at fraction p (0..1) of a fine histogram: the slot's low bound
 * (exact for the usual power-of-two sizes) or, interpolate, a linear
 * estimate inside the slot.  -1 when empty. */
double fine_percentile(const __u64 *h, double p, bool interpolate);
void trace_summarize(const struct seek_entry *e, size_t n,
		     const struct pc_stats *pc, struct trace_summary *s);
/* The seek_hist column: "SLOT:COUNT;..." over the non-empty slots of the
 * log2 distance histogram (slot 0: sequential, distance 0; slot s >= 1:
 * 2^(s-1) <= distance < 2^s sectors of 512 bytes); "" when empty. */
void trace_seek_hist(const __u64 *dist, char *buf, size_t len);
/* Set traced=true and every figure of the row (null when unknown). */
void trace_fill_row(json_t *row, const struct tracer *t,
		    const struct seek_entry *e, size_t n,
		    const struct pc_stats *pc);

/* print.c: the `iostrat trace` report. */
void trace_print(FILE *f, const struct tracer *t, const struct seek_entry *e,
		 size_t n, const struct pc_stats *pc);

#endif
