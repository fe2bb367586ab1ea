// SPDX-License-Identifier: MIT
/* The io_uring pipeline with a record transform: what a chunk hands its worker (the carried record completed, its whole records) and what it carries on. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "uring.h"

/* Append in[0..n) to f's carried record: -E2BIG past one record. */
static int carry_add(struct ufile *f, const uint8_t *in, size_t n)
{
	size_t need = f->carry_len + n, cap;
	uint8_t *p;

	if (!n)
		return 0;
	if (need > (size_t)IOSTRAT_RECORD_MAX + 1) /* a record and its '\n' */
		return -E2BIG;
	if (need > f->carry_cap) {
		cap = MAX(need, MIN(2 * f->carry_cap, (size_t)IOSTRAT_RECORD_MAX + 1));
		p = realloc(f->carry, cap);
		if (!p)
			return -ENOMEM;
		f->carry = p;
		f->carry_cap = cap;
	}
	memcpy(f->carry + f->carry_len, in, n);
	f->carry_len = need;
	return 0;
}

/* How many of in[0..len) end the carried record (*end false: none do). */
static size_t head_end(const struct xform *x, const struct ufile *f,
		       const uint8_t *in, size_t len, bool *end)
{
	const uint8_t *nl;
	size_t need;

	if (x->t->kind == IOSTRAT_RECORD_FIXED) {
		need = x->t->record_size - f->carry_len;
		*end = len >= need;
		return *end ? need : len;
	}
	nl = memchr(in, '\n', len);
	*end = nl != NULL;
	return nl ? (size_t)(nl - in) + 1 : len;
}

/* The carried record becomes ch's head (ch frees it). */
static void carry_to_head(struct ufile *f, struct chunk *ch)
{
	ch->head = f->carry;
	ch->head_len = f->carry_len;
	f->carry = NULL;
	f->carry_len = f->carry_cap = 0;
}

/*
 * ch is the next chunk of its file in input order: its head is the
 * carried record and buf's bytes up to the first record end, its body the
 * whole records after it (the file's last chunk: everything left), and
 * the rest is carried to the next chunk.  0, or -E2BIG / -ENOMEM.
 */
int uring_records_split(const struct xform *x, struct chunk *ch)
{
	struct ufile *f = ch->f;
	size_t got = ch->got, hend = 0;
	bool end = true;
	int ret;

	ch->head_len = 0;
	ch->bstart = ch->bend = 0;
	if (f->carry_len) {
		hend = head_end(x, f, ch->buf, got, &end);
		ret = carry_add(f, ch->buf, hend);
		if (ret)
			return ret;
		if (end || ch->last)
			carry_to_head(f, ch);
		if (!end)
			return 0;
	}
	ch->bstart = hend;
	ch->bend = ch->last ? got : hend + xform_whole(x, ch->buf + hend, got - hend);
	return carry_add(f, ch->buf + ch->bend, got - ch->bend);
}
