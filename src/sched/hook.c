// SPDX-License-Identifier: MIT
/* sched's engine hook (hook.h): before a pass its setting is applied and
 * verified, every row of the pass gets the setting's columns as it is
 * written, and a failed or stopped pass ends them all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bench.h"
#include "harness/stop.h"
#include "lib/util.h"
#include "hook.h"
#include "sysq.h"

/* The columns a sched pass adds to each row (its scheduler and device are
 * the core columns); a queue attribute is a number, or sysfs's text. */
const struct column sched_columns[] = {
	{ "sched_setting", COL_TEXT, 0, 0, "sched", "the setting of the pass (its label)", 0 },
	{ "iosched_tunables", COL_TEXT, 0, 0, "sched", "the scheduler's tunables, name=value", 0 },
	{ "read_ahead_kb", COL_SIGNED, 0, "KiB", "sched", "the queue's read_ahead_kb", 0 },
	{ "nr_requests", COL_SIGNED, 0, 0, "sched", "the queue's nr_requests", 0 },
	{ "wbt_lat_usec", COL_SIGNED, 0, "us", "sched", "the queue's wbt_lat_usec (-1: off)", 0 },
	{ 0 },
};

/* The queue attributes every row carries, numbers as numbers. */
static void queue_numbers(const char *disk, json_t *cols)
{
	static const char *const num[] = { "read_ahead_kb", "nr_requests", "wbt_lat_usec" };

	for (size_t i = 0; i < ARRAY_SIZE(num); i++) {
		char p[PATH_MAX], v[128];
		long long n;
		char *end;

		snprintf(p, sizeof(p), "/sys/block/%s/queue/%s", disk, num[i]);
		if (read_sysfs(p, v, sizeof(v))) {
			json_object_set_new(cols, num[i], json_null());
			continue;
		}
		n = strtoll(v, &end, 10);
		json_object_set_new(cols, num[i], *end ? json_text(v) : json_integer(n));
	}
}

/* Apply one setting, verified, its scheduler under the tunables of its
 * first switch (rounds.h); the columns every row of it gets. */
static int apply(struct sched_rounds *rs, const char *disk,
		 const struct sched_setting *s, json_t **cols)
{
	char v[128], tun[2048];
	int ret = rounds_switch(rs, disk, s->scheduler);

	for (size_t i = 0; !ret && i < s->nattr; i++)
		ret = sysq_set(disk, s->attr[i], s->value[i]);
	if (ret)
		return ret;
	*cols = json_object();
	sysq_active(disk, v, sizeof(v));
	json_object_set_new(*cols, "scheduler", json_text(v));
	json_object_set_new(*cols, "device", json_text(disk));
	sysq_tunables(disk, tun, sizeof(tun));
	json_object_set_new(*cols, "iosched_tunables", json_text(tun));
	queue_numbers(disk, *cols);
	fprintf(stderr, "iostrat sched: %s: %s (verified; %s)\n", disk, s->label,
		tun[0] ? tun : "no tunables");
	return 0;
}

/* Round r of a setting must run under the settings of its round 1: the
 * columns of both compared, the first that differs named. */
static int same_as_round1(const char *label, unsigned r, json_t *first,
			  json_t *cols)
{
	const char *k;
	json_t *v;

	json_object_foreach(cols, k, v) {
		json_t *was = json_object_get(first, k);
		char *a, *b;

		if (was && json_equal(was, v))
			continue;
		a = json_dumps(v, JSON_ENCODE_ANY);
		b = was ? json_dumps(was, JSON_ENCODE_ANY) : NULL;
		errorf("%s: round %u would run with %s=%s, round 1 ran with %s: stopping",
		       label, r, k, a ? a : "?", b ? b : "nothing");
		free(a);
		free(b);
		return -EIO;
	}
	return 0;
}

/* The bench's options of a round (round 0: the dry-run check): round 1
 * makes the setting's directory, a later one resumes it for one more
 * repetition; with --interleave or --reps the repetitions are pinned
 * (reps = max_reps, stop=rsd: no adaptive repetitions, and no stop=ci
 * refusing a max_reps below the rounds an interval needs). */
static void bench_opts_of(struct sched_hook *s, unsigned round,
			  struct bench_opts *o)
{
	const struct sched_bench *b = s->bench;

	if (round > 1) {
		o->resume = s->dir;
	} else {
		o->profile = b->profile;
		o->out = round ? s->dir : NULL;
		o->dry_run = o->quiet = !round;
	}
	o->data = b->data;
	o->defs.v = s->defs;
	o->defs.n = b->defs.n;
	if (b->interleave || b->reps) {
		unsigned r = b->interleave ? MAX(round, 1u) : b->reps;

		snprintf(s->reps, sizeof(s->reps), "reps=%u", r);
		snprintf(s->maxr, sizeof(s->maxr), "max_reps=%u", r);
		s->defs[o->defs.n++] = s->reps;
		s->defs[o->defs.n++] = s->maxr;
		snprintf(s->stop, sizeof(s->stop), "stop=rsd");
		s->defs[o->defs.n++] = s->stop;
	}
}

/* --interleave: --reps rounds (default 3); else one. */
static unsigned rounds_of(const struct sched_bench *b)
{
	return b->interleave ? (b->reps ? b->reps : 3) : 1;
}

static int before(void *arg, size_t pass, unsigned round, struct bench_opts *o)
{
	struct sched_hook *s = arg;
	const struct sched_setting *set = &s->plan->set[pass];
	json_t *cols = NULL;

	if (apply(s->rounds, s->disk, set, &cols) ||
	    (s->first[pass] && same_as_round1(set->label, round, s->first[pass], cols))) {
		json_decref(cols);
		return 1;
	}
	if (!s->first[pass])
		s->first[pass] = json_incref(cols);
	json_decref(s->cols[pass]);
	s->cols[pass] = cols;
	if (stop_caught())
		return 128 + stop_caught();
	snprintf(s->dir, sizeof(s->dir), "%s/%s", s->out, set->label);
	if (s->bench->interleave)
		fprintf(stderr, "iostrat sched: round %u/%u: %s\n", round,
			rounds_of(s->bench), set->label);
	bench_opts_of(s, round, o);
	return 0;
}

static int after(void *arg, size_t pass, unsigned round, int st)
{
	struct sched_hook *s = arg;

	(void)round;
	if (stop_caught())
		return 128 + stop_caught();
	if (st && st < 128)
		errorf("%s: the bench failed (exit %d): stopping",
		       s->plan->set[pass].label, st);
	return st;
}

static void decorate(void *arg, size_t pass, json_t *row)
{
	struct sched_hook *s = arg;

	json_object_set_new(row, "sched_setting", json_text(s->plan->set[pass].label));
	json_object_update(row, s->cols[pass]);
}

int sched_hook_init(struct sched_hook *s, const struct sched_bench *b,
		    const struct sched_plan *p, const char *disk, const char *out)
{
	memset(s, 0, sizeof(*s));
	s->bench = b;
	s->plan = p;
	s->disk = disk;
	s->out = out;
	s->first = calloc(p->nset ? p->nset : 1, sizeof(*s->first));
	s->cols = calloc(p->nset ? p->nset : 1, sizeof(*s->cols));
	s->defs = calloc(b->defs.n + 4, sizeof(*s->defs));
	s->rounds = calloc(1, sizeof(*s->rounds));
	if (!s->first || !s->cols || !s->defs || !s->rounds) {
		sched_hook_free(s);
		return -ENOMEM;
	}
	if (b->defs.n)
		memcpy(s->defs, b->defs.v, b->defs.n * sizeof(*s->defs));
	return 0;
}

struct engine_hooks sched_hook_engine(struct sched_hook *s)
{
	const struct sched_bench *b = s->bench;

	return (struct engine_hooks){
		.arg = s, .passes = s->plan->nset,
		.rounds = rounds_of(b),
		.before = before, .after = after, .decorate = decorate,
	};
}

void sched_hook_free(struct sched_hook *s)
{
	for (size_t i = 0; s->first && i < s->plan->nset; i++)
		json_decref(s->first[i]);
	for (size_t i = 0; s->cols && i < s->plan->nset; i++)
		json_decref(s->cols[i]);
	free(s->first);
	free(s->cols);
	free(s->defs);
	free(s->rounds);
	s->first = s->cols = NULL;
	s->defs = NULL;
	s->rounds = NULL;
}

int sched_check_profile(struct sched_hook *s)
{
	struct bench_opts o = { 0 };

	bench_opts_of(s, 0, &o);
	return bench_run_pass(&o, NULL, 0);
}
