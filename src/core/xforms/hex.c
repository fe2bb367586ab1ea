// SPDX-License-Identifier: MIT
/* The built-in "hex": each line as lowercase hex (output doubles). */
#include <stddef.h>

#include "core/xform.h"

static size_t twice(size_t len)
{
	return 2 * len;
}

static ssize_t hex_record(void *state, const unsigned char *in, size_t len,
			  unsigned char *out)
{
	static const char digit[] = "0123456789abcdef";

	(void)state;
	for (size_t i = 0; i < len; i++) {
		out[2 * i] = (unsigned char)digit[in[i] >> 4];
		out[2 * i + 1] = (unsigned char)digit[in[i] & 15];
	}
	return (ssize_t)(2 * len);
}

const struct iostrat_transform xform_hex = {
	.abi = IOSTRAT_TRANSFORM_ABI, .name = "hex", .version = 1,
	.kind = IOSTRAT_RECORD_LINE, .out_max = twice, .record = hex_record,
};
