// SPDX-License-Identifier: MIT
/*
 * libFuzzer: the vectorised, chunked transform against the plain loop of
 * docs/design.md.  Input: byte 0 = W (0..31), byte 1 = split seed, rest = data.
 * The data is transformed whole by the reference and in chunks cut at
 * pseudo-random points by transform_chunk(); they must be equal, and the
 * carried column must equal transform_col_after().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/transform.h"

static void reference(uint8_t *b, size_t n, unsigned w)
{
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && b[i] != '\n')
			continue;
		for (unsigned p = 0; p < w; p++)
			for (size_t j = 0; start + j < i; j++)
				b[start + j] ^= (uint8_t)(p + j);
		start = i + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned w, seed;
	uint8_t *a, *b;
	uint64_t col = 0, col2 = 0;
	size_t n, off = 0;

	if (size < 2)
		return 0;
	w = data[0] & 31;
	seed = data[1] | 1;
	data += 2;
	n = size - 2;
	a = malloc(n + 1);
	b = malloc(n + 1);
	memcpy(a, data, n);
	memcpy(b, data, n);
	reference(a, n, w);
	while (off < n) {
		size_t step = 1 + (seed = seed * 1103515245u + 12345u) % 97;

		if (step > n - off)
			step = n - off;
		col2 = transform_col_after(b + off, step, col);
		transform_chunk(b + off, step, w, &col);
		if (col != col2)
			abort();
		off += step;
	}
	if (memcmp(a, b, n))
		abort();
	free(a);
	free(b);
	return 0;
}
