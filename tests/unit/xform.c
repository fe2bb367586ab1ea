// SPDX-License-Identifier: MIT
/* Record transforms: a stream fed in pieces of any size gives what the
 * reference reader gives, for every built-in, lines and fixed records,
 * long lines, a last line without its newline, empty lines. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/reference.h"
#include "core/xform.h"
#include "scratch.h"
#include "unit.h"

/* A scratch directory for this binary's cases. */
UNIT_SCRATCH("xform")

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static int append(void *ctx, const uint8_t *p, size_t n)
{
	struct buf *b = ctx;

	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			return -ENOMEM;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
	return 0;
}

/* lines of 0 to 3000 bytes (some longer than the pieces), random bytes
 * but '\n', the last without its newline when odd */
static size_t make_data(uint8_t *d, size_t cap, unsigned seed)
{
	size_t n = 0;

	srand(seed);
	while (n + 3001 < cap) {
		size_t len = (size_t)(rand() % 7 ? rand() % 120 : rand() % 3000);

		for (size_t i = 0; i < len; i++)
			d[n++] = (uint8_t)('a' + rand() % 26);
		d[n++] = '\n';
	}
	if (seed % 2)
		d[n - 1] = 'z';
	return n;
}

/* x over d[0..n) fed in pieces of 1..max bytes, into *out */
static int by_pieces(const struct xform *x, const uint8_t *d, size_t n, size_t max,
		     struct buf *out)
{
	struct xform_stream s;
	int ret = xform_stream_open(&s, x, append, out);

	for (size_t at = 0, k; !ret && at < n; at += k) {
		k = 1 + (size_t)rand() % max;
		k = k > n - at ? n - at : k;
		ret = xform_stream_feed(&s, d + at, k);
	}
	if (!ret)
		ret = xform_stream_end(&s);
	xform_stream_close(&s);
	return ret;
}

static int one(const char *spec, size_t max, unsigned seed)
{
	static uint8_t d[1 << 18];
	char path[PATH_MAX + 16], why[256];
	struct buf a = { 0 }, b = { 0 };
	struct xform x;
	size_t n = make_data(d, sizeof(d), seed);
	FILE *f;

	snprintf(path, sizeof(path), "%s/in", scratch);
	f = fopen(path, "w");
	CHECK(f && fwrite(d, 1, n, f) == n && !fclose(f), "writing %s", path);
	CHECK(!xform_load(spec, &x, why, sizeof(why)), "%s", why);
	CHECK(!reference_file(&x, path, append, &a), "reference %s", spec);
	CHECK(!by_pieces(&x, d, n, max, &b), "stream %s", spec);
	CHECK(a.n == b.n && !memcmp(a.p, b.p, a.n), "%s pieces <= %zu seed %u: %zu vs %zu bytes",
	      spec, max, seed, a.n, b.n);
	xform_unload(&x);
	free(a.p);
	free(b.p);
	return 0;
}

UNIT(stream_in_any_pieces_is_the_reference)
{
	static const char *const specs[] = { "hex", "filter:ab", "hash", "hash4k", "xor:3" };
	static const size_t maxes[] = { 1, 7, 4096, 70000 };

	for (size_t s = 0; s < sizeof(specs) / sizeof(*specs); s++)
		for (size_t m = 0; m < sizeof(maxes) / sizeof(*maxes); m++)
			for (unsigned seed = 1; seed <= 2; seed++)
				if (one(specs[s], maxes[m], seed))
					return 1;
	return 0;
}

/* whole records end past the last newline; fixed, at a multiple */
UNIT(whole_records_end_where_the_kind_says)
{
	struct xform l, f;
	char why[128];

	CHECK(!xform_load("hex", &l, why, sizeof(why)) &&
	      !xform_load("hash4k", &f, why, sizeof(why)), "%s", why);
	CHECK(xform_whole(&l, (const uint8_t *)"ab\ncd\nef", 8) == 6, "lines");
	CHECK(xform_whole(&l, (const uint8_t *)"abcdef", 6) == 0, "no newline");
	CHECK(xform_whole(&f, (const uint8_t *)"x", 1) == 0, "fixed, short");
	return 0;
}

/* an empty output drops the record and its newline */
UNIT(empty_output_drops_the_line)
{
	struct xform x;
	struct xform_worker w;
	char why[128];
	uint8_t out[64];

	CHECK(!xform_load("filter:keep", &x, why, sizeof(why)), "%s", why);
	CHECK(!xform_worker_init(&x, &w), "init");
	CHECK(xform_run(&w, (const uint8_t *)"drop\nkeep me\n\nlast keep", 24, out) == 18 &&
	      !memcmp(out, "keep me\nlast keep", 17), "%.*s", 17, out);
	xform_worker_fini(&w);
	return 0;
}
