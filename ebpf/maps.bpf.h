/* SPDX-License-Identifier: (MIT OR GPL-2.0) */
/* A BPF map declared in one line: BPF_MAP(name, KIND, entries, key, value).  BPF side only. */
#ifndef IOSTRAT_MAPS_BPF_H
#define IOSTRAT_MAPS_BPF_H

/* KIND is the BPF_MAP_TYPE_ name without its prefix (HASH, LRU_HASH,
 * ARRAY, PERCPU_ARRAY, ...); the skeleton names the map `name`. */
#define BPF_MAP(name, kind, entries, key_type, value_type) \
	struct {                                           \
		__uint(type, BPF_MAP_TYPE_##kind);         \
		__uint(max_entries, entries);              \
		__type(key, key_type);                     \
		__type(value, value_type);                 \
	} name SEC(".maps")

#endif
