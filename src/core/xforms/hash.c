// SPDX-License-Identifier: MIT
/* The built-ins "hash" (each line) and "hash4k" (each 4096-byte record): xxh3-64 in 16 hex digits, a fixed-size output. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <xxhash.h>

#include "core/xform.h"

static size_t sixteen(size_t len)
{
	(void)len;
	return 16;
}

static ssize_t hash_record(void *state, const unsigned char *in, size_t len,
			   unsigned char *out)
{
	char hex[17];

	(void)state;
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)XXH3_64bits(in, len));
	memcpy(out, hex, 16);
	return 16;
}

const struct iostrat_transform xform_hash = {
	.abi = IOSTRAT_TRANSFORM_ABI, .name = "hash", .version = 1,
	.kind = IOSTRAT_RECORD_LINE, .out_max = sixteen, .record = hash_record,
};

/* Fixed records of 4096 bytes (the size is the transform's: a record
 * kind is declared, not an argument). */
const struct iostrat_transform xform_hash_fixed = {
	.abi = IOSTRAT_TRANSFORM_ABI, .name = "hash4k", .version = 1,
	.kind = IOSTRAT_RECORD_FIXED, .record_size = 4096,
	.out_max = sixteen, .record = hash_record,
};
