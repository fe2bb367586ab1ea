// SPDX-License-Identifier: MIT
/* The verdict's kernel reason: the request pattern and the page cache over the traced repetitions, quoted only where their spread allows. */
#include <stdio.h>
#include <string.h>

#include "kspread.h"
#include "verdict.h"

/* " over 3 traced repetitions" style counts: "1 traced repetition". */
static const char *reps(size_t n)
{
	return n == 1 ? "repetition" : "repetitions";
}

/* One direction's phrase (what: "reads", "writes", "requests"; tail
 * after "sequential"): the median, said with its count when fewer than
 * the rule's, or the range when beyond it. */
static int seq_phrase(char *buf, size_t len, const char *what, const char *col,
		      const struct kspread *ks, const char *tail)
{
	bool rnd = ks->med < VERDICT_SEQ;

	switch (kspread_rule(col, ks)) {
	case KS_VARIES:
		return snprintf(buf, len, "%s vary: %.0f-%.0f%% sequential over %zu "
				"traced repetitions%s", what, ks->lo, ks->hi, ks->n, tail);
	case KS_FEW:
		return snprintf(buf, len, "%s %.0f%% sequential%s (%s%zu traced %s, "
				"spread unknown)", what, ks->med, tail,
				rnd ? "partly random; " : "", ks->n, reps(ks->n));
	case KS_STEADY:
		return snprintf(buf, len, "%s %.0f%% sequential%s%s", what, ks->med, tail,
				rnd ? " (partly random)" : "");
	default:
		return 0;
	}
}

const char *verdict_seq_spread_text(const struct kspread *all, const struct kspread *rd,
				    const struct kspread *wr, char *buf, size_t len)
{
	int n = 0;

	buf[0] = 0;
	if (!rd->n && !wr->n) {
		seq_phrase(buf, len, "requests", "seq_pct", all, ", reads and writes together");
		return buf;
	}
	if (rd->n)
		n = seq_phrase(buf, len, "reads", "seq_pct_read", rd, "");
	if (wr->n && n >= 0 && (size_t)n < len)
		seq_phrase(buf + n, len - (size_t)n, n ? ", writes" : "writes",
			   "seq_pct_write", wr, "");
	return buf;
}

const char *verdict_hit_spread_text(const struct kspread *hit, const char *cache,
				    char *buf, size_t len)
{
	buf[0] = 0;
	switch (kspread_rule("pc_hit_ratio", hit)) {
	case KS_VARIES:
		snprintf(buf, len, "page-cache hit ratio varies: %.0f-%.0f%% %s over %zu "
			 "traced repetitions", 100 * hit->lo, 100 * hit->hi, cache, hit->n);
		break;
	case KS_FEW:
		snprintf(buf, len, "page-cache hit ratio %.0f%% %s (%s; %zu traced %s, "
			 "spread unknown)", 100 * hit->med, cache, verdict_cache(hit->med),
			 hit->n, reps(hit->n));
		break;
	case KS_STEADY:
		snprintf(buf, len, "page-cache hit ratio %.0f%% %s (%s)", 100 * hit->med,
			 cache, verdict_cache(hit->med));
		break;
	default:
		break;
	}
	return buf;
}
