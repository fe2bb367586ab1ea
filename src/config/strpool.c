// SPDX-License-Identifier: MIT
/* A string pool: bump allocation in blocks, freed all at once. */
#include <stdlib.h>
#include <string.h>

#include "strpool.h"
#include "lib/util.h"

#define BLOCK 65536

struct block {
	struct block *next;
	size_t used, size;
	char data[];
};

struct strpool {
	struct block *head;
};

struct strpool *strpool_new(void)
{
	return calloc(1, sizeof(struct strpool));
}

/* A block of at least need bytes at the head (a long string gets its own,
 * behind the head, so the head's free room is not lost). */
static struct block *room(struct strpool *p, size_t need)
{
	struct block *b = p->head;
	size_t size = need > BLOCK / 4 ? need : BLOCK;

	if (b && b->size - b->used >= need)
		return b;
	b = malloc(sizeof(*b) + size);
	if (!b) {
		errorf("out of memory");
		exit(1);
	}
	b->used = 0;
	b->size = size;
	if (size > BLOCK && p->head) {
		b->next = p->head->next;
		p->head->next = b;
	} else {
		b->next = p->head;
		p->head = b;
	}
	return b;
}

char *strpool_dup(struct strpool *p, const char *s)
{
	size_t n = strlen(s ? s : "") + 1;
	struct block *b = room(p, n);
	char *d = b->data + b->used;

	memcpy(d, s ? s : "", n);
	b->used += n;
	return d;
}

void strpool_free(struct strpool *p)
{
	if (!p)
		return;
	for (struct block *b = p->head, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	free(p);
}
