// SPDX-License-Identifier: MIT
/* The io_uring pipeline's record split: any chunking of a file gives the outputs of the whole file; a carried record past IOSTRAT_RECORD_MAX is -E2BIG. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/strategies/uring/uring.h"
#include "core/xform.h"
#include "lib/util.h"
#include "unit.h"

/* The outputs of in[0..len) split as the reader splits chunks of step
 * bytes (each run as its worker runs it), into out; its length or -errno. */
static ssize_t chunked(const struct xform *x, const uint8_t *in, size_t len,
		       size_t step, uint8_t *out)
{
	struct xform_worker w;
	struct ufile f = { .size = len };
	struct chunk ch = { .f = &f };
	ssize_t o = 0, n;
	int ret = xform_worker_init(x, &w);

	for (size_t off = 0; !ret && (off < len || (!off && !len)); off += step) {
		ch.buf = (uint8_t *)in + off;
		ch.got = (uint32_t)MIN(step, len - off);
		ch.last = off + step >= len;
		ret = uring_records_split(x, &ch);
		if (!ret && ch.head_len && (n = xform_run(&w, ch.head, ch.head_len, out + o)) >= 0)
			o += n;
		if (!ret && (n = xform_run(&w, ch.buf + ch.bstart, ch.bend - ch.bstart, out + o)) >= 0)
			o += n;
		free(ch.head);
		ch.head = NULL;
		if (!len)
			break;
	}
	free(f.carry);
	xform_worker_fini(&w);
	return ret ? ret : o;
}

/* Every chunking of in gives the whole file's outputs. */
static int same_in_any_chunking(const char *spec, const uint8_t *in, size_t len)
{
	char why[256];
	const struct xform *x = xform_get(spec, why, sizeof(why));
	size_t steps[] = { 1, 2, 3, 7, 64, 4095, 4096, 5000, 1 << 20 };
	struct xform_worker w;
	uint8_t *want, *got;
	ssize_t wn, gn = 0;
	size_t i = 0, room;

	CHECK(x, "%s", why);
	CHECK(!xform_worker_init(x, &w), "init");
	room = xform_out_bound(x, in, len) + 1;
	want = malloc(room);
	got = malloc(room);
	wn = xform_run(&w, in, len, want);
	xform_worker_fini(&w);
	for (; i < ARRAY_SIZE(steps); i++) {
		gn = chunked(x, in, len, steps[i], got);
		if (gn != wn || memcmp(got, want, (size_t)wn))
			break;
	}
	free(want);
	free(got);
	CHECK(i == ARRAY_SIZE(steps), "%s, chunks of %zu: %zd bytes, whole %zd", spec,
	      steps[i], gn, wn);
	return 0;
}

static const char lines[] = "one\n\ntwo zqz\nthree is a longer line zqz\n\nlast without newline";

UNIT(lines_split_in_any_chunking_equal_whole)
{
	size_t n = sizeof(lines) - 1;
	int ret = 0;

	ret |= same_in_any_chunking("hex", (const uint8_t *)lines, n);
	ret |= same_in_any_chunking("filter:zqz", (const uint8_t *)lines, n);
	ret |= same_in_any_chunking("hash", (const uint8_t *)lines, n);
	ret |= same_in_any_chunking("hex", (const uint8_t *)lines, n - 20); /* ends in '\n' */
	ret |= same_in_any_chunking("hex", (const uint8_t *)"", 0);
	return ret;
}

UNIT(fixed_records_split_in_any_chunking_equal_whole)
{
	size_t n = 3 * 4096 + 100;
	uint8_t *in = malloc(n);
	int ret;

	for (size_t i = 0; i < n; i++)
		in[i] = (uint8_t)(i * 7 + i / 13);
	ret = same_in_any_chunking("hash4k", in, n);
	free(in);
	return ret;
}

/* A line with no end past IOSTRAT_RECORD_MAX stops as -E2BIG, however
 * the chunks fall. */
UNIT(carried_record_over_the_max_is_e2big)
{
	char why[256];
	const struct xform *x = xform_get("hex", why, sizeof(why));
	size_t len = IOSTRAT_RECORD_MAX + 10;
	uint8_t *in, *out;
	ssize_t n;

	CHECK(x, "%s", why);
	in = malloc(len);
	out = malloc(64);
	memset(in, 'a', len);
	in[0] = '\n'; /* the first chunk has a record end: the rest is carried */
	n = chunked(x, in, len, 1 << 20, out);
	free(in);
	free(out);
	CHECK(n == -E2BIG, "got %zd", n);
	return 0;
}
