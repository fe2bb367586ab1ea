// SPDX-License-Identifier: MIT
/* The words of a separated list, each handed to a function in order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "words.h"

int words_each(const char *list, const char *sep, word_fn *fn, void *ctx)
{
	char *copy = strdup(list ? list : ""), *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (char *w = strtok_r(copy, sep, &save); w && !ret; w = strtok_r(NULL, sep, &save))
		ret = fn(w, ctx);
	free(copy);
	return ret;
}
