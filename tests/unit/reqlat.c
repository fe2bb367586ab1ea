// SPDX-License-Identifier: MIT
/* The request-latency probe's arithmetic (src/trace/reqlat.c): percentiles
 * of its log-linear microsecond histograms, their log2 rows, and Little's
 * law checked, on fixture histograms. */
#include <string.h>

#include "../../ebpf/reqlat.h"
#include "trace/trace.h"
#include "unit.h"

static __u64 h[RQL_SLOTS];

/* n requests of us microseconds into the fixture histogram. */
static void put(__u64 us, __u64 n)
{
	h[fine_slot(us)] += n;
}

static bool within_slot_of(double v, __u64 us)
{
	__u32 s = fine_slot(us);

	return v >= (double)fine_slot_low(s) && v <= (double)fine_slot_low(s + 1);
}

UNIT(empty_histogram_has_no_percentile)
{
	memset(h, 0, sizeof(h));
	CHECK(fine_quantile(h, 0.5, true) < 0, "got %f", fine_quantile(h, 0.5, true));
	return 0;
}

UNIT(median_lies_in_the_slot_of_most_requests)
{
	memset(h, 0, sizeof(h));
	put(70, 90);
	put(4100, 10);
	CHECK(within_slot_of(fine_quantile(h, 0.5, true), 70), "p50 %f", fine_quantile(h, 0.5, true));
	CHECK(within_slot_of(fine_quantile(h, 0.99, true), 4100), "p99 %f",
	      fine_quantile(h, 0.99, true));
	return 0;
}

UNIT(median_is_interpolated_within_its_slot)
{
	memset(h, 0, sizeof(h));
	put(64, 100); /* slot [64, 80): the median is halfway, 72 */
	CHECK(fine_quantile(h, 0.5, true) > 71.9 && fine_quantile(h, 0.5, true) < 72.1, "p50 %f",
	      fine_quantile(h, 0.5, true));
	return 0;
}

UNIT(p999_sees_one_slow_request_in_a_thousand_only_past_it)
{
	memset(h, 0, sizeof(h));
	put(100, 999);
	put(10000, 1);
	CHECK(within_slot_of(fine_quantile(h, 0.999, true), 100), "p99.9 %f",
	      fine_quantile(h, 0.999, true));
	memset(h, 0, sizeof(h));
	put(100, 998);
	put(10000, 2);
	CHECK(within_slot_of(fine_quantile(h, 0.999, true), 10000), "p99.9 %f",
	      fine_quantile(h, 0.999, true));
	return 0;
}

UNIT(zero_queue_time_is_its_own_slot)
{
	memset(h, 0, sizeof(h));
	put(0, 60); /* issued without an insert */
	put(30, 40);
	CHECK(fine_quantile(h, 0.5, true) < 1, "p50 %f", fine_quantile(h, 0.5, true));
	return 0;
}

UNIT(log2_rows_hold_each_value_in_its_power_of_two)
{
	__u64 rows[64];

	memset(h, 0, sizeof(h));
	put(0, 1);
	put(3, 2);
	put(70, 4);
	put(127, 8);
	put(128, 16);
	rql_log2(h, rows, 64);
	CHECK(rows[0] == 1 && rows[2] == 2, "rows 0 %llu, 2 %llu",
	      (unsigned long long)rows[0], (unsigned long long)rows[2]);
	CHECK(rows[7] == 12 && rows[8] == 16, "[64,128) %llu, [128,256) %llu",
	      (unsigned long long)rows[7], (unsigned long long)rows[8]);
	return 0;
}

UNIT(little_ratio_is_one_when_depth_is_rate_times_latency)
{
	/* 1000 completions in 1 s, 2 ms each: 2 in flight on average */
	CHECK(rql_little(2.0, 1000, 1.0, 0.002) > 0.999 &&
	      rql_little(2.0, 1000, 1.0, 0.002) < 1.001, "%f",
	      rql_little(2.0, 1000, 1.0, 0.002));
	CHECK(rql_little(1.0, 1000, 1.0, 0.002) < 0.501, "half the depth: %f",
	      rql_little(1.0, 1000, 1.0, 0.002));
	CHECK(rql_little(2.0, 0, 1.0, 0.002) < 0, "no completions: %f",
	      rql_little(2.0, 0, 1.0, 0.002));
	return 0;
}
