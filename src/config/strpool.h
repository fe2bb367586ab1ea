/* SPDX-License-Identifier: MIT */
/* A string pool: strings freed all at once with their pool. */
#ifndef IOSTRAT_STRPOOL_H
#define IOSTRAT_STRPOOL_H

/*
 * Strings that live as long as their pool and go with it at once: a
 * profile's configurations share their keys, values and file:line places
 * (one copy each, not one per configuration).
 */
struct strpool;

/* NULL when out of memory. */
struct strpool *strpool_new(void);
/* A copy of s (NULL: "") in p; exits with "out of memory" like xstrdup. */
char *strpool_dup(struct strpool *p, const char *s);
void strpool_free(struct strpool *p);

#endif
