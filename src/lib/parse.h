/* SPDX-License-Identifier: MIT */
/* Numbers and sizes from the command line and profiles. */
#ifndef IOSTRAT_LIB_PARSE_H
#define IOSTRAT_LIB_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* Numbers from the command line.  All return 0 or -EINVAL/-ERANGE. */
int parse_u64(const char *s, uint64_t *out);
int parse_uint(const char *s, unsigned min, unsigned max, unsigned *out);
/* Sizes with optional units: 4096, 4k, 4K, 4KiB, 1m, 1M, 1MiB, 2g. */
int parse_size(const char *s, uint64_t *out);
int parse_double(const char *s, double *out);
/* The one bool vocabulary: 1/0, true/false, yes/no, on/off.
 * 0, or -EINVAL for anything else (the caller names key and value). */
int parse_bool(const char *v, bool *out);
/* Same, but print "iostrat: OPTION: bad value 'S' (why)" on error. */
int opt_uint(const char *opt, const char *s, unsigned min, unsigned max,
	     unsigned *out);
/* As opt_size, for a count (files, lines): no "bytes" in its messages. */
int opt_count(const char *opt, const char *s, uint64_t min, uint64_t max,
	      uint64_t *out);
int opt_size(const char *opt, const char *s, uint64_t min, uint64_t max,
	     uint64_t *out);

#endif
