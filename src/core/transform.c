// SPDX-License-Identifier: MIT
/* The transform of docs/design.md: the line-by-line XOR, W real passes, in chunks of any size. */
#include <string.h>

#include "transform.h"

typedef uint8_t v16 __attribute__((vector_size(16)));

/* One pass: seg[j] ^= (uint8_t)(k + j), 16 bytes at a time. */
static void xor_pass(uint8_t *seg, size_t n, uint8_t k)
{
	v16 key = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	size_t j = 0;

	key += k;
	for (; j + 16 <= n; j += 16) {
		v16 v;

		memcpy(&v, seg + j, 16);
		v ^= key;
		memcpy(seg + j, &v, 16);
		key += 16;
	}
	for (; j < n; j++)
		seg[j] ^= (uint8_t)(k + j);
}

static void xor_segment(uint8_t *seg, size_t n, unsigned work, uint64_t col)
{
	for (unsigned p = 0; p < work; p++) {
		/* (uint8_t)(p + j) only depends on the low byte of col */
		xor_pass(seg, n, (uint8_t)(p + col));
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
