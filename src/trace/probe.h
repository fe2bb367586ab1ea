/* SPDX-License-Identifier: MIT */
/* The probe contract: the attach points and figures a probe declares for the loader. */
#ifndef IOSTRAT_TRACE_PROBE_H
#define IOSTRAT_TRACE_PROBE_H

/*
 * The probe contract (the strategies' pattern, src/core/strategy.h).
 *
 * A probe is ebpf/NAME.bpf.c, ebpf/NAME.h (what the kernel and user sides
 * share), one file src/trace/NAME.c that fills one `struct probe_ops`, and
 * one line in probe_registry (probes.c); mk/ebpf.mk builds the skeleton of
 * every ebpf/NAME.bpf.c.  The probe declares its attach points (for each,
 * the programs that can serve it, best source first), the row columns it
 * fills, the ones the report's kernel view shows, and its part of the
 * `iostrat trace` report.  Nothing outside its file knows it: the loader
 * (tracer.c) per point autoloads only the first program the running
 * kernel offers (found through its BTF, tracefs and kallsyms), so a
 * missing attach point costs only the figures that need it; the row, the
 * report and `iostrat trace` iterate the registry.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

#include "lib/column.h"

struct bpf_object;
struct bpf_link;
struct tracer;

/* Where a figure comes from; the names are the *_source column values. */
enum probe_src {
	PSRC_NONE,
	PSRC_TP_BTF,
	PSRC_RAW_TP,
	PSRC_TRACEPOINT,
	PSRC_FENTRY,
	PSRC_KPROBE,
	PSRC_N
};
extern const char *const probe_src_name[PSRC_N];

/* One program that can serve an attach point. */
struct probe_cand {
	const char *prog;   /* its name in the BPF object */
	enum probe_src src;
	/* tp_btf/raw_tp: the event ("block_rq_issue"); tracepoint:
	 * "CATEGORY/EVENT"; fentry/kprobe: the kernel function, which the
	 * loader sets as the program's target (one program, several names) */
	const char *target;
	/* tp_btf/raw_tp: the struct the event's first argument points to,
	 * from the kernel's BTF (signatures changed: block_rq_issue(q, rq)
	 * before 5.11, a page before folios); NULL: any */
	const char *arg0;
	/* a type the kernel's BTF must have (a tracepoint record's CO-RE
	 * type, renamed across kernels); NULL: none */
	const char *type;
};

/* The fork of a watched process (a probe that follows process trees):
 * its programs btf_NAME, raw_NAME and tp_NAME, and the list's end. */
#define PROBE_FORK_CANDS(name)                                                 \
	{ "btf_" name, PSRC_TP_BTF, "sched_process_fork", NULL, NULL },        \
	{ "raw_" name, PSRC_RAW_TP, "sched_process_fork", NULL, NULL },        \
	{ "tp_" name, PSRC_TRACEPOINT, "sched/sched_process_fork", NULL, NULL }, \
	{ NULL }

#define PROBE_MAX_CANDS 16

struct probe_point {
	const char *name;   /* "rq_issue", in notes and tracer_source() */
	const char *figure; /* what it feeds, "block requests" */
	const struct probe_cand *cands; /* best first, ends with { NULL } */
	/* the figure survives without this point (another point of it gives
	 * the same, less finely); else the figure needs it */
	bool optional;
};

#define PROBE_MAX_POINTS 16

/* What one point got: the program serving it, or none and why. */
struct probe_pick {
	const struct probe_cand *c; /* NULL: none */
	struct bpf_link *link;
	uint32_t bad;               /* candidates that failed to load/attach */
	char why[96];
};

struct probe_state;

struct probe_ops {
	const char *name;           /* "block", "page-cache": in messages */
	/* Declared in every build, with or without eBPF: */
	/* the row columns fill_row adds (lib/column.h lines: type, unit,
	 * help), { 0 }-terminated; the core columns of room "trace" it sets
	 * (seq_pct, pc_hits ...) are the core table's alone (results/row.c,
	 * tests/unit/probes.c) */
	const struct column *columns;
	/* of those, the report's kernel view table's (medians), {NULL}-ended */
	const char *const *report_columns;
	/* Set its columns of a traced row from what read() left in ps->data;
	 * a figure the kernel cannot give is null, never a false 0. */
	void (*fill_row)(json_t *row, const struct tracer *t,
			 const struct probe_state *ps);
	/* Its part of the `iostrat trace` report. */
	void (*print)(FILE *f, const struct tracer *t, const struct probe_state *ps);
	/* The most files watch_file takes (0: it has no per-file filter). */
	size_t watch_max;
	/* The eBPF side (unset in a build without eBPF): */
	const struct probe_point *points;
	size_t npoints;
	/* Open the skeleton with its filter constants set: *obj its object.
	 * 0 or -errno. */
	int (*open)(const struct tracer *t, void **skel, struct bpf_object **obj);
	int (*load)(void *skel);
	void (*destroy)(void *skel);
	/* Zero counters, forget in-flight state.  0 or -errno. */
	int (*reset)(void *skel);
	/* Its counters into ps->data (malloc'd; the tracer frees it), when
	 * ps->skel is loaded.  0 or -errno. */
	int (*read)(struct probe_state *ps);
	/* Free what read() left (NULL: free()). */
	void (*free_data)(void *data);
	/* Optional filters: count for this process tree only; for this file
	 * only (-E2BIG past watch_max); forget the files. */
	int (*watch_pid)(struct probe_state *ps, pid_t pid);
	int (*watch_file)(struct probe_state *ps, dev_t dev, ino_t ino);
	int (*unwatch_files)(struct probe_state *ps);
};

/*
 * A probe's eBPF half, named by one convention: P_points, P_filter,
 * P_reset, P_read.  PROBE_SKEL(P, SKEL) defines P_open (opens skeleton
 * SKEL and lets P_filter(skel, tracer) set its read-only data before the
 * load), P_load and P_destroy as SKEL's own; PROBE_BPF_OPS(P) sets those
 * fields of its probe_ops (none in a build without eBPF).
 */
#define PROBE_SKEL(P, SKEL)                                                   \
	static int P##_open(const struct tracer *t, void **skel,              \
			    struct bpf_object **obj)                          \
	{                                                                     \
		struct SKEL##_bpf *s = SKEL##_bpf__open();                    \
									      \
		if (!s)                                                       \
			return -errno;                                        \
		P##_filter(s, t);                                             \
		*skel = s;                                                    \
		*obj = s->obj;                                                \
		return 0;                                                     \
	}                                                                     \
	static int P##_load(void *skel) { return SKEL##_bpf__load(skel); }    \
	static void P##_destroy(void *skel) { SKEL##_bpf__destroy(skel); }
#ifndef IOSTRAT_NO_BPF
#define PROBE_BPF_OPS(P)                                                      \
	.points = P##_points,                                                 \
	.npoints = sizeof(P##_points) / sizeof(P##_points[0]),                \
	.open = P##_open, .load = P##_load, .destroy = P##_destroy,           \
	.reset = P##_reset, .read = P##_read,
#else
#define PROBE_BPF_OPS(P)
#endif

/* A probe's ops by the names its file gives them: P_columns,
 * P_report_columns, P_fill_row, P_print and the eBPF half's
 * (PROBE_BPF_OPS); NAME is the probe's name in messages. */
#define PROBE_OPS(P, NAME)                                                    \
	.name = NAME, .columns = P##_columns,                                 \
	.report_columns = P##_report_columns, .fill_row = P##_fill_row,       \
	.print = P##_print, PROBE_BPF_OPS(P)

/* One probe as loaded into a tracer. */
struct probe_state {
	const struct probe_ops *ops;
	void *skel;                 /* NULL: nothing of it loaded */
	struct bpf_object *obj;
	struct probe_pick pick[PROBE_MAX_POINTS];
	void *data;                 /* read()'s counters; NULL: none read */
};

/* probes.c: every probe, one line each, NULL-terminated; at most
 * PROBE_MAX.  A tracer's probes[] follow its order. */
#define PROBE_MAX 8
extern const struct probe_ops *const probe_registry[];
/* The columns the tracer itself adds to a row, beside its probes' (probes.c). */
extern const struct column trace_columns[];

/* The source that IOSTRAT_TRACE_MODE names (tp_btf, raw_tp, tracepoint,
 * fentry, kprobe), tried first for every point so tests can check each
 * fallback; PSRC_NONE when unset. */
enum probe_src probe_preferred(void);
/* 0, or -EINVAL and why when IOSTRAT_TRACE_MODE names no source. */
int probe_mode_check(char *why, size_t len);
/* IOSTRAT_TRACE_WITHOUT=NAME,...: attach points (or "tracefs") treated as
 * missing from the kernel, so the host's tests can check what a kernel
 * without them gives. */
bool probe_withheld(const char *name);

/* kernel.c: what the running kernel offers. */
/* The running kernel has what candidate c needs (does not load it). */
bool kernel_offers(const struct probe_cand *c);
/* Why the kernel does not offer candidate c, in words, after what. */
void kernel_why_not(const struct probe_cand *c, const char *what, char *why,
		    size_t len);
/* c is a classic tracepoint whose event the kernel has (its BTF says so)
 * but tracefs does not show (not mounted, and not mountable). */
bool kernel_hides_tracepoint(const struct probe_cand *c);

/* tracefs for the classic tracepoints: libbpf reads each event's id from
 * tracefs, mounted in iostrat's own mount namespace when root and it is
 * missing (tracefs.c).  0, or -errno that tracefs_explain() puts in words. */
int tracefs_ensure(void);
void tracefs_explain(int err, const char *what, char *why, size_t len);
/* libbpf's own messages only with IOSTRAT_BPF_DEBUG=1 in the environment. */
void probe_quiet_libbpf(void);
/* Why loading failed, in words a user can act on. */
void probe_explain(int err, const char *what, char *why, size_t len);
/* Delete every key of a hash map. */
int probe_clear_map(int fd, size_t key_size);
/* Zero element 0..n-1 of a per-CPU array of value_size values. */
int probe_zero_percpu(int fd, size_t value_size, uint32_t n);
/* Sum a per-CPU value (u64 fields only) of a map element into out. */
int probe_sum_percpu(int fd, const void *key, size_t value_size, void *out);

#endif
