// SPDX-License-Identifier: MIT
/*
 * The loader: every probe of the registry (probes.c), every attach point
 * on its own.
 *
 * Per point the first candidate the kernel offers (kernel.c) is autoloaded,
 * every other program of the object is not.  Detection can be wrong (a
 * function in BTF that the verifier still refuses, a kprobe on a notrace
 * function): then the object fails to load or a program to attach, and
 * the loader finds the culprit by loading each chosen program alone, marks
 * it bad and chooses again.  That costs verifier time only when something
 * is wrong; the usual case is one load per probe.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "probe.h"
#include "trace.h"

#ifdef IOSTRAT_NO_BPF
int tracer_load(struct tracer *t, const struct tracer_filter *f, char *why,
		size_t len)
{
	memset(t, 0, sizeof(*t));
	t->filter = *f;
	if (probe_mode_check(why, len))
		return -EINVAL;
	snprintf(why, len, "built without eBPF probes: %s", IOSTRAT_NO_BPF);
	return -ENOTSUP;
}
void tracer_unload(struct tracer *t) { (void)t; }
void tracer_detach(struct tracer *t) { (void)t; }
int tracer_attach(struct tracer *t) { (void)t; return -ENOTSUP; }
int tracer_reset(struct tracer *t) { (void)t; return -ENOTSUP; }
const char *tracer_source(const struct tracer *t, const char *point)
{
	(void)t;
	(void)point;
	return "none";
}
#else
#include <bpf/libbpf.h>

static unsigned cand_index(const struct probe_point *pt,
			   const struct probe_cand *c)
{
	return (unsigned)(c - pt->cands);
}

/* Per point the first candidate the kernel offers and that has not failed;
 * IOSTRAT_TRACE_MODE's source before the others.  How many were found. */
static size_t choose(struct probe_state *ps)
{
	const struct probe_ops *ops = ps->ops;
	enum probe_src pref = probe_preferred();
	size_t found = 0;

	for (size_t i = 0; i < ops->npoints; i++) {
		const struct probe_point *pt = &ops->points[i];
		struct probe_pick *pk = &ps->pick[i];

		pk->c = NULL;
		for (int pass = pref == PSRC_NONE; pass < 2 && !pk->c && !probe_withheld(pt->name);
		     pass++)
			for (const struct probe_cand *c = pt->cands; c->prog; c++) {
				if (pk->bad & (1u << cand_index(pt, c)))
					continue;
				if (!pass && c->src != pref)
					continue;
				if (kernel_offers(c)) {
					pk->c = c;
					break;
				}
			}
		if (pk->c)
			found++;
		else if (probe_withheld(pt->name))
			snprintf(pk->why, sizeof(pk->why), "%s: withheld by "
				 "IOSTRAT_TRACE_WITHOUT", pt->name);
		else if (!pk->why[0])
			snprintf(pk->why, sizeof(pk->why), "%s: the kernel has "
				 "none of its attach points", pt->name);
	}
	return found;
}

/* Open the object and autoload the chosen programs (only point `only`'s
 * when >= 0), pointing fentry programs at their function. */
static int open_select(const struct tracer *t, struct probe_state *ps,
		       long only, void **skel, struct bpf_object **obj)
{
	struct bpf_program *p;
	int err = ps->ops->open(t, skel, obj);

	if (err)
		return err;
	bpf_object__for_each_program(p, *obj)
		bpf_program__set_autoload(p, false);
	for (size_t i = 0; i < ps->ops->npoints; i++) {
		const struct probe_cand *c = ps->pick[i].c;

		if (!c || (only >= 0 && (size_t)only != i))
			continue;
		p = bpf_object__find_program_by_name(*obj, c->prog);
		if (!p)
			err = -ENOENT; /* a table out of step with its object */
		else if (bpf_program__set_autoload(p, true))
			err = -EINVAL;
		else if (c->src == PSRC_FENTRY)
			err = bpf_program__set_attach_target(p, 0, c->target);
		if (err) {
			ps->ops->destroy(*skel);
			*skel = NULL;
			return err;
		}
	}
	return 0;
}

/* The object failed to load: load each chosen program alone and mark the
 * ones that fail.  How many were marked. */
static size_t isolate(const struct tracer *t, struct probe_state *ps)
{
	size_t marked = 0;

	for (size_t i = 0; i < ps->ops->npoints; i++) {
		struct probe_pick *pk = &ps->pick[i];
		struct bpf_object *obj;
		void *skel;
		int err;

		if (!pk->c)
			continue;
		err = open_select(t, ps, (long)i, &skel, &obj);
		if (err)
			return 0;
		err = ps->ops->load(skel);
		ps->ops->destroy(skel);
		if (!err)
			continue;
		pk->bad |= 1u << cand_index(&ps->ops->points[i], pk->c);
		snprintf(pk->why, sizeof(pk->why), "%s: %s %s refused (%s)",
			 ps->ops->points[i].name, probe_src_name[pk->c->src],
			 pk->c->target, strerror(-err));
		marked++;
	}
	return marked;
}

static void detach_probe(struct probe_state *ps)
{
	for (size_t i = 0; i < PROBE_MAX_POINTS; i++) {
		bpf_link__destroy(ps->pick[i].link);
		ps->pick[i].link = NULL;
	}
}

/* Attach every chosen program.  -1, or the first point that failed (its
 * error in *err). */
static long attach_probe(struct probe_state *ps, int *err)
{
	for (size_t i = 0; i < ps->ops->npoints; i++) {
		struct probe_pick *pk = &ps->pick[i];
		struct bpf_program *p;

		if (!pk->c || pk->link)
			continue;
		p = bpf_object__find_program_by_name(ps->obj, pk->c->prog);
		if (pk->c->src == PSRC_KPROBE)
			pk->link = bpf_program__attach_kprobe(p, false, pk->c->target);
		else
			pk->link = bpf_program__attach(p);
		if (!pk->link) {
			*err = -errno;
			return (long)i;
		}
	}
	return -1;
}

static void unload_probe(struct probe_state *ps)
{
	probe_free_data(ps);
	detach_probe(ps);
	if (ps->skel)
		ps->ops->destroy(ps->skel);
	ps->skel = NULL;
	ps->obj = NULL;
}

/* With IOSTRAT_BPF_DEBUG=1: which program serves each point. */
static void say_picks(const struct probe_state *ps)
{
	const char *d = getenv("IOSTRAT_BPF_DEBUG");

	if (!d || !*d || !strcmp(d, "0"))
		return;
	for (size_t i = 0; i < ps->ops->npoints; i++) {
		const struct probe_cand *c = ps->pick[i].c;

		fprintf(stderr, "iostrat: %s %s: %s\n", ps->ops->name,
			ps->ops->points[i].name, c ? c->prog : ps->pick[i].why);
	}
}

/* Load and attach one probe, as much of it as the kernel takes.  0 when at
 * least one point is attached. */
static int load_probe(const struct tracer *t, struct probe_state *ps,
		      char *why, size_t len)
{
	int err = -ENOENT;

	/* each round marks at least one candidate bad: it ends */
	for (;;) {
		long bad;

		if (!choose(ps)) {
			snprintf(why, len, "%s probes: the kernel has none of "
				 "their attach points", ps->ops->name);
			return -ENOENT;
		}
		err = open_select(t, ps, -1, &ps->skel, &ps->obj);
		if (!err)
			err = ps->ops->load(ps->skel);
		if (err) {
			if (ps->skel)
				ps->ops->destroy(ps->skel);
			ps->skel = NULL;
			/* no program would do better */
			if (err == -EPERM || !isolate(t, ps))
				break;
			continue;
		}
		bad = attach_probe(ps, &err);
		if (bad < 0) {
			say_picks(ps);
			return 0;
		}
		ps->pick[bad].bad |= 1u << cand_index(&ps->ops->points[bad],
						      ps->pick[bad].c);
		snprintf(ps->pick[bad].why, sizeof(ps->pick[bad].why),
			 "%s: attaching %s %s: %s", ps->ops->points[bad].name,
			 probe_src_name[ps->pick[bad].c->src],
			 ps->pick[bad].c->target, strerror(-err));
		unload_probe(ps);
	}
	{
		char what[64];

		snprintf(what, sizeof(what), "%s probes", ps->ops->name);
		probe_explain(err, what, why, len);
	}
	return err;
}

/* One line per figure that a point it needs, or every point of it, lacks
 * a source: the first such point says why. */
static void note_missing(struct tracer *t, struct probe_state *ps)
{
	const struct probe_ops *ops = ps->ops;

	for (size_t i = 0; i < ops->npoints; i++) {
		const char *fig = ops->points[i].figure;
		long lacking = -1, first_none = -1, why;
		bool seen = false, some = false;
		size_t o = strlen(t->notes);

		for (size_t j = 0; j < ops->npoints; j++) {
			bool has = ps->pick[j].c && ps->pick[j].link;

			if (strcmp(ops->points[j].figure, fig))
				continue;
			seen |= j < i;
			some |= has;
			if (!has && first_none < 0)
				first_none = (long)j;
			if (!has && !ops->points[j].optional && lacking < 0)
				lacking = (long)j;
		}
		why = lacking >= 0 ? lacking : first_none;
		if (seen || (some && lacking < 0) || why < 0)
			continue;
		snprintf(t->notes + o, sizeof(t->notes) - o, "%s: none (%s)\n",
			 fig, ps->pick[why].why);
	}
}

int tracer_load(struct tracer *t, const struct tracer_filter *f, char *why,
		size_t len)
{
	int first = 0, loaded = 0;

	memset(t, 0, sizeof(*t));
	t->filter = *f;
	if (probe_mode_check(why, len))
		return -EINVAL;
	probe_quiet_libbpf();
	for (size_t k = 0; probe_registry[k]; k++) {
		struct probe_state *ps = &t->probes[k];
		char w[256];
		int err;

		ps->ops = probe_registry[k];
		err = load_probe(t, ps, w, sizeof(w));
		if (!err) {
			loaded++;
		} else if (!first) {
			first = err;
			snprintf(why, len, "%s", w);
		}
		note_missing(t, ps);
	}
	if (loaded) {
		tracer_note_fallback(t);
		return 0;
	}
	tracer_unload(t);
	return first ? first : -ENOENT;
}

void tracer_unload(struct tracer *t)
{
	for (size_t k = 0; k < PROBE_MAX; k++)
		if (t->probes[k].ops)
			unload_probe(&t->probes[k]);
}

void tracer_detach(struct tracer *t)
{
	for (size_t k = 0; k < PROBE_MAX; k++)
		detach_probe(&t->probes[k]);
}

int tracer_attach(struct tracer *t)
{
	for (size_t k = 0; k < PROBE_MAX; k++) {
		struct probe_state *ps = &t->probes[k];
		int err = 0;

		if (ps->skel && attach_probe(ps, &err) >= 0) {
			tracer_detach(t);
			return err;
		}
	}
	return 0;
}

int tracer_reset(struct tracer *t)
{
	for (size_t k = 0; k < PROBE_MAX; k++) {
		struct probe_state *ps = &t->probes[k];
		int err;

		if (ps->skel && (err = ps->ops->reset(ps->skel)))
			return err;
	}
	return 0;
}

const char *tracer_source(const struct tracer *t, const char *point)
{
	for (size_t k = 0; k < PROBE_MAX; k++) {
		const struct probe_state *ps = &t->probes[k];

		for (size_t i = 0; ps->ops && i < ps->ops->npoints; i++)
			if (!strcmp(ps->ops->points[i].name, point))
				return ps->pick[i].c ?
					probe_src_name[ps->pick[i].c->src] : "none";
	}
	return "none";
}
#endif

void tracer_print_notes(const struct tracer *t, const char *prefix)
{
	for (const char *l = t->notes, *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		if (!nl)
			break;
		warnf("%s%.*s", prefix, (int)(nl - l), l);
	}
}
