/* SPDX-License-Identifier: MIT */
/* Reading a profile's text into raw sections (the first half of the profile loader). */
#ifndef IOSTRAT_PROFILE_READ_H
#define IOSTRAT_PROFILE_READ_H

#include <jansson.h>

#include "profile.h"
#include "config/strpool.h"

/*
 * The reading half of the profile loader (profile.c builds the
 * configurations): lines of any length, includes, ${VAR}, file:line, and
 * libinih, into raw sections.  Every string lives in the profile's pool.
 */
struct rsec {
	char *name, *where;
	struct pkv *kv; /* in order of first appearance, one per key */
	size_t nkv;
};

/* 0, or -errno after printing "iostrat: FILE:LINE: ...". */
int profile_read(const char *path, struct strpool *pool, struct rsec **secs,
		 size_t *nsecs);
void profile_rsecs_free(struct rsec *s, size_t n);

/* Room for item n of an array of n (amortised O(1); exits when out of
 * memory). */
void *profile_grow(void *p, size_t n, size_t size);
/* Set x->key in kv: an earlier one is replaced in place (value, where,
 * from), else x is appended.  idx maps key -> position: a hashed lookup,
 * so a section of K keys is read in O(K), not O(K^2).  The strings are
 * x's, not copied.  Keys are bytes, not always UTF-8 (the fuzzer found
 * jansson refusing them): the index is set without its UTF-8 check. */
void profile_kv_put(struct pkv **kv, size_t *n, json_t *idx,
		    const struct pkv *x);

#endif
