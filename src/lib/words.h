/* SPDX-License-Identifier: MIT */
/* The words of a separated list ("a,b,c" of an option), each handed to a function in order. */
#ifndef IOSTRAT_LIB_WORDS_H
#define IOSTRAT_LIB_WORDS_H

typedef int word_fn(char *word, void *ctx);

/* fn(word, ctx) on each non-empty word of list split at any byte of sep,
 * in order, until fn returns non-zero: that value.  0 after the last word
 * (none in an empty list); -ENOMEM.  list is copied whole, never cut at a
 * buffer's size, and not changed; the word is fn's to change. */
int words_each(const char *list, const char *sep, word_fn *fn, void *ctx);

#endif
