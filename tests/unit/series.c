// SPDX-License-Identifier: MIT
/* The throughput series (src/lib/series.c): its text form in a row's
 * io_series, read back; its bound on long runs; bad text refused. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "lib/series.h"
#include "unit.h"

UNIT(text_form_is_step_then_read_write_pairs)
{
	struct series s;
	char *t;

	series_init(&s, 100);
	series_add(&s, 12.5, 0);
	series_add(&s, 13.14, 4.2);
	series_add(&s, 0, 0);
	t = series_format(&s);
	CHECK(t, "no memory");
	CHECK(!strcmp(t, "100:12.5/0 13.1/4.2 0/0"), "%s", t);
	free(t);
	series_init(&s, 100);
	t = series_format(&s);
	CHECK(t, "no memory");
	CHECK(!strcmp(t, "100:"), "empty: %s", t);
	free(t);
	return 0;
}

/* A fixture row as a timed repetition writes it. */
UNIT(a_rows_series_reads_back)
{
	json_t *row = json_loads("{\"role\": \"timed\", \"elapsed_s\": 0.35, "
				 "\"io_series\": \"100:808.3/0 2.5/606.3 0/120\"}", 0, NULL);
	struct series s;

	CHECK(row, "fixture");
	CHECK(!series_parse(json_string_value(json_object_get(row, "io_series")), &s), "parse");
	CHECK(s.step_ms == 100 && s.n == 3, "step %u n %zu", s.step_ms, s.n);
	CHECK(fabsf(s.rd[0] - 808.3f) < 1e-3 && s.wr[0] == 0 && fabsf(s.wr[1] - 606.3f) < 1e-3 &&
	      s.wr[2] == 120, "values");
	json_decref(row);
	return 0;
}

UNIT(a_series_coarsens_to_at_most_max_intervals)
{
	struct series s;

	series_init(&s, 20);
	for (int i = 0; i < 13; i++) /* 260 ms: 0, 2, 4 ... MB/s */
		series_add(&s, 2 * i, 0);
	series_coarsen(&s, 13);
	CHECK(s.n == 13 && s.step_ms == 20, "within max: n %zu step %u", s.n, s.step_ms);
	series_coarsen(&s, 4);
	/* 13 -> 6 (the 13th goes) -> 3 at 80 ms: means of 0..6, 8..14, 16..22 */
	CHECK(s.n == 3 && s.step_ms == 80, "n %zu step %u", s.n, s.step_ms);
	CHECK(s.rd[0] == 3 && s.rd[1] == 11 && s.rd[2] == 19, "%g %g %g",
	      (double)s.rd[0], (double)s.rd[1], (double)s.rd[2]);
	return 0;
}

UNIT(a_long_run_keeps_its_span_at_a_coarser_step)
{
	struct series s, back;
	char *t;

	series_init(&s, 100);
	for (int i = 0; i < 5000; i++) /* 500 s: a step of 1 s, 1 MB/s then 3 */
		series_add(&s, i < 2500 ? 1 : 3, 0);
	CHECK(s.n <= SERIES_MAX && s.n * s.step_ms + s.acc_n * s.base_ms == 500000,
	      "n %zu step %u, %u under way", s.n, s.step_ms, s.acc_n);
	CHECK(s.rd[0] == 1 && s.rd[s.n - 1] == 3, "the span kept");
	t = series_format(&s);
	CHECK(t, "no memory");
	CHECK(strlen(t) < SERIES_MAX * 16, "bounded text");
	CHECK(!series_parse(t, &back) && back.n == s.n && back.step_ms == s.step_ms, "round trip");
	free(t);
	return 0;
}

UNIT(bad_text_is_refused)
{
	static const char *const bad[] = { "", "100", ":1/2", "0:1/2", "100:1", "100:1/",
		"100:-1/2", "100:1/2,3/4", "x:1/2", NULL };
	struct series s;

	for (size_t i = 0; bad[i]; i++)
		CHECK(series_parse(bad[i], &s) == -EINVAL, "accepted '%s'", bad[i]);
	return 0;
}
