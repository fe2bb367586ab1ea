// SPDX-License-Identifier: MIT
/* The explicit list of strategies, in the order iostrat list shows them. */
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

const struct strategy *strategy_find(const char *name)
{
	const struct strategy *s;

	for (size_t i = 0; (s = strategy_at(i)); i++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}
