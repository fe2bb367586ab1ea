// SPDX-License-Identifier: MIT
/* The built-in "xor": the study's line-by-line XOR as a record transform (strategies run it in place: transform.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/transform.h"
#include "core/xform.h"

/* ARG: W, the passes (default 0); the in-place path takes W from --work */
static int xor_init(const char *arg, void **state)
{
	char *end;
	unsigned long w = *arg ? strtoul(arg, &end, 10) : 0;

	if (*arg && (*end || w > 1000000))
		return -EINVAL;
	*state = (void *)(uintptr_t)w;
	return 0;
}

static size_t same_size(size_t len)
{
	return len;
}

static ssize_t xor_record(void *state, const unsigned char *in, size_t len,
			  unsigned char *out)
{
	uint64_t col = 0;

	memcpy(out, in, len);
	transform_chunk(out, len, (unsigned)(uintptr_t)state, &col);
	return (ssize_t)len;
}

const struct iostrat_transform xform_xor = {
	.abi = IOSTRAT_TRANSFORM_ABI, .name = "xor", .version = 1,
	.kind = IOSTRAT_RECORD_LINE, .out_max = same_size,
	.init = xor_init, .record = xor_record,
};
