// SPDX-License-Identifier: MIT
/* The explicit list of strategies, in the order iostrat list shows them. */
#include <stdio.h>
#include <string.h>

#include "core/strategy.h"
#include "lib/util.h"

extern const struct strategy strategy_stream;
extern const struct strategy strategy_buffer;
extern const struct strategy strategy_direct;
extern const struct strategy strategy_mmap;
extern const struct strategy strategy_uring;
extern const struct strategy strategy_null;

static const struct strategy *const registry[] = {
	&strategy_stream,
	&strategy_buffer,
	&strategy_direct,
	&strategy_mmap,
	&strategy_uring,
	&strategy_null,
};

const struct strategy *strategy_at(size_t i)
{
	return i < ARRAY_SIZE(registry) ? registry[i] : NULL;
}

const char *strategy_names_with(unsigned flag, const char *sep, char *buf,
				size_t len)
{
	const struct strategy *s;
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; (s = strategy_at(i)) && o < len; i++)
		if (s->flags & flag)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? sep : "", s->name);
	return buf;
}

const struct strategy *strategy_find(const char *name)
{
	const struct strategy *s;

	for (size_t i = 0; (s = strategy_at(i)); i++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}
