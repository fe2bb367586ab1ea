// SPDX-License-Identifier: MIT
/* words_each (src/lib/words.c): every word in order, empty ones skipped, the
 * first non-zero answer kept, the list unchanged and never cut short. */
#include <errno.h>
#include <string.h>

#include "lib/words.h"
#include "unit.h"

struct seen {
	char all[4096];
	int stop_at, calls;
};

static int note(char *word, void *ctx)
{
	struct seen *s = ctx;

	s->calls++;
	strcat(s->all, word);
	strcat(s->all, "|");
	return s->calls == s->stop_at ? -EINVAL : 0;
}

UNIT(words_each_gives_every_word_in_order_and_skips_empty_ones)
{
	static const struct { const char *list, *sep, *want; int calls; } rows[] = {
		{ "a,b,c", ",", "a|b|c|", 3 },
		{ ",a,,b,", ",", "a|b|", 2 },
		{ "a b,c", " ,", "a|b|c|", 3 },
		{ "/bin:/usr/bin", ":", "/bin|/usr/bin|", 2 },
		{ "", ",", "", 0 },
		{ ",,,", ",", "", 0 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct seen s = { .stop_at = -1 };

		CHECK(words_each(rows[i].list, rows[i].sep, note, &s) == 0, "'%s'", rows[i].list);
		CHECK(!strcmp(s.all, rows[i].want) && s.calls == rows[i].calls,
		      "'%s' gave '%s' in %d calls", rows[i].list, s.all, s.calls);
	}
	return 0;
}

UNIT(words_each_stops_at_the_first_nonzero_answer)
{
	struct seen s = { .stop_at = 2 };

	CHECK(words_each("a,b,c", ",", note, &s) == -EINVAL, "not the word's answer");
	CHECK(!strcmp(s.all, "a|b|"), "went on after b: '%s'", s.all);
	return 0;
}

UNIT(words_each_leaves_the_list_whole_however_long)
{
	static char list[3001];
	struct seen s = { .stop_at = -1 };

	memset(list, 'x', 2998);
	memcpy(list + 2998, ",y", 3);
	CHECK(words_each(list, ",", note, &s) == 0 && s.calls == 2, "%d calls", s.calls);
	CHECK(strlen(s.all) == 2998 + 3 && !strcmp(s.all + 2999, "y|"), "cut short");
	CHECK(strlen(list) == 3000, "the list was changed");
	return 0;
}
