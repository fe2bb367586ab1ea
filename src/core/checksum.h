/* SPDX-License-Identifier: MIT */
/* Checksums of inputs, outputs and the reference transform, and output verification. */
#ifndef IOSTRAT_CHECKSUM_H
#define IOSTRAT_CHECKSUM_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "filelist.h"

/* xxh3-64 over the concatenation of dir/names[i] in list order.
 * On error *bad names the file.  -errno. */
int checksum_files(const char *dir, const struct filelist *fl, uint64_t *sum,
		   const char **bad);
struct xform;
/* The reference: xxh3-64 of the transform's outputs of every input, in
 * order: x NULL or in place, the XOR at work passes; else x's records by
 * the simplest reader (reference.h), twice: -EILSEQ when the two differ
 * (*bad then says so in one line). */
int checksum_reference(const char *dir, const struct filelist *fl,
		       const struct xform *x, unsigned work, uint64_t *sum,
		       const char **bad);
/* First difference between transform(in/f) and out/f: 0 = identical,
 * 1 = differs (*file, *offset set; offset = size of the shorter file when
 * one is a prefix of the other), or -errno (*file set). */
int verify_outputs(const char *in, const char *out, const struct filelist *fl,
		   const struct xform *x, unsigned work, size_t *file,
		   uint64_t *offset, const char **why);
void checksum_hex(uint64_t sum, char out[17]);

/* Set by a signal handler: the checksums stop within one buffer and
 * return -EINTR (a stop need not wait for a reference of gigabytes). */
extern volatile sig_atomic_t checksum_stop;

#endif
