/* SPDX-License-Identifier: MIT */
#ifndef IOSTRAT_TRACE_PROBE_H
#define IOSTRAT_TRACE_PROBE_H

/* Helpers shared by the probe loaders (seeks.c, pagecache.c). */
#include <stddef.h>
#include <stdint.h>

struct bpf_object;

/*
 * Attach families, best first.  Every probe program exists once per
 * family, named "<prefix><event>" (ebpf/NAME.bpf.c); the loader enables one
 * family, tries to load and attach it, and falls back to the next.
 */
#define PROBE_FAMILIES 3
extern const char *const probe_family_prefix[PROBE_FAMILIES];
extern const char *const probe_family_name[PROBE_FAMILIES];

/* First family to try: 0, or the one IOSTRAT_TRACE_MODE names (tp_btf,
 * raw_tp, tracepoint), so tests can check every fallback. */
int probe_first_family(void);
/* The family that needs tracefs (event ids), and tracefs for it: mounted
 * in iostrat's own mount namespace when root and it is missing (tracefs.c).
 * 0, or -errno that tracefs_explain() puts in words. */
#define PROBE_FAMILY_TRACEPOINT 2
int tracefs_ensure(void);
void tracefs_explain(int err, const char *what, char *why, size_t len);
/* Ready FAMILY to attach: tracefs for the tracepoint family. */
int probe_prepare(int family);
/* libbpf's own messages only with IOSTRAT_BPF_DEBUG=1 in the environment. */
void probe_quiet_libbpf(void);
/* Autoload the programs of one family only. */
void probe_select(struct bpf_object *obj, int family);
/* Why loading failed, in words a user can act on. */
void probe_explain(int err, const char *what, char *why, size_t len);
/* Delete every key of a hash map. */
int probe_clear_map(int fd, size_t key_size);
/* Zero element 0..n-1 of a per-CPU array of value_size values. */
int probe_zero_percpu(int fd, size_t value_size, uint32_t n);
/* Sum a per-CPU value (u64 fields only) of a map element into out. */
int probe_sum_percpu(int fd, const void *key, size_t value_size, void *out);

#endif
