/* SPDX-License-Identifier: MIT */
/*
 * SIGBUS as an error code: a file that shrinks while mapped raises SIGBUS
 * on the next access past its new end.  Accesses to mappings go through
 * guarded_copy_transform(), which returns -EFAULT (and the faulting
 * address) instead of letting the signal kill the process.
 */
#ifndef IOSTRAT_STRATEGIES_MMAP_GUARD_H
#define IOSTRAT_STRATEGIES_MMAP_GUARD_H

#include <stddef.h>
#include <stdint.h>

/* Install / restore the process's SIGBUS handler (before/after threads). */
int mmap_guard_install(void);
void mmap_guard_remove(void);
/* memcpy(dst, src, n) then transform_chunk(dst, ...); 0 or -EFAULT after
 * a SIGBUS, with *fault the address that faulted. */
int guarded_copy_transform(uint8_t *dst, const uint8_t *src, size_t n,
			   unsigned work, uint64_t *col, const void **fault);

/* memcpy(dst, src, n): 0 or -EFAULT after a SIGBUS, *fault as above. */
int guarded_copy(uint8_t *dst, const uint8_t *src, size_t n, const void **fault);

#endif
