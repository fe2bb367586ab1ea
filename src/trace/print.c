// SPDX-License-Identifier: MIT
/* Text histograms for the probes' parts of the `iostrat trace` report. */
#include <stdbool.h>
#include <string.h>

#include "trace.h"

#define BAR 40

void trace_human(char *buf, size_t len, double v, const char *unit)
{
	static const char *const pre[] = { "", "K", "M", "G", "T", "P" };
	unsigned i = 0;

	while (v >= 1024 && i + 1 < sizeof(pre) / sizeof(pre[0])) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%.0f%s%s", v, pre[i], unit);
}

void trace_bar(FILE *f, uint64_t v, uint64_t max)
{
	int w = max ? (int)((v * BAR + max - 1) / max) : 0;

	fprintf(f, "|%.*s%*s|\n", w, "****************************************",
		BAR - w, "");
}

bool trace_skip_zeros(FILE *f, const __u64 *v, unsigned *i, unsigned last)
{
	unsigned j = *i;

	while (j <= last && !v[j])
		j++;
	if (j - *i < 2)
		return false;
	fprintf(f, "      ...\n");
	*i = j - 1;
	return true;
}

void trace_print_pow2(FILE *f, const char *title, const __u64 *v,
		       unsigned n, double scale, const char *unit)
{
	unsigned first = n, last = 0;
	uint64_t max = 0;

	for (unsigned i = 0; i < n; i++)
		if (v[i]) {
			if (first == n)
				first = i;
			last = i;
			max = v[i] > max ? v[i] : max;
		}
	fprintf(f, "    %s\n", title);
	if (first == n) {
		fprintf(f, "      (none)\n");
		return;
	}
	for (unsigned i = first; i <= last; i++) {
		char lo[32], hi[32], range[72];

		if (trace_skip_zeros(f, v, &i, last))
			continue;
		/* row i covers [2^(i-1), 2^i), row 0 is the value 0 */
		if (i == 0) {
			snprintf(range, sizeof(range), "0");
		} else {
			trace_human(lo, sizeof(lo), (double)(1ULL << (i - 1)) * scale, unit);
			trace_human(hi, sizeof(hi), (double)(1ULL << i) * scale, unit);
			snprintf(range, sizeof(range), "[%s, %s)", lo, hi);
		}
		fprintf(f, "      %-18s %10llu ", range, (unsigned long long)v[i]);
		trace_bar(f, v[i], max);
	}
}
