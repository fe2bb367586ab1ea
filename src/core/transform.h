/* SPDX-License-Identifier: MIT */
/* The transform every strategy applies, in place, to any slice of a file. */
#ifndef IOSTRAT_TRANSFORM_H
#define IOSTRAT_TRANSFORM_H

#include <stddef.h>
#include <stdint.h>

/*
 * The transform of docs/design.md, applied in place to any slice of a file.
 *
 * *col is the column (position within its line) of buf[0]; it is updated to
 * the column just past the slice, so a file can be fed in chunks of any
 * size, in order, and a worker that knows a chunk's starting column can
 * transform it alone.  A '\n' is never changed and resets the column.
 *
 * Every one of the `work` passes really runs (a compiler barrier between
 * passes keeps them from being folded into one mask): W is a CPU-cost knob.
 */
void transform_chunk(uint8_t *buf, size_t len, unsigned work, uint64_t *col);

/* Column just past buf[0..len) given the column of buf[0], without
 * transforming: what a reader needs to hand a chunk to a worker. */
uint64_t transform_col_after(const uint8_t *buf, size_t len, uint64_t col);

#endif
