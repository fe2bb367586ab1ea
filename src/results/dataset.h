/* SPDX-License-Identifier: MIT */
/* Data sets: the four presets of the study, custom shapes, and their generation. */
#ifndef IOSTRAT_DATASET_H
#define IOSTRAT_DATASET_H

#include <signal.h>
#include <stdint.h>

/* The four data sets of the original study (docs/design.md, "Data sets"). */
struct dataset_spec {
	const char *preset;   /* NULL for a custom shape */
	uint64_t files, lines, width; /* width: chars per line, + '\n' */
	uint64_t seed;
};

/* Fill spec from a preset name scaled by `scale` (1.0 = full size).
 * Scaling shrinks the file count first, down to min(files, 4), then the
 * lines per file, so the total size follows the scale while a threaded
 * run still has a few files to share.  -EINVAL for an unknown preset. */
int dataset_preset(const char *name, double scale, struct dataset_spec *spec);
/* Names of the presets, NULL-terminated. */
extern const char *const dataset_presets[];
uint64_t dataset_bytes(const struct dataset_spec *spec);
/*
 * Generate into dir atomically: files are written into a sibling temp
 * directory which replaces dir only when complete.  dir must be absent,
 * empty, or a data set we generated (it has our manifest).  A dir whose
 * manifest already matches spec is kept as is (*reused = 1).
 * Errors are printed; returns 0 or -errno.
 */
int dataset_generate(const char *dir, const struct dataset_spec *spec,
		     int *reused);
/* Set by a signal handler: dataset_generate stops within one buffer,
 * removes its temporary and returns -EINTR (unprinted). */
extern volatile sig_atomic_t dataset_stop;
#define DATASET_MANIFEST ".iostrat-manifest.json"

#endif
