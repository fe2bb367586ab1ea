// SPDX-License-Identifier: MIT
/* The variants of the api sweep and the sets they are scored in. */
#include <errno.h>
#include <string.h>

#include "lib/util.h"
#include "sweep.h"

#define AV(v) (1u << (v))

static const struct api_variant_def variants[AV_N] = {
	[AV_SYSCALL] = { "syscall", API_SYSCALL, LIBBUF_NONE,
		"read(2)/write(2), one call per block" },
	[AV_STDIO_DEFAULT] = { "stdio-default", API_STDIO, LIBBUF_DEFAULT,
		"fread/fwrite through the buffer fopen gives (st_blksize)" },
	[AV_IOSTREAM_DEFAULT] = { "iostream-default", API_IOSTREAM, LIBBUF_DEFAULT,
		"ifstream/ofstream read/write through the filebuf's own buffer" },
	[AV_STDIO_CALL] = { "stdio-callsize", API_STDIO, LIBBUF_CALL,
		"fread/fwrite with setvbuf to the call size" },
	[AV_IOSTREAM_CALL] = { "iostream-callsize", API_IOSTREAM, LIBBUF_CALL,
		"ifstream/ofstream with pubsetbuf to the call size" },
	[AV_MMAP] = { "mmap", API_MMAP, LIBBUF_NONE,
		"reads hash the mapping, writes memcpy into a shared mapping" },
};

static const struct api_set sets[] = {
	{ "study", "the original study's set: each library with its own default buffer",
	  AV(AV_SYSCALL) | AV(AV_STDIO_DEFAULT) | AV(AV_IOSTREAM_DEFAULT) | AV(AV_MMAP) },
	{ "callsize", "library buffer = call size (setvbuf / pubsetbuf)",
	  AV(AV_SYSCALL) | AV(AV_STDIO_CALL) | AV(AV_IOSTREAM_CALL) | AV(AV_MMAP) },
};

/* group names: an API with every buffering of it */
static const struct {
	const char *name;
	unsigned mask;
} groups[] = {
	{ "stdio", AV(AV_STDIO_DEFAULT) | AV(AV_STDIO_CALL) },
	{ "iostream", AV(AV_IOSTREAM_DEFAULT) | AV(AV_IOSTREAM_CALL) },
};

const struct api_variant_def *sweep_api_variant(enum api_variant v)
{
	return &variants[v];
}

size_t sweep_api_libbuf(enum api_variant v, size_t block)
{
	return variants[v].libbuf == LIBBUF_CALL ? block : 0;
}

const struct api_set *sweep_api_sets(size_t *n)
{
	*n = ARRAY_SIZE(sets);
	return sets;
}

int sweep_api_variant_mask(const char *name, unsigned *mask)
{
	for (int v = 0; v < AV_N; v++)
		if (!strcmp(name, variants[v].name)) {
			*mask = AV(v);
			return 0;
		}
	for (size_t i = 0; i < ARRAY_SIZE(groups); i++)
		if (!strcmp(name, groups[i].name)) {
			*mask = groups[i].mask;
			return 0;
		}
	for (size_t i = 0; i < ARRAY_SIZE(sets); i++)
		if (!strcmp(name, sets[i].name)) {
			*mask = sets[i].mask;
			return 0;
		}
	return -EINVAL;
}

const char *sweep_api_variant_names(void)
{
	static char buf[256];
	size_t len = 0;

	if (buf[0])
		return buf;
	for (int v = 0; v < AV_N; v++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					v ? "," : "", variants[v].name);
	for (size_t i = 0; i < ARRAY_SIZE(groups); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, ",%s",
					groups[i].name);
	for (size_t i = 0; i < ARRAY_SIZE(sets); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, ",%s",
					sets[i].name);
	return buf;
}
