// SPDX-License-Identifier: MIT
/*
 * The verdict (verdict.h, docs/verdict.md): per data set x work level x
 * thread count, which strategy is fastest, by how much and with what
 * confidence, and why -- each reason one rule on the rows' own columns.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/stats_math.h"
#include "lib/util.h"
#include "fields.h"
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
		return VERDICT_NOT_CEILING;
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

const char *verdict_ceiling_text(double ratio, const char *job, long long qd,
				 double bs, char *buf, size_t len)
{
	char b[32];

	buf[0] = 0;
	if (!isfinite(ratio) || ratio <= 0)
		return buf;
	verdict_bs(bs, b, sizeof(b));
	if (ratio > VERDICT_DEVICE_OVER) /* 3 decimals where 2 would read 1.05 */
		snprintf(buf, len, "%.*f of fio %s (qd %lld, %s): the yardstick is below "
			 "what this strategy reached; %s",
			 round(ratio * 100) / 100 <= VERDICT_DEVICE_OVER ? 3 : 2, ratio, job,
			 qd, b, VERDICT_NOT_CEILING);
	else
		snprintf(buf, len, "%.2f of the machine's copy limit (fio %s, qd %lld, %s), %s",
			 ratio, job, qd, b, verdict_device(ratio));
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
	return !strcmp(sget(s, "kind"), "run") && json_object_get(s, "threads") &&
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

	snprintf(key, len, "%s\x1f%s\x1f%lld\x1f%lld", sget(s, "dataset"),
		 run_settings_text(s, set, sizeof(set)), iget(s, "work"), iget(s, "threads"));
}

static void fmt_p(char *buf, size_t len, double p, const char *test)
{
	if (!isfinite(p))
		snprintf(buf, len, "too few repetitions to test");
	else if (p < 0.001)
		snprintf(buf, len, "p<0.001, %s", test);
	else
		snprintf(buf, len, "p=%.3f, %s", p, test);
}

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

	if (t->o >= t->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->o, t->len - t->o, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->o += (size_t)n;
}

/* Before a reason: ". STRATEGY: " for the first, ", " after. */
static const char *sep(struct vtext *t, json_t *s)
{
	static char buf[96];

	if (t->o > t->head)
		return ", ";
	snprintf(buf, sizeof(buf), ". %s: ", sget(s, "strategy"));
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

/* The device reason: the strategy's MB/s over the machine's copy limit
 * when the directory has one, else over its mirror job's (the second,
 * like-for-like figure, in c either way). */
static void device_reason(const struct rrun *r, json_t *s, json_t *c, struct vtext *t)
{
	json_t *f = report_fio_baseline(r->sum, s), *x = report_fio_ceiling(r->sum, s);
	double mb = nget(s, "mb_s"), fm = f ? nget(f, "mb_s") : NAN;
	double mirror = fm > 0 ? mb / fm : NAN, ceil = x ? mb / nget(x, "mb_s") : NAN;
	const char *job = x ? sget(x, "strategy") : "";
	char buf[256], point[96], bs[32];

	if (!strncmp(job, "fio-", 4))
		job += 4;
	json_object_set_new(c, "ceiling_ratio", rnum(ceil));
	snprintf(point, sizeof(point), "fio %s, qd %lld, %s", job, iget(x, "qd"),
		 verdict_bs(nget(x, "bufsize"), bs, sizeof(bs)));
	json_object_set_new(c, "ceiling", x ? json_text(point) : json_null());
	json_object_set_new(c, "mirror_ratio", rnum(mirror));
	json_object_set_new(c, "mirror_job", f ? json_text(sget(f, "strategy")) : json_null());
	if (isfinite(ceil))
		put(t, "%s%s", sep(t, s), verdict_ceiling_text(ceil, job, iget(x, "qd"),
							  nget(x, "bufsize"), buf, sizeof(buf)));
	else if (isfinite(mirror))
		put(t, "%s%.2fx of %s doing the same I/O (%s%s)", sep(t, s), mirror,
		    sget(f, "strategy"), mirror > VERDICT_DEVICE_OVER ? "the yardstick is "
		    "below what this strategy reached; " : "", verdict_device(mirror));
}

/* The reasons of strategy summary s, as figures into c and words into t. */
static void reasons(const struct rrun *r, json_t *s, json_t *c, struct vtext *t)
{
	long long cpus = iget(r->env, "cpus"), th = iget(s, "threads");
	double cpu = nget(s, "user_s") + nget(s, "sys_s"), per = NAN;
	enum vbound b = verdict_bound(cpu, nget(s, "median"), th, cpus, &per);
	double rss = nget(s, "maxrss_kb") * 1024.0, data = nget(s, "bytes_in");
	double hit = nget(s, "pc_hit_ratio"), seq = nget(s, "seq_pct");
	double seq_r = nget(s, "seq_pct_read"), seq_w = nget(s, "seq_pct_write");
	char sbuf[160];

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
	if (*verdict_seq_text(seq, seq_r, seq_w, sbuf, sizeof(sbuf)))
		put(t, "%s%s", sep(t, s), sbuf);
	if (isfinite(hit))
		put(t, "%spage-cache hit ratio %.0f%% %s (%s)", sep(t, s), 100 * hit,
		    sget(s, "cache"), verdict_cache(hit));
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

/* p of the fastest a against b, and b's median over a's. */
static double test_pair(const struct rrun *r, json_t *a, json_t *b, double *ratio,
			const char **test)
{
	double *sa = NULL, *sb = NULL, p;
	size_t na = rrun_samples(r, sget(a, "config_id"), &sa);
	size_t nb = rrun_samples(r, sget(b, "config_id"), &sb);

	p = two_sample_p(sa, na, sb, nb, test);
	*ratio = nget(b, "median") / nget(a, "median");
	free(sa);
	free(sb);
	return p;
}

/* The fastest not distinguishable from the runner-up: the strategies the
 * fastest cannot be told from (in median order, up to the first it can),
 * and the first it is ahead of, with its margin and p. */
static void tied(const struct rrun *r, json_t **v, size_t n, json_t *c,
		 struct vtext *t, double ratio2, const char *pbuf2)
{
	json_t *names = json_array();
	double ratio = NAN, p = NAN;
	const char *test = "";
	char pbuf[64];
	size_t k;

	json_array_append_new(names, json_text(sget(v[0], "strategy")));
	json_array_append_new(names, json_text(sget(v[1], "strategy")));
	for (k = 2; k < n; k++) {
		p = test_pair(r, v[0], v[k], &ratio, &test);
		if (isfinite(p) && p < VERDICT_ALPHA)
			break;
		json_array_append_new(names, json_text(sget(v[k], "strategy")));
	}
	for (size_t i = 0; i < json_array_size(names); i++)
		put(t, "%s%s", i == 0 ? "" : i + 1 == json_array_size(names) ? " and " : ", ",
		    json_string_value(json_array_get(names, i)));
	if (k == 2)
		put(t, " not distinguishable (%.2fx apart, %s)", ratio2, pbuf2);
	else
		put(t, " not distinguishable from %s (up to %.2fx apart, each p >= %.2f)",
		    sget(v[0], "strategy"), nget(v[k - 1], "median") / nget(v[0], "median"),
		    VERDICT_ALPHA);
	json_object_set_new(c, "tied", names);
	if (k < n) {
		fmt_p(pbuf, sizeof(pbuf), p, test);
		put(t, "; %s ahead of %s, %.2fx (%s)", sget(v[0], "strategy"),
		    sget(v[k], "strategy"), ratio, pbuf);
		json_object_set_new(c, "ahead_of", json_text(sget(v[k], "strategy")));
		json_object_set_new(c, "ahead_ratio", rnum(ratio));
		json_object_set_new(c, "ahead_p", rnum(p));
	}
}

static json_t *one_cell(const struct rrun *r, json_t *m, bool settings)
{
	size_t n = json_array_size(m);
	json_t **v = calloc(n, sizeof(*v)), *c = json_object(), *a;
	long long th, w;
	char text[1024], label[600], pbuf[64], size[32], set[300];
	struct vtext t = { text, sizeof(text), 0, 0 };
	double p = NAN, ratio = NAN;
	const char *test = "";

	if (!v)
		abort();
	for (size_t i = 0; i < n; i++)
		v[i] = json_array_get(m, i);
	qsort(v, n, sizeof(*v), by_median);
	a = v[0];
	th = iget(a, "threads");
	w = iget(a, "work");
	snprintf(label, sizeof(label), "%s (%s%s%s), W=%lld, %lld thread%s",
		 sget(a, "dataset")[0] ? sget(a, "dataset") : "-",
		 verdict_size(nget(a, "bytes_in"), size, sizeof(size)),
		 settings ? ", " : "", settings ? run_settings_text(a, set, sizeof(set)) : "",
		 w, th, th == 1 ? "" : "s");
	json_object_set_new(c, "cell", json_text(label));
	json_object_set(c, "dataset", json_object_get(a, "dataset"));
	json_object_set_new(c, "settings", json_text(run_settings_text(a, set, sizeof(set))));
	json_object_set_new(c, "work", json_integer(w));
	json_object_set_new(c, "threads", json_integer(th));
	json_object_set_new(c, "fastest", json_text(sget(a, "strategy")));
	put(&t, "%s: ", label);
	if (n >= 2)
		p = test_pair(r, a, v[1], &ratio, &test);
	json_object_set_new(c, "runner_up", n >= 2 ? json_text(sget(v[1], "strategy")) :
			    json_null());
	json_object_set_new(c, "ratio", rnum(ratio));
	json_object_set_new(c, "p", rnum(p));
	json_object_set_new(c, "test", n >= 2 && isfinite(p) ? json_text(test) : json_null());
	json_object_set_new(c, "distinguishable",
			    json_boolean(n >= 2 && isfinite(p) && p < VERDICT_ALPHA));
	fmt_p(pbuf, sizeof(pbuf), p, test);
	if (n < 2)
		put(&t, "%s, the only strategy run", sget(a, "strategy"));
	else if (isfinite(p) && p < VERDICT_ALPHA)
		put(&t, "%s fastest, %.2fx %s (%s)", sget(a, "strategy"), ratio,
		    sget(v[1], "strategy"), pbuf);
	else
		tied(r, v, n, c, &t, ratio, pbuf);
	t.head = t.o;
	reasons(r, a, c, &t);
	put(&t, ".");
	json_object_set_new(c, "text", json_text(text));
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
	static const char *const figs[] = { "cell", "fastest", "runner_up", "ratio", "p",
		"test", "distinguishable", "tied", "ahead_of", "ahead_ratio", "ahead_p", "bound", "cpu_per_thread", "ceiling_ratio",
		"ceiling", "mirror_ratio", "mirror_job", "rss_share", "pc_hit_ratio", "seq_pct",
		"seq_pct_read", "seq_pct_write", NULL };
	json_t *cells = verdict_cells(r), *c;
	struct rtable *t;
	size_t i;

	if (!json_array_size(cells)) {
		json_decref(cells);
		return;
	}
	t = rdoc_table(d, "verdict", sent);
	rtable_note(t, "per data set, work level W and thread count: the fastest "
		    "strategy by median elapsed time and its margin over the runner-up "
		    "(ratio of medians, two-sided test; p >= %.2f: not distinguishable), "
		    "then why, by the rules of docs/verdict.md", VERDICT_ALPHA);
	json_array_foreach(cells, i, c)
		rtable_add(t, json_pack("[O]", json_object_get(c, "text")));
	t = rdoc_table(d, "verdict figures", figs);
	rtable_note(t, "ratio = runner-up median / fastest median; cpu_per_thread = "
		    "(user+sys) / elapsed / min(threads, CPUs); ceiling_ratio = MB/s / the "
		    "machine's copy limit (the best MB/s of fio's copy job over its grid, "
		    "at the point named by ceiling); mirror_ratio = MB/s / the MB/s of the "
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
