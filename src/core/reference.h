/* SPDX-License-Identifier: MIT */
/* The reference of a record transform: the simplest reader, not a strategy's code. */
#ifndef IOSTRAT_REFERENCE_H
#define IOSTRAT_REFERENCE_H

#include "xform.h"

/* The outputs of x over the file at path, record by record, to sink:
 * 0, or -errno (the file's, the transform's, sink's). */
int reference_file(const struct xform *x, const char *path, xform_sink_fn sink,
		   void *ctx);

#endif
