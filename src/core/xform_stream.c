// SPDX-License-Identifier: MIT
/* A byte stream through a transform: whole records run as they come, the record going on carried, outputs to a sink in order (xform.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xform.h"
#include "lib/util.h"

int xform_stream_open(struct xform_stream *s, const struct xform *x,
		      xform_sink_fn sink, void *ctx)
{
	memset(s, 0, sizeof(*s));
	s->sink = sink;
	s->ctx = ctx;
	return xform_worker_init(x, &s->w);
}

void xform_stream_close(struct xform_stream *s)
{
	xform_worker_fini(&s->w);
	free(s->carry);
	free(s->out);
	s->carry = s->out = NULL;
}

static int grow(uint8_t **p, size_t *cap, size_t need)
{
	uint8_t *q;
	size_t c = MAX(need, *cap * 2);

	if (need <= *cap)
		return 0;
	q = realloc(*p, c);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

/* Whole records in[0..len) through the transform, out to the sink. */
static int run_out(struct xform_stream *s, const uint8_t *in, size_t len)
{
	ssize_t n;
	int ret;

	if (!len)
		return 0;
	ret = grow(&s->out, &s->out_cap, xform_out_bound(s->w.x, in, len) + 1);
	if (ret)
		return ret;
	n = xform_run(&s->w, in, len, s->out);
	if (n < 0)
		return (int)n;
	s->bytes_out += (uint64_t)n;
	return n ? s->sink(s->ctx, s->out, (size_t)n) : 0;
}

static int carry_add(struct xform_stream *s, const uint8_t *in, size_t len)
{
	int ret;

	if (!len)
		return 0; /* carry may still be NULL: no memcpy to it */
	if (s->carry_len + len > IOSTRAT_RECORD_MAX + 1)
		return -E2BIG;
	ret = grow(&s->carry, &s->carry_cap, s->carry_len + len);
	if (!ret) {
		memcpy(s->carry + s->carry_len, in, len);
		s->carry_len += len;
	}
	return ret;
}

/* The carried record completed from the head of in: how much of in it
 * took (len: all of it, still going on), or -errno. */
static ssize_t finish_carry(struct xform_stream *s, const uint8_t *in, size_t len)
{
	size_t take, whole;
	int ret;

	if (s->w.x->t->kind == IOSTRAT_RECORD_FIXED) {
		take = MIN(len, s->w.x->t->record_size - s->carry_len);
	} else {
		const uint8_t *nl = memchr(in, '\n', len);

		take = nl ? (size_t)(nl - in) + 1 : len;
	}
	ret = carry_add(s, in, take);
	if (ret)
		return ret;
	whole = xform_whole(s->w.x, s->carry, s->carry_len);
	if (whole) {
		ret = run_out(s, s->carry, whole);
		s->carry_len = 0;
	}
	return ret ? ret : (ssize_t)take;
}

int xform_stream_feed(struct xform_stream *s, const uint8_t *in, size_t len)
{
	size_t whole;
	int ret;

	if (s->carry_len) {
		ssize_t took = finish_carry(s, in, len);

		if (took < 0)
			return (int)took;
		in += took;
		len -= (size_t)took;
		if (s->carry_len || !len)
			return 0;
	}
	whole = xform_whole(s->w.x, in, len);
	ret = run_out(s, in, whole);
	return ret ? ret : carry_add(s, in + whole, len - whole);
}

int xform_stream_end(struct xform_stream *s)
{
	int ret = run_out(s, s->carry, s->carry_len);

	s->carry_len = 0;
	return ret;
}
