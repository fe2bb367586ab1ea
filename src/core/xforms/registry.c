// SPDX-License-Identifier: MIT
/* The built-in transforms: one line each. */
#include <stddef.h>

#include "core/xform.h"

extern const struct iostrat_transform xform_xor, xform_filter, xform_hex,
	xform_hash, xform_hash_fixed;

const struct xform_builtin xform_builtins[] = {
	{ "xor", &xform_xor, true, "the study's line XOR, W passes (--work): the default" },
	{ "filter", &xform_filter, false, "filter:TEXT keeps the lines containing TEXT" },
	{ "hex", &xform_hex, false, "each line in hex: the output doubles" },
	{ "hash", &xform_hash, false, "each line's xxh3-64 in 16 hex digits" },
	{ "hash4k", &xform_hash_fixed, false, "each 4096-byte record's xxh3-64 in 16 hex digits" },
	{ NULL, NULL, false, NULL },
};
