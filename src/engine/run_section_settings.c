// SPDX-License-Identifier: MIT
/* A run section's table of the keys that add configurations beside its own: fio, ceiling. */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "bench.h"
#include "lib/util.h"

/*
 * ceiling's value: up to CEILING_MAX qdN and CEILING_MAX bsSIZE words,
 * at least one of each ("qd1 qd16 bs128k bs1m"); "", 0 or off (a false
 * bool): no grid.
 */
static int ceiling_grid_parse(const struct setting *s, void *p, const char *where,
			      const char *v)
{
	struct ceiling_grid *g = p;
	bool on = true;
	char *w;

	(void)s;
	memset(g, 0, sizeof(*g));
	if (!*v || (!parse_bool(v, &on) && !on))
		return 0;
	if (strlen(v) >= sizeof(g->words))
		goto bad;
	strcpy(g->words, v);
	for (w = g->words; *(w += strspn(w, " \t"));) {
		size_t len = strcspn(w, " \t");
		bool qd = !strncmp(w, "qd", 2), bs = !strncmp(w, "bs", 2);
		unsigned *n = qd ? &g->nqd : &g->nbs;

		if ((!qd && !bs) || len == 2 || *n >= CEILING_MAX)
			goto bad;
		(qd ? g->qd : g->bs)[(*n)++] = w + 2;
		w += len;
		if (*w)
			*w++ = 0;
	}
	if (g->nqd && g->nbs)
		return 0;
	errorf("%s: bad value '%s' (want at least one qdN and one bsSIZE)", where, v);
	memset(g, 0, sizeof(*g));
	return -EINVAL;
bad:
	errorf("%s: bad value '%s' (want up to %d qdN and %d bsSIZE words, e.g. "
	       "'qd1 qd16 bs128k bs1m')", where, v, CEILING_MAX, CEILING_MAX);
	memset(g, 0, sizeof(*g));
	return -EINVAL;
}

const struct setting run_section_settings[] = {
	{ .name = "fio", SETTING_BOOL(struct run_section, fio), .def = "0",
	  .where = SET_PROFILE,
	  .help = "1: an fio baseline beside each configuration" },
	{ .name = "ceiling", SETTING_CUSTOM(struct run_section, ceiling, struct ceiling_grid),
	  .parse = ceiling_grid_parse, .def = "0", .metavar = "qdN... bsSIZE...",
	  .where = SET_PROFILE,
	  .help = "the machine's copy limit: the fio job declaring \"; role: ceiling\"\n"
		  "over every qd by every bs (qd1 qd16 bs128k bs1m); 0: none" },
	{ 0 },
};
