// SPDX-License-Identifier: MIT
/*
 * The verdict (verdict.h, docs/verdict.md): per data set x work level x
 * thread count, which strategy is fastest, by how much and with what
 * confidence, and why -- each reason one rule on the rows' own columns.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/anytime.h"
#include "results/paired.h"
#include "results/race.h"
#include "lib/util.h"
#include "fields.h"
#include "headline.h"
#include "limits.h"
#include "verdict.h"

enum vbound verdict_bound(double cpu_s, double elapsed_s, long long threads,
			  long long cpus, double *per_thread)
{
	long long used = threads > 0 ? threads : 1;
	double x;

	if (cpus > 0 && used > cpus)
		used = cpus;
	*per_thread = NAN;
	if (!isfinite(cpu_s) || !isfinite(elapsed_s) || elapsed_s <= 0 || cpu_s < 0)
		return VB_UNKNOWN;
	x = cpu_s / elapsed_s / (double)used;
	*per_thread = x;
	if (x >= VERDICT_CPU_BOUND)
		return VB_CPU;
	if (x <= VERDICT_IO_BOUND)
		return VB_IO;
	return VB_MIXED;
}

const char *verdict_bound_name(enum vbound b)
{
	static const char *const names[] = { "", "I/O-bound", "mixed", "CPU-bound" };

	return names[b];
}

const char *verdict_device(double ratio)
{
	if (!isfinite(ratio) || ratio <= 0)
		return "";
	if (ratio > VERDICT_DEVICE_OVER)
		return "above the yardstick";
	if (ratio >= VERDICT_DEVICE_NEAR)
		return "at the device's pace";
	if (ratio < VERDICT_DEVICE_FAR)
		return "well below the device";
	return "below the device";
}

const char *verdict_bs(double bytes, char *buf, size_t len)
{
	if (bytes >= 1048576 && fmod(bytes, 1048576) == 0)
		snprintf(buf, len, "%.0f MiB", bytes / 1048576);
	else if (bytes >= 1024 && fmod(bytes, 1024) == 0)
		snprintf(buf, len, "%.0f KiB", bytes / 1024);
	else
		snprintf(buf, len, "%.0f B", bytes);
	return buf;
}

const char *verdict_memory(double rss_bytes, double data_bytes)
{
	double share;

	if (!isfinite(rss_bytes) || !isfinite(data_bytes) || data_bytes <= 0)
		return "";
	if (data_bytes < VERDICT_MEM_MIN_DATA)
		return VERDICT_MEM_TOO_SMALL;
	share = rss_bytes / data_bytes;
	if (share >= VERDICT_MEM_HOLDS)
		return "holds the data in memory";
	if (share <= VERDICT_MEM_BOUNDED)
		return "small beside the data";
	return "a sizeable share of the data";
}

const char *verdict_size(double bytes, char *buf, size_t len)
{
	if (bytes < 1e6)
		snprintf(buf, len, "%.0f KB", bytes / 1e3);
	else
		snprintf(buf, len, "%.0f MB", bytes / 1e6);
	return buf;
}

const char *verdict_cache(double hit_ratio)
{
	if (!isfinite(hit_ratio))
		return "";
	if (hit_ratio <= VERDICT_HIT_COLD)
		return "read from the device";
	if (hit_ratio >= VERDICT_HIT_WARM)
		return "served from the page cache";
	return "partly from the page cache";
}

const char *verdict_seq(double seq_pct)
{
	if (!isfinite(seq_pct))
		return "";
	return seq_pct >= VERDICT_SEQ ? "sequential" : "partly random";
}

/* "reads 99% sequential" and, below VERDICT_SEQ, " (partly random)". */
static int seq_one(char *buf, size_t len, const char *what, double pct, const char *tail)
{
	return snprintf(buf, len, "%s %.0f%% sequential%s%s%s", what, pct, tail,
			pct < VERDICT_SEQ ? " (" : "", pct < VERDICT_SEQ ? "partly random)" : "");
}

const char *verdict_seq_text(double all, double rd, double wr, char *buf, size_t len)
{
	int n = 0;

	buf[0] = 0;
	if (!isfinite(rd) && !isfinite(wr)) {
		if (isfinite(all))
			seq_one(buf, len, "requests", all, ", reads and writes together");
		return buf;
	}
	if (isfinite(rd))
		n = seq_one(buf, len, "reads", rd, "");
	if (isfinite(wr) && n >= 0 && (size_t)n < len)
		seq_one(buf + n, len - (size_t)n, n ? ", writes" : "writes", wr, "");
	return buf;
}

/* --- the cells ------------------------------------------------------------ */

static bool is_run(json_t *s)
{
	return !strcmp(sget(s, "kind"), "run") && json_object_get(s, RC_THREADS) &&
	       iget(s, "n") > 0 && isfinite(nget(s, "median"));
}

static int by_median(const void *a, const void *b)
{
	double x = nget(*(json_t *const *)a, "median");
	double y = nget(*(json_t *const *)b, "median");

	return (x > y) - (x < y);
}

/* A cell's key: data set, settings, work and threads. */
static void cell_key(json_t *s, char *key, size_t len)
{
	char set[300];

	snprintf(key, len, "%s\x1f%s\x1f%lld\x1f%lld", sget(s, RC_DATASET),
		 run_settings_text(s, set, sizeof(set)), iget(s, RC_WORK), iget(s, RC_THREADS));
}

/* The sentence, grown to whatever length it needs: never cut. */
struct vtext {
	char *buf;
	size_t len, o;
	size_t head; /* where the reasons start */
};

__attribute__((format(printf, 2, 3)))
static void put(struct vtext *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	if (t->o + (size_t)n + 1 > t->len) {
		t->len = 2 * (t->o + (size_t)n + 1);
		t->buf = realloc(t->buf, t->len);
		if (!t->buf)
			abort();
	}
	va_start(ap, fmt);
	vsnprintf(t->buf + t->o, t->len - t->o, fmt, ap);
	va_end(ap);
	t->o += (size_t)n;
}

/* Before a reason: ". STRATEGY: " for the first, ", " after. */
static const char *sep(struct vtext *t, json_t *s)
{
	static char buf[96];

	if (t->o > t->head)
		return ", ";
	snprintf(buf, sizeof(buf), ". %s: ", sget(s, RC_STRATEGY));
	return buf;
}

/* The memory reason: the share, or why there is none (too small a read). */
static void memory_reason(struct vtext *t, json_t *s, double rss, double data)
{
	const char *m = verdict_memory(rss, data);
	char dbuf[32], mbuf[32];

	verdict_size(data, dbuf, sizeof(dbuf));
	if (!strcmp(m, VERDICT_MEM_TOO_SMALL))
		put(t, "%speak RSS %.1f MiB, mostly iostrat's own (the %s read is "
		    "under %s: %s)", sep(t, s), rss / 1048576.0, dbuf,
		    verdict_size(VERDICT_MEM_MIN_DATA, mbuf, sizeof(mbuf)), m);
	else if (*m)
		put(t, "%speak RSS %.0f MiB = %.1f%% of the %s read (%s)", sep(t, s),
		    rss / 1048576.0, 100 * rss / data, dbuf, m);
}

/* The device reason: the strategy's share of its binding limit when the
 * directory has limits rows (limits.h), else its MB/s over its mirror
 * job's (the second, like-for-like figure, in c either way). */
static void device_reason(const struct rrun *r, json_t *s, json_t *c, struct vtext *t)
{
	json_t *f = report_fio_baseline(r->sum, s);
	double mb = nget(s, RC_MB_S), fm = f ? nget(f, RC_MB_S) : NAN;
	double mirror = fm > 0 ? mb / fm : NAN;
	char buf[512];

	json_object_set_new(c, "limit", json_null());
	json_object_set_new(c, "limit_share", json_null());
	json_object_set_new(c, "mirror_ratio", rnum(mirror));
	json_object_set_new(c, "mirror_job", f ? json_text(sget(f, RC_STRATEGY)) : json_null());
	if (*limits_reason(r, s, c, buf, sizeof(buf)))
		put(t, "%s%s", sep(t, s), buf);
	else if (isfinite(mirror))
		put(t, "%s%.2fx of %s doing the same I/O (%s)", sep(t, s), mirror,
		    sget(f, RC_STRATEGY), verdict_device(mirror));
}

/* The kernel's part, over the traced repetitions: their number (traced_n)
 * into c, the words by the spread rule (kspread.h) into t. */
static void kernel_reason(const struct rrun *r, json_t *s, json_t *c, struct vtext *t)
{
	static const char *const cols[] = { "seq_pct", "seq_pct_read", "seq_pct_write",
		"pc_hit_ratio" };
	const char *id = sget(s, RC_CONFIG_ID);
	struct kspread ks[4];
	size_t most = 0;
	char buf[200];

	for (size_t i = 0; i < 4; i++) {
		kspread_of(r->rows, id ? id : "", cols[i], &ks[i]);
		most = ks[i].n > most ? ks[i].n : most;
	}
	json_object_set_new(c, "traced_n", most ? json_integer((json_int_t)most) : json_null());
	if (*verdict_seq_spread_text(&ks[0], &ks[1], &ks[2], buf, sizeof(buf)))
		put(t, "%s%s", sep(t, s), buf);
	if (*verdict_hit_spread_text(&ks[3], sget(s, "cache"), buf, sizeof(buf)))
		put(t, "%s%s", sep(t, s), buf);
}

/* The reasons of strategy summary s, as figures into c and words into t. */
static void reasons(const struct rrun *r, json_t *s, json_t *c, struct vtext *t)
{
	long long cpus = iget(r->env, "cpus"), th = iget(s, RC_THREADS);
	double cpu = nget(s, RC_USER) + nget(s, RC_SYS), per = NAN;
	enum vbound b = verdict_bound(cpu, nget(s, "median"), th, cpus, &per);
	double rss = nget(s, RC_MAXRSS) * 1024.0, data = nget(s, RC_BYTES_IN);
	double hit = nget(s, "pc_hit_ratio"), seq = nget(s, "seq_pct");
	double seq_r = nget(s, "seq_pct_read"), seq_w = nget(s, "seq_pct_write");

	json_object_set_new(c, "bound", json_text(verdict_bound_name(b)));
	json_object_set_new(c, "cpu_per_thread", rnum(per));
	if (b != VB_UNKNOWN)
		put(t, "%s%s (cpu %.2f of elapsed per thread)", sep(t, s),
		    verdict_bound_name(b), per);
	device_reason(r, s, c, t);
	json_object_set_new(c, "rss_share", rnum(data > 0 ? rss / data : NAN));
	memory_reason(t, s, rss, data);
	json_object_set_new(c, "pc_hit_ratio", rnum(hit));
	json_object_set_new(c, "seq_pct", rnum(seq));
	json_object_set_new(c, "seq_pct_read", rnum(seq_r));
	json_object_set_new(c, "seq_pct_write", rnum(seq_w));
	kernel_reason(r, s, c, t);
}

/* The settings part of a cell key (after the data set), its length in *n. */
static const char *settings_of(const char *key, size_t *n)
{
	const char *a = strchrnul(key, '\x1f');

	if (*a)
		a++;
	*n = (size_t)(strchrnul(a, '\x1f') - a);
	return a;
}

/* Is there more than one setting (cache, fsync...) among the cells? */
static bool several_settings(json_t *order)
{
	const char *first = NULL, *a;
	size_t nfirst = 0, na;
	json_t *k;
	size_t i;

	json_array_foreach(order, i, k) {
		a = settings_of(json_string_value(k), &na);
		if (!first) {
			first = a;
			nfirst = na;
		} else if (na != nfirst || strncmp(first, a, na)) {
			return true;
		}
	}
	return false;
}

/* --- the comparisons: the cell's race ------------------------------------ */

/* Strategy s against the one it is compared with (the fastest, or the one
 * it is shown behind): the interval of s over it. */
struct vcmp {
	json_t *s, *vs;
	struct ratio_ci ci;
	int rc; /* anytime_ratio_ci's or unpaired_ratio_ci's */
	bool paired;
	enum vdec d;
};

enum vdec verdict_decide(int rc, const struct ratio_ci *ci, double band)
{
	enum at_dec d = anytime_decide(rc, ci, band);

	if (d == AT_EQUAL)
		return VD_EQUAL;
	if (d == AT_BEHIND)
		return VD_BEHIND;
	if (rc == -EDOM || isnan(ci->ratio))
		return VD_TOO_FEW;
	return VD_UNDECIDED;
}

/* The band of the cell holding strategy s: stop.json's min_effect, else
 * the default (rows of a run that did not race). */
static double band_of(const struct rrun *r, json_t *s)
{
	json_t *c = rrun_stop_cell(r, sget(s, RC_CONFIG_ID));
	json_t *m = json_object_get(c, "min_effect");

	return (json_is_number(m) ? json_number_value(m) : RACE_MIN_EFFECT) / 100;
}

/* Every strategy's samples by round as race arms; false when one has no
 * rounds (rows written before them: nothing to race). */
static bool arms_of(const struct rrun *r, json_t **v, size_t n, struct race_arm *arms)
{
	bool paired = true;

	for (size_t k = 0; k < n; k++) {
		double *x;
		unsigned *rd;
		long m = rrun_rounds(r, sget(v[k], RC_CONFIG_ID), &x, &rd);

		if (m == -ENOMEM)
			abort();
		arms[k] = (struct race_arm){ .x = x, .round = rd, .n = m > 0 ? (size_t)m : 0 };
		paired = paired && m >= 0;
	}
	return paired;
}

static void arms_free(struct race_arm *arms, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		free((void *)arms[k].x);
		free((void *)arms[k].round);
	}
}

/* The race's look (results/race.h): v reordered leader first, the others
 * in median order; c[k] for v[k + 1]. */
static void raced(json_t **v, size_t n, const struct race_look *look,
		  const struct race_cmp *cmp, double band, struct vcmp *c)
{
	json_t **was = malloc(n * sizeof(*was));
	size_t *to = malloc(n * sizeof(*to)), j = 1;

	if (!was || !to)
		abort();
	memcpy(was, v, n * sizeof(*v));
	for (size_t k = 0; k < n; k++)
		to[k] = k == look->leader ? 0 : j++;
	for (size_t k = 0; k < n; k++)
		v[to[k]] = was[k];
	for (size_t k = 0; k < n; k++) {
		if (k == look->leader)
			continue;
		c[to[k] - 1] = (struct vcmp){ .s = was[k], .vs = was[cmp[k].vs < n ?
			cmp[k].vs : look->leader], .ci = cmp[k].ci, .rc = cmp[k].rc,
			.paired = true };
		c[to[k] - 1].d = cmp[k].st == RACE_BEHIND ? VD_BEHIND :
				 verdict_decide(cmp[k].rc, &cmp[k].ci, band);
	}
	free(was);
	free(to);
}

/* Rows without rounds: the fastest against each, unpaired (Mann-Whitney)
 * at 1 - RACE_ALPHA / m (Bonferroni; such rows were never raced). */
static void unpaired(const struct rrun *r, json_t **v, size_t n, double band,
		     struct vcmp *c)
{
	for (size_t k = 1; k < n; k++) {
		double *sa, *sb;
		size_t na = rrun_samples(r, sget(v[0], RC_CONFIG_ID), &sa);
		size_t nb = rrun_samples(r, sget(v[k], RC_CONFIG_ID), &sb);

		c[k - 1] = (struct vcmp){ .s = v[k], .vs = v[0] };
		c[k - 1].rc = unpaired_ratio_ci(sa, na, sb, nb,
						1 - RACE_ALPHA / (double)(n - 1), &c[k - 1].ci);
		c[k - 1].d = verdict_decide(c[k - 1].rc, &c[k - 1].ci, band);
		free(sa);
		free(sb);
	}
}

/* c[0..n-1): every strategy but the fastest, decided; v leader first. */
static void compare_all(const struct rrun *r, json_t **v, size_t n, struct vcmp *c)
{
	struct race_arm *arms = calloc(n, sizeof(*arms));
	struct race_cmp *cmp = calloc(n, sizeof(*cmp));
	struct race_look look;
	double band = band_of(r, v[0]);

	if (!arms || !cmp)
		abort();
	if (arms_of(r, v, n, arms) &&
	    !race_decide(arms, n, band, RACE_CAP, &look, cmp) && look.leader < n)
		raced(v, n, &look, cmp, band, c);
	else
		unpaired(r, v, n, band, c);
	arms_free(arms, n);
	free(arms);
	free(cmp);
}

/* An interval's end: 2 decimals, more (up to 4) where 2 would print 1.00
 * for an end that is not 1, so the side of 1 it lies on shows. */
static const char *ci_end(double v, char *buf, size_t len)
{
	int d = 2;

	while (d < 4 && v != 1 && fabs(v - 1) < 0.5 * pow(10, -d))
		d++;
	snprintf(buf, len, "%.*f", d, v);
	return buf;
}

const char *verdict_ci_range(double lo, double hi, char *buf, size_t len)
{
	char a[24], b[24];

	snprintf(buf, len, "%s-%s", ci_end(lo, a, sizeof(a)), ci_end(hi, b, sizeof(b)));
	return buf;
}

/* "95% anytime CI 1.05-1.19, 8 rounds" (unpaired: "95% CI ..., 5 and 6
 * repetitions, unpaired"). */
static const char *ci_text(const struct vcmp *c, char *buf, size_t len)
{
	char r[56];
	int o = snprintf(buf, len, "%.0f%% %sCI %s, ", 100 * (1 - RACE_ALPHA),
			 c->paired ? "anytime " : "",
			 verdict_ci_range(c->ci.lo, c->ci.hi, r, sizeof(r)));

	if (o < 0 || (size_t)o >= len)
		return buf;
	if (c->paired)
		snprintf(buf + o, len - (size_t)o, "%zu rounds", c->ci.n);
	else
		snprintf(buf + o, len - (size_t)o, "%zu repetitions, unpaired", c->ci.n);
	return buf;
}

/* The largest difference from 1 these rounds would not have seen: the
 * interval's half-width, in percent (a true ratio further from 1 than
 * that, with the same spread, gives an interval without 1). */
static double detectable_pct(const struct ratio_ci *ci)
{
	return 100 * (fmax(ci->ratio / ci->lo, ci->hi / ci->ratio) - 1);
}

/* "rounds" (paired) or "repetitions" (unpaired). */
static const char *units(const struct vcmp *c)
{
	return c->paired ? "rounds" : "repetitions";
}

/* "X" or, when s was compared with another than the fastest a, "X (vs Y)". */
static const char *against(json_t *a, const struct vcmp *c, char *buf, size_t len)
{
	if (c->vs == a)
		snprintf(buf, len, "%s", sget(c->s, RC_STRATEGY));
	else
		snprintf(buf, len, "%s (against %s)", sget(c->s, RC_STRATEGY),
			 sget(c->vs, RC_STRATEGY));
	return buf;
}

/* The head of a cell the fastest a does not win: a against c->s. */
static void head_open(struct vtext *t, json_t *a, const struct vcmp *c, double band)
{
	char ct[96], r[56];
	const char *x = sget(a, RC_STRATEGY), *y = sget(c->s, RC_STRATEGY);

	if (c->d == VD_EQUAL)
		put(t, "%s and %s equal within %.0f%% (%s)", x, y, 100 * band,
		    ci_text(c, ct, sizeof(ct)));
	else if (c->d == VD_TOO_FEW)
		put(t, "%s and %s undecided: %zu %s, too few for an interval (at least "
		    "%d; %.2fx by estimate)", x, y, c->ci.n, units(c), ANYTIME_MIN_N,
		    c->ci.ratio);
	else
		put(t, "%s and %s undecided after %zu %s: %s (%.0f%% %sCI; the smallest "
		    "difference these could detect: %.1f%%)", x, y, c->ci.n, units(c),
		    verdict_ci_range(c->ci.lo, c->ci.hi, r, sizeof(r)), 100 * (1 - RACE_ALPHA),
		    c->paired ? "anytime " : "", detectable_pct(&c->ci));
}

/* Another strategy not behind the fastest, after the head. */
static void head_more(struct vtext *t, const struct vcmp *c, double band)
{
	const char *y = sget(c->s, RC_STRATEGY);
	char r[56];

	verdict_ci_range(c->ci.lo, c->ci.hi, r, sizeof(r));
	if (c->d == VD_EQUAL)
		put(t, ", %s equal within %.0f%% (%s)", y, 100 * band, r);
	else if (c->d == VD_TOO_FEW)
		put(t, ", %s undecided (too few %s)", y, units(c));
	else
		put(t, ", %s undecided (%s)", y, r);
}

/* No winner: the strategies not behind (in median order), then the first
 * one behind, with its interval. */
static void no_winner(json_t *a, const struct vcmp *c, size_t m, double band,
		      json_t *out, struct vtext *t)
{
	json_t *names = json_array();
	const struct vcmp *ahead = NULL;
	char ct[96], who[160];
	bool first = true;

	json_array_append_new(names, json_text(sget(a, RC_STRATEGY)));
	for (size_t k = 0; k < m; k++) {
		if (c[k].d == VD_BEHIND) {
			ahead = ahead ? ahead : &c[k];
			continue;
		}
		json_array_append_new(names, json_text(sget(c[k].s, RC_STRATEGY)));
		if (first)
			head_open(t, a, &c[k], band);
		else
			head_more(t, &c[k], band);
		first = false;
	}
	json_object_set_new(out, "tied", names);
	if (!ahead)
		return;
	put(t, "; %s behind, %.2fx (%s)", against(a, ahead, who, sizeof(who)),
	    ahead->ci.ratio, ci_text(ahead, ct, sizeof(ct)));
	json_object_set_new(out, "ahead_of", json_text(sget(ahead->s, RC_STRATEGY)));
	json_object_set_new(out, "ahead_ratio", rnum(ahead->ci.ratio));
}

/* The figures of the fastest against the runner-up c, and the decision. */
static void cell_figures(json_t *out, const struct vcmp *c, const char *decision)
{
	json_object_set_new(out, "runner_up", c ? json_text(sget(c->s, RC_STRATEGY)) : json_null());
	json_object_set_new(out, "ratio", rnum(c ? c->ci.ratio : NAN));
	json_object_set_new(out, "ci_lo", rnum(c ? c->ci.lo : NAN));
	json_object_set_new(out, "ci_hi", rnum(c ? c->ci.hi : NAN));
	json_object_set_new(out, "ci_level", rnum(c ? 1 - RACE_ALPHA : NAN));
	json_object_set_new(out, "rounds", c && c->paired ? json_integer((json_int_t)c->ci.n) :
			    json_null());
	json_object_set_new(out, "test", !c || isnan(c->ci.lo) ? json_null() :
			    json_text(c->paired ? VERDICT_TEST_PAIRED : "mann-whitney"));
	json_object_set_new(out, "decision", json_text(decision));
	json_object_set_new(out, "distinguishable", json_boolean(!strcmp(decision, "winner")));
}

/* Each strategy of the cell for the headline (headline.c), in median
 * order: the fastest (decision: the cell's), then each other one against
 * it: ratio, interval at its level and its comparison's decision. */
static void strategy_rows(json_t *out, json_t *a, const struct vcmp *c, size_t m,
			  const char *decision)
{
	static const char *const dec[] = { [VD_UNDECIDED] = "undecided",
		[VD_TOO_FEW] = "too few", [VD_EQUAL] = "equal", [VD_BEHIND] = "behind" };
	json_t *rows = json_array();

	json_array_append_new(rows, json_pack("{s:O,s:O,s:s}", RC_STRATEGY,
			      json_object_get(a, RC_STRATEGY), RC_CONFIG_ID,
			      json_object_get(a, RC_CONFIG_ID), "decision", decision));
	for (size_t k = 0; k < m; k++)
		json_array_append_new(rows, json_pack("{s:O,s:O,s:o,s:o,s:o,s:O,s:s}",
				      RC_STRATEGY, json_object_get(c[k].s, RC_STRATEGY),
				      RC_CONFIG_ID, json_object_get(c[k].s, RC_CONFIG_ID),
				      "ratio", rnum(c[k].ci.ratio), "ci_lo", rnum(c[k].ci.lo),
				      "ci_hi", rnum(c[k].ci.hi), "vs",
				      json_object_get(c[k].vs, RC_STRATEGY), "decision", dec[c[k].d]));
	json_object_set_new(out, "strategies", rows);
}

/* The verdict's head: the fastest a over v[1..n) (median order). */
/* An undecided cell's way to a decision, from stop.json: the rounds and
 * minutes projected and the command (the engine's projection). */
static void next_step(const struct rrun *r, json_t *a, json_t *out, struct vtext *t)
{
	json_t *c = rrun_stop_cell(r, sget(a, RC_CONFIG_ID));
	json_t *next = json_object_get(c, "next"), *rn = json_object_get(c, "rounds_needed");
	double min = ceil(nget(c, "minutes_needed"));

	if (json_is_string(json_object_get(c, "why")))
		json_object_set(out, "stopped", json_object_get(c, "why"));
	if (!json_is_string(next) || !json_is_integer(rn)) {
		if (c && json_is_null(rn))
			put(t, "; no deciding round in sight at this spread");
		return;
	}
	json_object_set(out, "next", next);
	json_object_set(out, "rounds_needed", rn);
	json_object_set(out, "minutes_needed", json_object_get(c, "minutes_needed"));
	put(t, "; deciding it takes about %lld rounds in all (%.0f more minute%s): %s",
	    (long long)json_integer_value(rn), min, min == 1 ? "" : "s", json_string_value(next));
}

/* A cell a resume extended: from which round (stop.json's resumed_from;
 * its rows carry "resumed"). */
static void resumed(const struct rrun *r, json_t *a, json_t *out, struct vtext *t)
{
	json_t *c = rrun_stop_cell(r, sget(a, RC_CONFIG_ID));
	json_t *from = json_object_get(c, "resumed_from");

	if (!json_is_integer(from))
		return;
	json_object_set(out, "resumed_from", from);
	put(t, "; rounds after %lld from a resumed run (the same intervals, valid at "
	    "every look)", (long long)json_integer_value(from));
}

/* winner: every other behind; equal: every other behind or equal. */
static const char *cell_decision(const struct vcmp *c, size_t m)
{
	size_t behind = 0, equal = 0;

	for (size_t k = 0; k < m; k++) {
		behind += c[k].d == VD_BEHIND;
		equal += c[k].d == VD_EQUAL;
	}
	return behind == m ? "winner" : behind + equal == m ? "equal" : "undecided";
}

/* The verdict's head: the fastest over the others; v reordered, the
 * race's leader first. */
static void verdict_head(const struct rrun *r, json_t **v, size_t n, json_t *out,
			 struct vtext *t)
{
	size_t m = n - 1;
	struct vcmp *c = calloc(n, sizeof(*c));
	char ct[96], who[160];
	const char *d;

	if (!c)
		abort();
	if (n < 2) {
		cell_figures(out, NULL, "only");
		strategy_rows(out, v[0], c, 0, "only");
		put(t, "%s, the only strategy run", sget(v[0], RC_STRATEGY));
		free(c);
		return;
	}
	compare_all(r, v, n, c);
	d = cell_decision(c, m);
	cell_figures(out, &c[0], d);
	json_object_set_new(out, "band", rnum(band_of(r, v[0])));
	strategy_rows(out, v[0], c, m, d);
	if (!strcmp(d, "winner"))
		put(t, "%s fastest: %.2fx %s (%s)", sget(v[0], RC_STRATEGY), c[0].ci.ratio,
		    against(v[0], &c[0], who, sizeof(who)), ci_text(&c[0], ct, sizeof(ct)));
	else
		no_winner(v[0], c, m, band_of(r, v[0]), out, t);
	if (!strcmp(d, "undecided"))
		next_step(r, v[0], out, t);
	resumed(r, v[0], out, t);
	free(c);
}

static json_t *one_cell(const struct rrun *r, json_t *m, bool settings)
{
	size_t n = json_array_size(m);
	json_t **v = calloc(n, sizeof(*v)), *c = json_object(), *a;
	long long th, w;
	char label[600], size[32], set[300];
	struct vtext t = { NULL, 0, 0, 0 };

	if (!v)
		abort();
	for (size_t i = 0; i < n; i++)
		v[i] = json_array_get(m, i);
	qsort(v, n, sizeof(*v), by_median);
	a = v[0];
	th = iget(a, RC_THREADS);
	w = iget(a, RC_WORK);
	snprintf(label, sizeof(label), "%s (%s%s%s), W=%lld, %lld thread%s",
		 sget(a, RC_DATASET)[0] ? sget(a, RC_DATASET) : "-",
		 verdict_size(nget(a, RC_BYTES_IN), size, sizeof(size)),
		 settings ? ", " : "", settings ? run_settings_text(a, set, sizeof(set)) : "",
		 w, th, th == 1 ? "" : "s");
	json_object_set_new(c, "cell", json_text(label));
	json_object_set(c, RC_DATASET, json_object_get(a, RC_DATASET));
	json_object_set_new(c, "settings", json_text(run_settings_text(a, set, sizeof(set))));
	json_object_set_new(c, RC_WORK, json_integer(w));
	json_object_set_new(c, RC_THREADS, json_integer(th));
	put(&t, "%s: ", label);
	verdict_head(r, v, n, c, &t);
	a = v[0]; /* the race's leader */
	json_object_set_new(c, "fastest", json_text(sget(a, RC_STRATEGY)));
	t.head = t.o;
	reasons(r, a, c, &t);
	put(&t, ".");
	json_object_set_new(c, "text", json_text(t.buf));
	free(t.buf);
	free(v);
	return c;
}

json_t *verdict_cells(const struct rrun *r)
{
	json_t *order = json_array(), *out = json_array(), *k;
	json_t *cells = group_by(r->sum, is_run, cell_key, order);
	bool settings = several_settings(order);
	size_t i;

	json_array_foreach(order, i, k)
		json_array_append_new(out, one_cell(r, json_object_get(cells,
				      json_string_value(k)), settings));
	json_decref(order);
	json_decref(cells);
	return out;
}

static json_t *joined(json_t *a)
{
	char buf[256];
	size_t o = 0, i;
	json_t *x;

	buf[0] = 0;
	json_array_foreach(a, i, x)
		if (o < sizeof(buf))
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s", i ? "," : "",
					      json_string_value(x));
	return json_text(buf);
}

void report_verdict(const struct rrun *r, struct rdoc *d)
{
	static const char *const sent[] = { "verdict", NULL };
	static const char *const figs[] = { "cell", "fastest", "runner_up", "ratio", "ci_lo",
		"ci_hi", "ci_level", "rounds", "test", "decision", "band", "rounds_needed",
		"minutes_needed", "distinguishable", "tied", "ahead_of", "ahead_ratio", "bound",
		"cpu_per_thread", "limit_share", "limit", "mirror_ratio", "mirror_job",
		"rss_share", "pc_hit_ratio", "seq_pct", "seq_pct_read", "seq_pct_write", NULL };
	json_t *cells = verdict_cells(r), *c;
	struct rtable *t;
	size_t i;

	if (!json_array_size(cells)) {
		json_decref(cells);
		return;
	}
	report_headline(r, cells, d);
	t = rdoc_table(d, "verdict", sent);
	rtable_note(t, "per data set, work level W and thread count: the strategies' "
		    "race, paired by round: each pair's ratio of times with its interval "
		    "valid at every look (95%% over all pairs and rounds, a confidence "
		    "sequence); a strategy shown slower than another is behind; a winner "
		    "when all the others are behind, equal when the rest lie within "
		    "+-min_effect of the fastest; undecided cells with the rounds and the "
		    "command that would decide them; then why, by the rules of "
		    "docs/verdict.md");
	json_array_foreach(cells, i, c)
		rtable_add(t, json_pack("[O]", json_object_get(c, "text")));
	t = rdoc_table(d, "verdict figures", figs);
	rtable_note(t, "ratio = runner-up's time / the fastest's (paired estimate), ci_lo-ci_hi "
		    "its interval (ci_level: over all pairs and looks), rounds = pairs; "
		    "decision = winner, equal or undecided; band = min_effect as a "
		    "fraction; rounds_needed, minutes_needed: the engine's projection for "
		    "an undecided cell; cpu_per_thread = "
		    "(user+sys) / elapsed / min(threads, CPUs); limit_share = median MB/s / "
		    "the binding limit's (limit: the lowest of the machine's measured "
		    "limits the strategy meets, table \"strategies against their "
		    "limits\"); mirror_ratio = MB/s / the MB/s of the "
		    "strategy's mirror job (mirror_job: the like-for-like figure, the same "
		    "I/O, which may read then write); rss_share = peak RSS / bytes read");
	json_array_foreach(cells, i, c) {
		json_t *row = json_array();

		for (size_t j = 0; figs[j]; j++) {
			json_t *x = json_object_get(c, figs[j]);

			if (json_is_array(x)) /* tied: "a,b" */
				json_array_append_new(row, joined(x));
			else
				json_array_append(row, x ? x : json_null());
		}
		rtable_add(t, row);
	}
	json_decref(cells);
}
