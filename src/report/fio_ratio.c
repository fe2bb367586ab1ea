// SPDX-License-Identifier: MIT
/*
 * Each strategy beside its fio baseline: the median MB/s of a run
 * configuration over the median MB/s of the fio configuration on the same
 * data set and cache state whose job mirrors the strategy, at the block
 * size and queue depth the baseline was chosen with (fio/fio.h).  The two
 * mb_s are defined alike: input bytes / elapsed (fio: its read+write
 * runtime, without the transform).  Which fio rows stand beside a run's
 * is fio_pair.c's (the figures use it too): no fio job mirrors a --dontcache run (fio runs cached), so its ratio is
 * left empty and the table's note says why.
 */
#include <math.h>
#include <string.h>

#include "core/strategy.h"
#include "fio/fio.h"
#include "report.h"

static const char *s_of(json_t *o, const char *k)
{
	const char *v = json_string_value(json_object_get(o, k));

	return v ? v : "";
}

static long long i_of(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? (long long)json_number_value(v) : 0;
}

/* A strategy with a queue depth of its own (default_qd): its baseline
 * runs at the same --qd. */
static bool takes_qd(const char *strat)
{
	const struct strategy *st = strategy_find(strat);

	return st && st->default_qd;
}

json_t *report_fio_baseline(json_t *sum, json_t *s)
{
	const char *strat = s_of(s, RC_STRATEGY);
	bool direct = json_is_true(json_object_get(s, "direct"));
	uint64_t bs = fio_bs_for(strat, (uint64_t)i_of(s, "chunk"),
				 (uint64_t)i_of(s, "bufsize"));
	char want[128];
	json_t *f;
	size_t i;

	if (!fio_can_mirror(s))
		return NULL;
	fio_mirror_token(strat, direct, want, sizeof(want));
	json_array_foreach(sum, i, f) {
		if (strcmp(s_of(f, "kind"), "fio") || !fio_same_ground(f, s) ||
		    !fio_mirrors_has(s_of(f, "baseline_of"), want))
			continue;
		if ((uint64_t)i_of(f, "bufsize") != bs)
			continue;
		if (takes_qd(strat) && i_of(s, "qd") && i_of(f, "qd") != i_of(s, "qd"))
			continue;
		return f;
	}
	return NULL;
}

/* The fio version of the directory's fio rows, NULL when it has none. */
static const char *fio_version_of(json_t *sum)
{
	json_t *f;
	size_t i;

	json_array_foreach(sum, i, f)
		if (!strcmp(s_of(f, "kind"), "fio"))
			return s_of(f, "fio_version");
	return NULL;
}

/* Run summary s beside its baseline f: the ratio row; without f (a
 * --dontcache run, which no fio job mirrors) the fio cells left empty. */
static json_t *ratio_row(json_t *s, json_t *f)
{
	double a = json_number_value(json_object_get(s, RC_MB_S));
	double b = f ? json_number_value(json_object_get(f, RC_MB_S)) : NAN;
	char label[160] = "";

	if (f)
		snprintf(label, sizeof(label), "%s/%s", s_of(s, RC_STRATEGY), s_of(f, RC_STRATEGY));
	return json_pack("[s,o,s,o,o,o,o]", s_of(s, RC_CONFIG_ID), rnum(a), label, rnum(b),
			 rnum(!f ? NAN : b > 0 ? a / b : 0),
			 rnum(f ? json_number_value(json_object_get(f, "read_mb_s")) : NAN),
			 rnum(f ? json_number_value(json_object_get(f, "write_mb_s")) : NAN));
}

void report_fio_ratios(const struct rrun *r, struct rdoc *d)
{
	static const char *const cols[] = { RC_CONFIG_ID, RC_MB_S, "baseline",
		"fio_mb_s", "ratio", "fio_read_mb_s", "fio_write_mb_s", NULL };
	const char *version = fio_version_of(r->sum);
	struct rtable *t = NULL;
	size_t i, uncached = 0;
	json_t *s, *f;

	json_array_foreach(r->sum, i, s) {
		if (strcmp(s_of(s, "kind"), "run"))
			continue;
		f = report_fio_baseline(r->sum, s);
		if (!f && (fio_can_mirror(s) || !version))
			continue;
		rdoc_table_once(d, &t, "strategies against their fio baselines", cols, NULL);
		uncached += !f;
		rtable_add(t, ratio_row(s, f));
	}
	if (t)
		rtable_note(t, "ratio = median MB/s of the strategy / median MB/s of "
			    "the fio job doing the same I/O on the same files "
			    "(input bytes / elapsed for both)%s", uncached ?
			    "; --dontcache configurations have none: fio's jobs ran "
			    "through the page cache (iostrat gives fio no uncached=1, "
			    "which Debian 12's fio 3.33 does not have), no like-for-like "
			    "baseline for uncached I/O, so their ratio and the verdict's "
			    "mirror_ratio are left empty" : "");
	if (t && version)
		rdoc_meta(d, "fio", "%s", version);
}
