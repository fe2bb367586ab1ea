// SPDX-License-Identifier: MIT
/* The transform against ../shared/testvectors, whole and in chunks of
 * every awkward size, and its cost growing with W. */
#include <dirent.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "transform.h"
#include "unit.h"
#include "util.h"

static const unsigned works[] = { 0, 1, 7, 256, 1000 };
static char tvdir[4096];

static int load(const char *name, const char *ext, char **buf, size_t *len)
{
	char p[4200];

	snprintf(p, sizeof(p), "%s/%s%s", tvdir, name, ext);
	return read_file_small(p, buf, len);
}

/* Transform `in` in chunks of `step` bytes and compare with `want`. */
static int chunked_ok(const char *in, size_t len, const char *want,
		      unsigned w, size_t step)
{
	uint8_t *b = malloc(len + 1);
	uint64_t col = 0;
	int ok;

	memcpy(b, in, len);
	for (size_t off = 0; off < len; off += step)
		transform_chunk(b + off, MIN(step, len - off), w, &col);
	ok = !memcmp(b, want, len);
	free(b);
	return ok;
}

static int vectors_match_in_any_chunking(void)
{
	static const size_t steps[] = { 1, 2, 3, 7, 64, 4095, 4096, 65537, 1 << 30 };
	DIR *d = opendir(tvdir);
	struct dirent *de;
	int n = 0;

	if (!d)
		SKIP("no ../shared/testvectors");
	while ((de = readdir(d))) {
		char name[256], ext[32], *in, *want;
		size_t len, wlen;
		char *dot = strstr(de->d_name, ".in");

		if (!dot || dot[3])
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(dot - de->d_name), de->d_name);
		CHECK(!load(name, ".in", &in, &len), "%s", name);
		for (size_t i = 0; i < ARRAY_SIZE(works); i++) {
			snprintf(ext, sizeof(ext), ".w%u.out", works[i]);
			CHECK(!load(name, ext, &want, &wlen), "%s%s", name, ext);
			CHECK(wlen == len, "%s%s length", name, ext);
			for (size_t s = 0; s < ARRAY_SIZE(steps); s++)
				CHECK(chunked_ok(in, len, want, works[i], steps[s]),
				      "%s w=%u step=%zu", name, works[i], steps[s]);
			free(want);
			n++;
		}
		free(in);
	}
	closedir(d);
	CHECK(n >= 10, "only %d vectors found", n);
	return 0;
}

static int long_line_chunks_equal_whole(void)
{
	size_t len = 3 << 20; /* one 3 MiB line, longer than any buffer */
	uint8_t *a = malloc(len), *b = malloc(len);
	uint64_t ca = 0, cb = 0;

	for (size_t i = 0; i < len; i++)
		a[i] = (uint8_t)(i * 131 + 7) | 1; /* never '\n' (0x0a is even) */
	memcpy(b, a, len);
	transform_chunk(a, len, 3, &ca);
	for (size_t off = 0; off < len; off += 4093)
		transform_chunk(b + off, MIN(4093, len - off), 3, &cb);
	CHECK(!memcmp(a, b, len), "chunked differs");
	CHECK(ca == len && cb == len, "column %llu", (unsigned long long)ca);
	/* column 256 wraps: byte j uses (uint8_t)(p + j) */
	free(a);
	free(b);
	return 0;
}

static int col_after_matches_transform(void)
{
	uint8_t buf[] = "abc\ndefg\nhi";
	uint64_t col = 5;
	uint64_t want = transform_col_after(buf, sizeof(buf) - 1, 5);

	transform_chunk(buf, sizeof(buf) - 1, 1, &col);
	CHECK(col == want && want == 2, "col %llu want %llu",
	      (unsigned long long)col, (unsigned long long)want);
	CHECK(transform_col_after((const uint8_t *)"xyz", 3, 4) == 7, "no newline");
	return 0;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double time_work(uint8_t *b, size_t len, unsigned w)
{
	uint64_t col = 0;
	double t0 = cpu_now();

	transform_chunk(b, len, w, &col);
	return cpu_now() - t0;
}

/* W is a cost knob: 10x the passes must cost several times more.  Thread
 * CPU time, best of 15 (alternating), so a loaded machine does not decide it; the bound
 * is loose (the benchmark measures the real ratio). */
static int cost_grows_with_work(void)
{
	size_t len = 1 << 20;
	uint8_t *b = malloc(len);
	double t10 = 1e9, t100 = 1e9;

	for (size_t i = 0; i < len; i++)
		b[i] = (i % 100 == 99) ? '\n' : 'a';
	for (int r = 0; r < 15; r++) {
		t10 = MIN(t10, time_work(b, len, 10));
		t100 = MIN(t100, time_work(b, len, 100));
	}
	free(b);
	CHECK(t100 > 3 * t10, "W=100 %.4fs vs W=10 %.4fs", t100, t10);
	return 0;
}

int main(void)
{
	const char *top = getenv("TOP");

	snprintf(tvdir, sizeof(tvdir), "%s/../shared/testvectors", top ? top : ".");
	RUN(vectors_match_in_any_chunking);
	RUN(long_line_chunks_equal_whole);
	RUN(col_after_matches_transform);
	RUN(cost_grows_with_work);
	return unit_failed;
}
