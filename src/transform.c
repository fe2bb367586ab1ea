// SPDX-License-Identifier: MIT
#include <string.h>

#include "transform.h"

static void xor_segment(uint8_t *seg, size_t n, unsigned work, uint64_t col)
{
	for (unsigned p = 0; p < work; p++) {
		/* (uint8_t)(p + j) only depends on the low byte of col */
		uint8_t k = (uint8_t)(p + col);

		for (size_t j = 0; j < n; j++)
			seg[j] ^= (uint8_t)(k + j);
		/* keep the passes separate: W must cost W passes */
		__asm__ volatile("" : : "r"(seg) : "memory");
	}
}

void transform_chunk(uint8_t *buf, size_t len, unsigned work, uint64_t *col)
{
	uint8_t *p = buf, *end = buf + len;

	while (p < end) {
		uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (work && n)
			xor_segment(p, n, work, *col);
		if (!nl) {
			*col += n;
			return;
		}
		*col = 0;
		p = nl + 1;
	}
}

uint64_t transform_col_after(const uint8_t *buf, size_t len, uint64_t col)
{
	const uint8_t *nl = memrchr(buf, '\n', len);

	if (!nl)
		return col + len;
	return (uint64_t)(buf + len - (nl + 1));
}
