// SPDX-License-Identifier: MIT
/* The transform against the vectors of tests/vectors/, whole and in
 * chunks of every awkward size, and its cost growing with W. */
#include <dirent.h>
#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/transform.h"
#include "unit.h"
#include "lib/util.h"

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

UNIT(vectors_match_in_any_chunking)
{
	static const size_t steps[] = { 1, 2, 3, 7, 64, 4095, 4096, 65537, 1 << 30 };
	DIR *d = opendir(tvdir);
	struct dirent *de;
	int n = 0;

	CHECK(d, "no %s: the test vectors are part of the repository", tvdir);
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

UNIT(long_line_chunks_equal_whole)
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

UNIT(col_after_matches_transform)
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

/* Instructions retired in user space by this thread, via perf_event_open:
 * a count, unlike time, that a loaded shared machine does not disturb. */
static int insn_counter(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static uint64_t insns_for(int fd, uint8_t *b, size_t len, unsigned w)
{
	uint64_t col = 0, n = 0;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	transform_chunk(b, len, w, &col);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &n, sizeof(n)) != sizeof(n))
		return 0;
	return n;
}

/* W is a cost knob: W=100 must execute about 10x the work of W=10 (no
 * folding of passes).  Counted in instructions; the benchmark measures
 * the time ratio. */
UNIT(cost_grows_with_work)
{
	size_t len = 1 << 20;
	uint8_t *b = malloc(len);
	uint64_t i10, i100;
	int fd = insn_counter();

	if (fd < 0) {
		free(b);
		SKIP("no hardware instruction counter (perf_event_open); make bench-core measures the W cost in time");
	}
	for (size_t i = 0; i < len; i++)
		b[i] = (i % 100 == 99) ? '\n' : 'a';
	i10 = insns_for(fd, b, len, 10);
	i100 = insns_for(fd, b, len, 100);
	close(fd);
	free(b);
	if (!i10)
		SKIP("instruction counter reads 0 here");
	printf("  W=10 %llu insns, W=100 %llu\n", (unsigned long long)i10, (unsigned long long)i100);
	CHECK(i100 > 8 * i10 && i100 < 12 * i10, "W=100 %llu insns vs W=10 %llu",
	      (unsigned long long)i100, (unsigned long long)i10);
	return 0;
}

static int vectors_found(void)
{
	const char *top = getenv("TOP");

	snprintf(tvdir, sizeof(tvdir), "%s/tests/vectors", top ? top : ".");
	return 0;
}
UNIT_FIXTURE(vectors_found, NULL)
