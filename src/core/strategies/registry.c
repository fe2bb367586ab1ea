// SPDX-License-Identifier: MIT
/*
 * The explicit list of strategies.  A strategy that is not linked into
 * this build (its file not yet written) is a weak NULL and is skipped, so
 * the list can name every strategy of DESIGN.md.
 */
#include <stdio.h>
#include <string.h>

#include "core/strategy.h"
#include "lib/util.h"

#define WEAK __attribute__((weak))

extern const struct strategy strategy_stream;
extern const struct strategy strategy_buffer;
extern const struct strategy strategy_direct WEAK;
extern const struct strategy strategy_mmap WEAK;
extern const struct strategy strategy_uring WEAK;
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
	size_t seen = 0;

	for (size_t k = 0; k < ARRAY_SIZE(registry); k++) {
		if (!registry[k])
			continue;
		if (seen++ == i)
			return registry[k];
	}
	return NULL;
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
