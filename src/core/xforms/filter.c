// SPDX-License-Identifier: MIT
/* The built-in "filter:TEXT": keeps the lines that contain TEXT (output shrinks). */
#include <errno.h>
#include <string.h>

#include "core/xform.h"

static int filter_init(const char *arg, void **state)
{
	if (!*arg)
		return -EINVAL; /* filter:TEXT, TEXT not empty */
	*state = (void *)arg;
	return 0;
}

static size_t same_size(size_t len)
{
	return len;
}

static ssize_t filter_record(void *state, const unsigned char *in, size_t len,
			     unsigned char *out)
{
	const char *text = state;

	if (!memmem(in, len, text, strlen(text)))
		return 0;
	memcpy(out, in, len);
	return (ssize_t)len;
}

const struct iostrat_transform xform_filter = {
	.abi = IOSTRAT_TRANSFORM_ABI, .name = "filter", .version = 1,
	.kind = IOSTRAT_RECORD_LINE, .out_max = same_size,
	.init = filter_init, .record = filter_record,
};
