// SPDX-License-Identifier: MIT
/* The verdict's headline (headline.h, docs/verdict.md "The headline"): one screen per cell. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "headline.h"
#include "lib/util.h"
#include "results/stats_math.h"
#include "verdict.h"

/* *s followed by the formatted text (*s NULL: an empty string). */
__attribute__((format(printf, 2, 3)))
static void append(char **s, const char *fmt, ...)
{
	char *more, *both;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&more, fmt, ap) < 0)
		abort();
	va_end(ap);
	if (asprintf(&both, "%s%s", *s ? *s : "", more) < 0)
		abort();
	free(more);
	free(*s);
	*s = both;
}

/* "1.234 s [1.20-1.27]" (no interval: "1.234 s"). */
static json_t *median_text(const struct rrun *r, json_t *s)
{
	double *v = NULL, lo, hi;
	size_t n = rrun_samples(r, sget(s, RC_CONFIG_ID), &v);
	char buf[96];
	int o = snprintf(buf, sizeof(buf), "%.3f s", nget(s, "median"));

	if (!median_ci(v, n, VERDICT_LEVEL, &lo, &hi))
		snprintf(buf + o, sizeof(buf) - (size_t)o, " [%.3f-%.3f]", lo, hi);
	free(v);
	return json_text(buf);
}

/* "1.40x [1.30-1.50]"; the fastest: "1". */
static json_t *ratio_text(json_t *x)
{
	double lo = nget(x, "ci_lo"), hi = nget(x, "ci_hi"), q = nget(x, "ratio");
	char buf[96], r[56];

	if (!json_object_get(x, "ratio"))
		return json_text("1");
	if (!isfinite(q))
		return json_text("-");
	if (isfinite(lo) && isfinite(hi))
		snprintf(buf, sizeof(buf), "%.2fx [%s]", q, verdict_ci_range(lo, hi, r, sizeof(r)));
	else
		snprintf(buf, sizeof(buf), "%.2fx", q);
	return json_text(buf);
}

/* "behind (1.40x)", else the comparison's or the cell's decision as said. */
static json_t *decision_text(json_t *x)
{
	const char *d = sget(x, "decision");
	char buf[64];

	if (strcmp(d, "behind"))
		return json_text(d);
	snprintf(buf, sizeof(buf), "behind (%.2fx)", nget(x, "ratio"));
	return json_text(buf);
}

static json_t *summary_of(const struct rrun *r, const char *id)
{
	json_t *s;
	size_t i;

	json_array_foreach(r->sum, i, s)
		if (!strcmp(sget(s, RC_CONFIG_ID), id))
			return s;
	return NULL;
}

/* CPU-bound, I/O-bound or mixed, by verdict_bound; "-" when unknown. */
static enum vbound bound_of(const struct rrun *r, json_t *s, double *per)
{
	return verdict_bound(nget(s, RC_USER) + nget(s, RC_SYS), nget(s, "median"),
			     iget(s, RC_THREADS), iget(r->env, "cpus"), per);
}

static void strategy_row(const struct rrun *r, json_t *x, struct rtable *t)
{
	json_t *s = summary_of(r, sget(x, RC_CONFIG_ID));
	double per;
	enum vbound b = s ? bound_of(r, s, &per) : VB_UNKNOWN;

	rtable_add(t, json_pack("[s,o,o,o,s]", sget(x, RC_STRATEGY),
				s ? median_text(r, s) : json_text("-"), ratio_text(x),
				decision_text(x), b == VB_UNKNOWN ? "-" : verdict_bound_name(b)));
}

/* The names of the strategies not behind the fastest: "stream, uring". */
static void contenders(json_t *c, char **out)
{
	json_t *x;
	size_t i;

	json_array_foreach(json_object_get(c, "strategies"), i, x) {
		const char *d = sget(x, "decision");

		if (i && (!strcmp(d, "behind") || !strcmp(d, "out of race")))
			continue;
		append(out, "%s%s", *out && **out ? ", " : "", sget(x, RC_STRATEGY));
	}
}

/* The cell's sentence: what was decided, then what to try next. */
static char *sentence(const struct rrun *r, json_t *c)
{
	const char *d = sget(c, "decision"), *f = sget(c, "fastest");
	json_t *s = summary_of(r, sget(json_array_get(json_object_get(c, "strategies"), 0),
					 RC_CONFIG_ID));
	long long cpus = iget(r->env, "cpus"), th = iget(c, RC_THREADS);
	double per;
	char *out = NULL, *names = NULL, ci[56];

	contenders(c, &names);
	if (!strcmp(d, "winner"))
		append(&out, "%s wins: %.2fx %s [%s]", f, nget(c, "ratio"), sget(c, "runner_up"),
		       verdict_ci_range(nget(c, "ci_lo"), nget(c, "ci_hi"), ci, sizeof(ci)));
	else if (!strcmp(d, "only"))
		append(&out, "%s, the only strategy run", f);
	else if (!strncmp(d, "equal", 5))
		append(&out, "%s: equal within the band", names);
	else
		append(&out, "no winner yet between %s", names);
	if (s && bound_of(r, s, &per) == VB_CPU && cpus > 0 && th < cpus)
		append(&out, "; %s is CPU-bound on %lld of %lld CPUs: try -D threads=%lld", f,
		       th, cpus, cpus);
	else if (json_is_string(json_object_get(c, "next")))
		append(&out, "; next: %s", sget(c, "next"));
	else if (!strcmp(d, "undecided") || !strcmp(d, "too few"))
		append(&out, "; more rounds would narrow the interval");
	append(&out, ".");
	free(names);
	return out;
}

void report_headline(const struct rrun *r, json_t *cells, struct rdoc *d)
{
	static const char *const cols[] = { RC_STRATEGY, "median s [95% CI]",
		"x fastest [CI]", "decision", "limited by", NULL };
	json_t *c, *x;
	size_t i, j;

	json_array_foreach(cells, i, c) {
		char *title = NULL, *s = sentence(r, c);
		struct rtable *t;

		append(&title, HEADLINE_PREFIX "%s", sget(c, "cell"));
		t = rdoc_table(d, title, cols);
		json_array_foreach(json_object_get(c, "strategies"), j, x)
			strategy_row(r, x, t);
		rtable_note(t, "%s", s);
		free(title);
		free(s);
	}
}
