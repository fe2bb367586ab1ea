// SPDX-License-Identifier: MIT
/* The `iostrat trace` report: one block of histograms per disk and
 * direction, then the page-cache figures. */
#include <stdbool.h>
#include <string.h>

#include "trace.h"

#define BAR 40

static void human(char *buf, size_t len, double v, const char *unit)
{
	static const char *const pre[] = { "", "K", "M", "G", "T", "P" };
	unsigned i = 0;

	while (v >= 1024 && i + 1 < sizeof(pre) / sizeof(pre[0])) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%.0f%s%s", v, pre[i], unit);
}

static void bar(FILE *f, uint64_t v, uint64_t max)
{
	int w = max ? (int)((v * BAR + max - 1) / max) : 0;

	fprintf(f, "|%.*s%*s|\n", w, "****************************************",
		BAR - w, "");
}

/* A run of two or more empty rows prints as one "..." line. */
static bool skip_zeros(FILE *f, const __u64 *v, unsigned *i, unsigned last)
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

/* Power-of-two rows [lo, hi) of counts; scale turns values into the unit
 * shown (1 for counts, 512 for sectors shown as bytes...). */
static void print_pow2(FILE *f, const char *title, const __u64 *v,
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

		if (skip_zeros(f, v, &i, last))
			continue;
		/* row i covers [2^(i-1), 2^i), row 0 is the value 0 */
		if (i == 0) {
			snprintf(range, sizeof(range), "0");
		} else {
			human(lo, sizeof(lo), (double)(1ULL << (i - 1)) * scale, unit);
			human(hi, sizeof(hi), (double)(1ULL << i) * scale, unit);
			snprintf(range, sizeof(range), "[%s, %s)", lo, hi);
		}
		fprintf(f, "      %-18s %10llu ", range, (unsigned long long)v[i]);
		bar(f, v[i], max);
	}
}

/* Collapse a fine histogram to power-of-two rows (row = ilog2 + 1). */
static void fine_to_pow2(const __u64 *fine, __u64 *rows, unsigned n)
{
	memset(rows, 0, n * sizeof(*rows));
	for (unsigned s = 0; s < SEEK_FINE_SLOTS; s++) {
		uint64_t lo = fine_slot_low(s);
		unsigned r = lo ? seek_ilog2(lo) + 1 : 0;

		rows[r < n ? r : n - 1] += fine[s];
	}
}

static void print_depth(FILE *f, const __u64 *d)
{
	unsigned last = 0;
	uint64_t max = 0;

	for (unsigned i = 0; i < SEEK_DEPTH_SLOTS; i++)
		if (d[i]) {
			last = i;
			max = d[i] > max ? d[i] : max;
		}
	fprintf(f, "    requests in flight at issue (this one included)\n");
	for (unsigned i = 1; i <= last; i++) {
		if (skip_zeros(f, d, &i, last))
			continue;
		fprintf(f, "      %-18u %10llu ", i, (unsigned long long)d[i]);
		bar(f, d[i], max);
	}
}

static void print_seeks(FILE *f, const struct seek_entry *e)
{
	const struct seek_stats *st = &e->st;
	__u64 rows[66];
	char disk[64], mb[32];

	trace_disk_name(e->key.dev, disk, sizeof(disk));
	human(mb, sizeof(mb), (double)st->bytes, "B");
	fprintf(f, "  %s %s: %llu requests, %s", disk,
		e->key.dir == SEEK_DIR_READ ? "read" : "write",
		(unsigned long long)st->reqs, mb);
	if (st->seq + st->rnd)
		fprintf(f, ", sequential %.1f%% (%llu of %llu; %llu random went "
			"backwards)", 100.0 * (double)st->seq /
			(double)(st->seq + st->rnd), (unsigned long long)st->seq,
			(unsigned long long)(st->seq + st->rnd),
			(unsigned long long)st->backward);
	fputc('\n', f);
	print_pow2(f, "seek distance from the previous request's end (0 = sequential)",
		   st->dist, SEEK_DIST_SLOTS, 512, "B");
	fine_to_pow2(st->size, rows, 66);
	print_pow2(f, "request size", rows, 66, 1, "B");
	fine_to_pow2(st->lat, rows, 66);
	print_pow2(f, "latency, issue to completion (us)", rows, 66, 1, "");
	print_depth(f, st->depth);
}

static void print_pc(FILE *f, const struct tracer *t, const struct pc_stats *pc)
{
	struct trace_summary s;

	trace_summarize(NULL, 0, pc, &s);
	fprintf(f, "page cache (%s; reads: %s, insertions: %s, readahead: %s)\n",
		t->filter.pids ? "the command's processes" : "every process",
		tracer_source(t, "reads"), tracer_source(t, "add"),
		tracer_source(t, "sync_ra"));
	fprintf(f, "  read calls %llu asking for %llu pages (%llu more cut off "
		"past end of file)\n", (unsigned long long)pc->read_calls,
		(unsigned long long)pc->read_pages,
		(unsigned long long)pc->past_eof);
	fprintf(f, "  mmap: %llu faults, %llu pages in fault-around ranges\n",
		(unsigned long long)pc->mmap_faults,
		(unsigned long long)pc->mmap_pages);
	fprintf(f, "  hits %llu  misses %llu (pages inserted, %llu folios)  ",
		(unsigned long long)s.pc_hits, (unsigned long long)s.pc_misses,
		(unsigned long long)pc->add_events);
	if (s.pc_hit_ratio >= 0)
		fprintf(f, "hit ratio %.1f%%\n", 100 * s.pc_hit_ratio);
	else
		fprintf(f, "hit ratio -\n");
	fprintf(f, "  readahead: %llu sync, %llu async, %llu pages in windows\n",
		(unsigned long long)pc->ra_sync, (unsigned long long)pc->ra_async,
		(unsigned long long)pc->ra_pages);
	fprintf(f, "  pages inserted into files only written: %llu\n",
		(unsigned long long)pc->added_other);
}

void trace_print(FILE *f, const struct tracer *t, const struct seek_entry *e,
		 size_t n, const struct pc_stats *pc)
{
	fprintf(f, "block layer (requests as issued to the device, after "
		"merging; probes: %s)\n", tracer_source(t, "rq_issue"));
	if (!n)
		fprintf(f, "  no read or write requests\n");
	for (size_t i = 0; i < n; i++)
		print_seeks(f, &e[i]);
	print_pc(f, t, pc);
}
