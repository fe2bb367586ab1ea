// SPDX-License-Identifier: MIT
/*
 * The attach mode each point was meant to take, and one line when points
 * took another.  Meant: IOSTRAT_TRACE_MODE's source when set (for the
 * points that have one of it), else the first source the kernel has, when
 * the environment or the verifier kept the point from it: a classic
 * tracepoint whose tracefs cannot be mounted (a chroot, no root), a
 * program refused at load or attach.  A source the kernel does not have is
 * no fallback: the default order is the kernels' order (kernel.c).
 */
#include <stdio.h>
#include <string.h>

#include "probe.h"
#include "trace.h"

#ifndef IOSTRAT_NO_BPF
static bool was_bad(const struct probe_point *pt, const struct probe_pick *pk,
		    const struct probe_cand *c)
{
	return pk->bad & (1u << (unsigned)(c - pt->cands));
}

/* The candidate the point was meant to take; NULL: the one it took. */
static const struct probe_cand *meant(const struct probe_point *pt,
				      const struct probe_pick *pk,
				      enum probe_src pref)
{
	for (const struct probe_cand *c = pt->cands; c->prog; c++) {
		if (pref != PSRC_NONE && c->src == pref)
			return c->src == pk->c->src ? NULL : c;
		if (pref != PSRC_NONE)
			continue;
		if (c == pk->c)
			return NULL;
		if (was_bad(pt, pk, c) || kernel_hides_tracepoint(c))
			return c;
	}
	return NULL;
}

/* Why point pt did not take c: its refusal, else what the kernel lacks. */
static void fell_why(const struct probe_point *pt, const struct probe_pick *pk,
		     const struct probe_cand *c, char *why, size_t len)
{
	if (was_bad(pt, pk, c) && pk->why[0])
		snprintf(why, len, "%s", pk->why);
	else
		kernel_why_not(c, pt->name, why, len);
}

/* The point has a program of source s (PSRC_NONE: any). */
static bool has_src(const struct probe_point *pt, enum probe_src s)
{
	for (const struct probe_cand *c = pt->cands; c->prog; c++)
		if (s == PSRC_NONE || c->src == s)
			return true;
	return false;
}

struct fell {
	unsigned n, of;          /* points that fell back, of those that
				  * could take the mode asked for (all) */
	const struct probe_cand *first;
	char why[160];
	bool took[PSRC_N];       /* the sources they took instead */
};

static void scan_probe(const struct probe_state *ps, enum probe_src pref,
		       struct fell *fl)
{
	for (size_t i = 0; ps->skel && i < ps->ops->npoints; i++) {
		const struct probe_point *pt = &ps->ops->points[i];
		const struct probe_pick *pk = &ps->pick[i];
		const struct probe_cand *c;

		/* no source: a figure lost, note_missing says so; no
		 * program of the mode asked for: nothing to fall back from */
		if (!pk->c || !pk->link || !has_src(pt, pref))
			continue;
		fl->of++;
		c = meant(pt, pk, pref);
		if (!c)
			continue;
		if (!fl->n++) {
			fl->first = c;
			fell_why(pt, pk, c, fl->why, sizeof(fl->why));
		}
		fl->took[pk->c->src] = true;
	}
}

void tracer_note_fallback(struct tracer *t)
{
	enum probe_src pref = probe_preferred();
	struct fell fl = { 0 };
	size_t o;

	for (size_t k = 0; k < PROBE_MAX; k++)
		scan_probe(&t->probes[k], pref, &fl);
	t->fallback[0] = 0;
	if (!fl.n)
		return;
	o = (size_t)snprintf(t->fallback, sizeof(t->fallback),
			     "fell back from %s (%s) to", probe_src_name[fl.first->src],
			     pref != PSRC_NONE ? "IOSTRAT_TRACE_MODE" :
			     "the first the kernel has");
	for (int s = PSRC_TP_BTF, k = 0; s < PSRC_N && o < sizeof(t->fallback); s++)
		if (fl.took[s])
			o += (size_t)snprintf(t->fallback + o, sizeof(t->fallback) - o,
					      "%s %s", k++ ? "," : "", probe_src_name[s]);
	if (o < sizeof(t->fallback))
		snprintf(t->fallback + o, sizeof(t->fallback) - o,
			 " for %u of %u attach points: %s", fl.n, fl.of, fl.why);
	o = strlen(t->notes);
	snprintf(t->notes + o, sizeof(t->notes) - o, "%s\n", t->fallback);
}
#else
void tracer_note_fallback(struct tracer *t)
{
	t->fallback[0] = 0;
}
#endif
