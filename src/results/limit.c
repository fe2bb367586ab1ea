// SPDX-License-Identifier: MIT
/* The machine's limits by name (limit.h). */
#include <stddef.h>

#include "limit.h"

const char *const limit_names[LIMIT_N + 1] = {
	"read_direct", "write_new_buffered", "write_new_direct",
	"pagecache_copy", "copy_file_range", "transform", NULL,
};

const char *const limit_labels[LIMIT_N] = {
	"the direct read limit", "the new-file write limit (buffered)",
	"the new-file write limit (direct)", "the page-cache copy limit",
	"the kernel copy limit (copy_file_range)", "the CPU limit (transform)",
};
