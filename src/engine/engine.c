// SPDX-License-Identifier: MIT
/*
 * The bench engine: configurations x repetitions, interleaved (round r
 * runs repetition r of every configuration that still needs one, in an
 * order shuffled by order_seed and the round, so drift hits all alike and
 * no configuration always follows the same one), adaptive repetitions
 * (stop=rsd, Phoronix Test Suite style: add repetitions while the RSD of
 * the metric is above target_rsd, up to max_reps; stop=ci: race each
 * cell to a decision, cells.c, within time_budget, budget.c), traced
 * repetitions beside the timed ones (role=traced: the probes never ride on a timed repetition), progress, the stop signals
 * and --resume; for a loaded profile (bench_main) or one a command built
 * in memory (engine_run_profile: run, fio, net, sweep).
 */
#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/checksum.h"
#include "results/dataset.h"
#include "harness/env.h"
#include "harness/runner.h"
#include "results/row.h"
#include "results/anytime.h"
#include "results/stats_math.h"
#include "harness/stop.h"
#include "lib/util.h"
#include "budget.h"
#include "bench.h"
#include "cells.h"
#include "hooks.h"
#include "resume_defs.h"


/* A stop signal (SIGINT, SIGTERM, SIGHUP), for every command the engine
 * runs: the repetition's child is killed now (its repetition is no row), a
 * data set being generated is abandoned and removed; fio and net pass the
 * signal on to their own children (sigfwd.h).  A second signal ends the
 * process at once, unless the command says never_hard (run: OUT's
 * temporaries are removed at the cleanup, however many signals come). */
static bool stop_rep(int sig, unsigned count)
{
	pid_t child = runner_child_pid();

	(void)count;
	dataset_stop = sig;
	checksum_stop = sig;
	if (child > 0)
		kill(child, SIGKILL);
	return false;
}

struct bench {
	struct bench_ctx ctx;
	const struct engine_opts *eo;
	struct profile prof;
	struct bench_item *items;
	size_t n;
	struct results_dir res;
	bool tty;
	unsigned done_before, done_now, failed, interrupted;
	unsigned oom; /* configurations the memory limit killed (in any of their
		       * repetitions, traced or timed): results, not failures */
	double t0;       /* when the repetitions began (now_mono) */
	double budget;   /* time_budget: seconds they may take (0: none) */
	bool resumed;    /* --resume: its rows say so */
	const struct engine_hooks *h; /* sched's; NULL for a plain bench */
	size_t pass;
	struct cell *cells;
	size_t ncells;
	uint64_t seed;   /* the order within a round (order_seed) */
	size_t *order;   /* this round's order of items */
};

/* ---- configurations ------------------------------------------------------ */

static int engine_keys(const struct pconf *c, struct bench_item *it)
{
	const struct pkv *kv;
	char opt[512];

	settings_defaults(engine_settings, it);
	for (const struct setting *s = engine_settings; s->name; s++) {
		if (!(kv = pconf_kv(c, s->name)))
			continue;
		snprintf(opt, sizeof(opt), "%s: %s", kv->where, s->name);
		if (setting_store(s, it, opt, kv->value))
			return -EINVAL;
	}
	if (!pconf_kv(c, "max_reps"))
		it->max_reps = it->reps;
	if (it->max_reps < it->reps) {
		errorf("%s: max_reps %u is below reps %u", pconf_kv(c, "max_reps")->where,
		       it->max_reps, it->reps);
		return -EINVAL;
	}
	return 0;
}

/* A skipped configuration: one note per distinct reason. */
static void say_once(const struct pconf *c, const char *why)
{
	static char said[16][1024];
	static size_t n;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(said[i], why))
			return;
	if (n < ARRAY_SIZE(said))
		snprintf(said[n++], sizeof(said[0]), "%s", why);
	fprintf(stderr, "note: %s: [%s]: %s\n", c->where, c->section, why);
}

void bench_item_release(const struct bench_kind *k, struct bench_item *it)
{
	if (it->priv && k->release)
		k->release(it);
	free(it->priv);
	it->priv = NULL;
}

/* Check and plan every configuration; drop skipped ones and duplicates. */
static int plan(struct bench *b)
{
	char why[1024];
	size_t ndup = 0;
	json_t *seen = json_object(); /* config_id -> true: a hashed lookup */
	int ret = 0;

	b->items = calloc(b->prof.n ? b->prof.n : 1, sizeof(*b->items));
	if (!b->items || !seen) {
		json_decref(seen);
		return -ENOMEM;
	}
	for (size_t i = 0; i < b->prof.n; i++) {
		struct pconf *c = &b->prof.confs[i];
		struct bench_item *it = &b->items[b->n];
		bool dup = false;

		why[0] = 0;
		ret = engine_keys(c, it);
		if (!ret)
			ret = c->kind->check(&b->ctx, c, why, sizeof(why));
		if (ret == 1) {
			say_once(c, why);
			ret = 0;
			continue;
		}
		if (ret)
			break;
		it->pc = c;
		ret = c->kind->prepare(&b->ctx, it);
		if (ret)
			break;
		dup = json_object_get(seen, it->id) != NULL;
		if (!dup)
			json_object_set_new(seen, it->id, json_true());
		if (dup) { /* e.g. one fio baseline serves every thread count */
			ndup += !c->companion; /* the shared baselines go unsaid */
			bench_item_release(c->kind, it);
			memset(it, 0, sizeof(*it));
			continue;
		}
		b->n++;
	}
	json_decref(seen);
	if (ret)
		return ret;
	if (ndup)
		fprintf(stderr, "note: %zu configurations of the profile repeat an "
			"earlier one (the same config_id); each runs once\n", ndup);
	if (b->n && cells_plan(b->items, b->n, &b->cells, &b->ncells))
		return -ENOMEM;
	if (b->n && cells_check(b->items, b->n, b->cells))
		return -EINVAL;
	for (size_t i = 0; i < b->n; i++)
		b->budget = MAX(b->budget, b->items[i].time_budget);
	if (!b->n) {
		errorf("%s: empty matrix: every configuration was skipped", b->prof.path);
		return -EINVAL;
	}
	return 0;
}

static void fmt_secs(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
}

/* dataset=DIR of the user's: there, and a directory (a dry run that
 * passes must not fail at the start for want of it). */
static int check_user_data(const struct bench *b)
{
	for (size_t i = 0; i < b->ctx.nds; i++) {
		const struct bench_dataset *ds = b->ctx.ds[i];
		struct stat sb;

		if (!ds->user_dir)
			continue;
		if (stat(ds->dir, &sb) < 0)
			return error_errno(-errno, ds->dir, "data set");
		if (!S_ISDIR(sb.st_mode)) {
			errorf("%s: data set is not a directory", ds->dir);
			return -ENOTDIR;
		}
	}
	return 0;
}

/* A cell of two or more whose rounds stop short of an interval (the
 * race's first needs ANYTIME_MIN_N): its verdict could only say "too
 * few"; said once, for the first such cell. */
static void warn_short_cells(const struct bench *b)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct bench_item *it = &b->items[i];

		if (b->cells[it->cell].members < 2 ||
		    most_reps(it, b->cells) >= ANYTIME_MIN_N)
			continue;
		warnf("%s: [%s]: at most %u rounds: the verdict needs %u for an interval, "
		      "so its cells can only say \"too few\" (set reps=%u or more)",
		      it->pc->where, it->pc->section, most_reps(it, b->cells),
		      ANYTIME_MIN_N, ANYTIME_MIN_N);
		return;
	}
}

static unsigned traces_owed(const struct bench_item *it);

static int dry_run(struct bench *b)
{
	double total = 0;
	unsigned reps = 0, traced = 0;
	char t[32];

	warn_short_cells(b);
	printf("%-4s %-44s %-10s %s\n", "#", RC_CONFIG_ID, "reps", "est/rep");
	for (size_t i = 0; i < b->n; i++) {
		struct bench_item *it = &b->items[i];
		char r[32];

		unsigned least = least_reps(it, b->cells);

		snprintf(r, sizeof(r), most_reps(it, b->cells) > least ? "%u-%u" : "%u",
			 least, most_reps(it, b->cells));
		printf("%-4zu %-44s %-10s %.2fs\n", i + 1, it->id, r, it->est_s);
		total += it->est_s * (least + traces_owed(it));
		reps += least;
		traced += traces_owed(it);
	}
	printf("\ndata sets (in %s):\n", b->ctx.data_root);
	for (size_t i = 0; i < b->ctx.nds; i++) {
		struct bench_dataset *ds = b->ctx.ds[i];

		if (ds->user_dir)
			printf("  %s (given)\n", ds->dir);
		else
			printf("  %s  %.1f MB\n", ds->dir,
			       (double)bench_dataset_bytes(ds->label, ds->scale) / 1e6);
	}
	if (b->prof.nignored)
		printf("\nkeys inherited from [global] or -D and left out "
		       "(iostrat-profile(5)):\n");
	for (size_t i = 0; i < b->prof.nignored; i++)
		printf("  %s\n", b->prof.ignored[i]);
	fmt_secs(total, t, sizeof(t));
	printf("\n%zu configurations, %u repetitions at least", b->n, reps);
	if (traced) /* trace_reps of each: counted in the estimate and the budget */
		printf(" and %u traced", traced);
	printf("; estimate %s (rough: data generation and adaptive repetitions "
	       "not counted)\n", t);
	if (b->budget > 0) {
		fmt_secs(b->budget, t, sizeof(t));
		printf("time_budget %s: the raced cells' rounds stop where it runs out\n", t);
	}
	return 0;
}

/* ---- running ---------------------------------------------------------------- */

static double rsd_of(const struct bench_item *it)
{
	struct summary s;

	summarize(it->samples, it->nsamples, &s);
	return s.rsd_pct;
}

/* Another timed repetition: under least_reps, or under max_reps while its rule
 * says go on (stop=rsd: its RSD above target; stop=ci: its cell open). */
static bool needs_more(const struct bench *b, const struct bench_item *it)
{
	if (it->fails || it->out)
		return false;
	if (it->nsamples < least_reps(it, b->cells))
		return true;
	if (it->nsamples >= it->max_reps)
		return false;
	if (it->stop == STOP_RULE_CI)
		return b->cells[it->cell].open;
	return rsd_of(it) > it->target_rsd;
}

/* Traced repetitions still owed (trace=1 where the kind can trace). */
static unsigned traces_owed(const struct bench_item *it)
{
	const struct bench_kind *k = it->pc->kind;

	if (it->fails || !k->traced || it->ntraced >= it->trace_reps || !k->traced(it))
		return 0;
	return it->trace_reps - it->ntraced;
}

/* Its repetitions left: at least (the ones reps asks for, or under
 * stop=ci the rounds a race's first interval needs, and one more where
 * its rule still says go on; traced ones owed) or at most (up to
 * max_reps, the cap an adaptive profile knows from the start). */
static unsigned owed(const struct bench *b, const struct bench_item *it, bool most)
{
	unsigned n = traces_owed(it), least;

	if (!needs_more(b, it))
		return n;
	least = least_reps(it, b->cells);
	if (most)
		return n + most_reps(it, b->cells) - (unsigned)it->nsamples;
	return n + (it->nsamples < least ? least - (unsigned)it->nsamples : 1);
}

static unsigned remaining(const struct bench *b, bool most)
{
	unsigned n = 0;

	for (size_t i = 0; i < b->n; i++)
		n += owed(b, &b->items[i], most);
	return n;
}

/* Seconds a repetition of it takes: its own so far, else the plan's. */
static double per_rep(const struct bench_item *it)
{
	return it->nsamples ? it->wall_s / (double)it->nsamples : it->est_s;
}

/* Seconds the repetitions left take, each at its own pace (the plan's
 * before it has run), within the time budget left. */
static double remaining_s(const struct bench *b, bool most)
{
	double s = 0;

	for (size_t i = 0; i < b->n; i++)
		s += per_rep(&b->items[i]) * owed(b, &b->items[i], most);
	if (b->budget > 0)
		s = MIN(s, MAX(0, b->budget - (now_mono() - b->t0)));
	return s;
}

/* The seconds this round owes outside the raced cells: repetitions under
 * their least, stop=rsd ones, traced ones. */
static double fixed_round_s(const struct bench *b)
{
	double s = 0;

	for (size_t i = 0; i < b->n; i++) {
		const struct bench_item *it = &b->items[i];
		bool raced = it->stop == STOP_RULE_CI && b->cells[it->cell].members > 1 &&
			     it->nsamples >= least_reps(it, b->cells);

		s += per_rep(it) * (traces_owed(it) + (!raced && needs_more(b, it)));
	}
	return s;
}

/* "N", or "LO-HI" when the two differ. */
static void fmt_range(unsigned lo, unsigned hi, char *buf, size_t len)
{
	snprintf(buf, len, hi > lo ? "%u-%u" : "%u", lo, hi);
}

static void add_sample(struct bench_item *it, double v, unsigned round)
{
	double *s = realloc(it->samples, (it->nsamples + 1) * sizeof(*s));
	unsigned *r;

	if (!s)
		return;
	it->samples = s;
	r = realloc(it->rounds, (it->nsamples + 1) * sizeof(*r));
	if (!r)
		return;
	it->rounds = r;
	s[it->nsamples] = v;
	r[it->nsamples++] = round;
}

/* Rows already in the directory (--resume) count as done. */
static void take_done(struct bench *b)
{
	json_t *row, *index = json_object(), *k; /* config_id -> item */
	size_t i;

	for (i = 0; index && i < b->n; i++)
		json_object_set_new(index, b->items[i].id, json_integer((json_int_t)i));
	json_array_foreach(b->res.rows, i, row) {
		const char *id = json_string_value(json_object_get(row, RC_CONFIG_ID));
		json_t *v = json_object_get(row, results_metric(row));

		struct bench_item *it;

		if (!id || !(k = json_object_get(index, id)))
			continue;
		it = &b->items[json_integer_value(k)];
		if (!row_timed(row)) {
			it->ntraced++;
			b->done_before++;
			continue;
		}
		if (json_is_true(json_object_get(row, "oom_kill"))) {
			it->fails++; /* a result: the limit would kill it again */
			b->oom += !it->oom;
			it->oom = true;
			b->done_before++;
			continue;
		}
		if (!json_is_null(json_object_get(row, "error")) || !json_is_number(v))
			continue;
		add_sample(it, json_number_value(v), row_round(row));
		it->wall_s += json_number_value(v); /* the time of its repetition */
		b->done_before++;
	}
	json_decref(index);
}

/* [3/75-117] LABEL rep 1/3-8  eta 40s-1m02s: the total and the ETA as
 * ranges while adaptive repetitions may still come (max_reps > reps);
 * "traced 1/1" for a traced repetition. */
static void progress(struct bench *b, const struct bench_item *it, unsigned rep,
		     bool traced)
{
	unsigned lo = remaining(b, false), hi = remaining(b, true);
	unsigned idx = b->done_before + b->done_now + 1;
	char eta[72], a[32], z[32], total[32], target[32];

	if (b->eo->quiet)
		return;
	fmt_range(idx - 1 + lo, idx - 1 + hi, total, sizeof(total));
	if (traced)
		snprintf(target, sizeof(target), "%u", it->trace_reps);
	else
		fmt_range(MAX(least_reps(it, b->cells), rep), most_reps(it, b->cells),
			  target, sizeof(target));
	fmt_secs(remaining_s(b, false), a, sizeof(a));
	fmt_secs(remaining_s(b, true), z, sizeof(z));
	snprintf(eta, sizeof(eta), strcmp(a, z) ? "%s-%s" : "%s", a, z);
	fprintf(stderr, "%s[%u/%s] %s %s %u/%s  eta %s%s", b->tty ? "\r\033[K" : "",
		idx, total, it->label, traced ? "traced" : "rep", rep, target, eta,
		b->tty ? "" : "\n");
	fflush(stderr);
}

/* Keep one row: in the results directory (unless the command has none),
 * then to the command's on_row. */
static int keep_row(struct bench *b, json_t *row)
{
	int ret;

	if (b->h && b->h->decorate)
		b->h->decorate(b->h->arg, b->pass, row);
	ret = b->eo->no_results ? 0 : results_append(&b->res, row);

	if (!ret && b->eo->on_row)
		b->eo->on_row(b->eo->arg, row);
	return ret;
}

/* A repetition's rows: one, or an array of them (one per host). */
static int keep_rows(struct bench *b, json_t *rows)
{
	json_t *one;
	size_t i;
	int ret = 0;

	if (!json_is_array(rows))
		return keep_row(b, rows);
	json_array_foreach(rows, i, one)
		if (!ret)
			ret = keep_row(b, one);
	return ret;
}

/* The row a repetition's metric is read from: its first. */
static json_t *first_row(json_t *rows)
{
	return json_is_array(rows) ? json_array_get(rows, 0) : rows;
}

/* The engine's columns of a repetition's rows: the round it ran in, its
 * role, the order's seed; on a timed one from round 3 on, whether the
 * first repetition looks like a warm-up outlier (so far). */
static void mark_rows(const struct bench *b, const struct bench_item *it,
		      json_t *rows, unsigned round, bool traced)
{
	json_t *one = rows;
	size_t i = 0;
	int w = traced ? -1 : warmup_outlier(it);

	do {
		if (json_is_array(rows))
			one = json_array_get(rows, i);
		json_object_set_new(one, "round", json_integer(round));
		json_object_set_new(one, "role", json_text(traced ? "traced" : "timed"));
		json_object_set_new(one, "order_seed", json_integer((json_int_t)b->seed));
		if (w >= 0)
			json_object_set_new(one, "warmup_outlier", json_boolean(w));
		if (b->resumed)
			json_object_set_new(one, "resumed", json_true());
	} while (json_is_array(rows) && ++i < json_array_size(rows));
}

/* One repetition of it in round, timed or traced.  0, 1 to stop (a stop
 * signal), negative on a results write error or a repetition that left
 * no row. */
static int one_rep(struct bench *b, struct bench_item *it, unsigned round,
		   bool traced)
{
	unsigned rep = traced ? it->ntraced + 1 :
		       (unsigned)it->nsamples + it->fails + 1;
	double t0 = now_mono();
	json_t *row = NULL, *first;
	int ret, failed;

	progress(b, it, rep, traced);
	it->tracing = traced;
	ret = failed = it->pc->kind->rep(&b->ctx, it, rep, &row);
	it->tracing = false;
	if (stop_caught() && (ret || !row)) {
		json_decref(row); /* its child was killed: interrupted, no row */
		b->interrupted++;
		return 1;
	}
	if (!(first = first_row(row))) {
		json_decref(row);
		return ret ? ret : -EIO;
	}
	b->done_now++;
	if (traced)
		it->ntraced++;
	if (ret && json_is_true(json_object_get(first, "oom_kill"))) {
		it->fails += !traced; /* it would be killed again: no more of it */
		b->oom += !it->oom; /* a killed traced rep goes on to a timed one */
		it->oom = true;
		ret = failed = 0;
	} else if (ret) {
		it->fails += !traced;
		b->failed++;
	} else if (!traced) {
		it->wall_s += now_mono() - t0;
		add_sample(it, json_number_value(json_object_get(first,
						 results_metric(first))), round);
	}
	mark_rows(b, it, row, round, traced);
	ret = keep_rows(b, row);
	json_decref(row);
	if (ret)
		return ret;
	if (failed && b->eo->stop_on_fail) /* kept, and the run ends */
		return failed < 0 ? failed : -ECANCELED;
	return stop_caught() ? 1 : 0;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Round's order of the items: a shuffle (Fisher-Yates) drawn from the
 * order's seed and the round alone, so a rerun or a resume with the
 * same seed runs every round in the same order. */
static void shuffle(struct bench *b, unsigned round)
{
	uint64_t x = b->seed ^ ((uint64_t)round * 0xd1342543de82ef95ULL);

	for (size_t i = 0; i < b->n; i++)
		b->order[i] = i;
	for (size_t i = b->n; i > 1; i--) {
		size_t j = (size_t)(splitmix64(&x) % i), t = b->order[i - 1];

		b->order[i - 1] = b->order[j];
		b->order[j] = t;
	}
}

/* Round's repetitions of it: the timed one it owes, then (while owed,
 * one a round) a traced one.  Whether anything of it is left at all. */
static bool round_of(struct bench *b, struct bench_item *it, unsigned round,
		     int *ret)
{
	bool timed = needs_more(b, it), traced = traces_owed(it) > 0;

	if (timed && it->nsamples + it->fails < round)
		*ret = one_rep(b, it, round, false);
	if (!*ret && traced && it->ntraced < round && traces_owed(it))
		*ret = one_rep(b, it, round, true);
	return timed || traced;
}

static int run_all(struct bench *b)
{
	int ret = 0;

	b->order = calloc(b->n, sizeof(*b->order));
	if (!b->order)
		return -ENOMEM;
	cells_update(b->cells, b->ncells, b->items, b->n);
	b->t0 = now_mono();
	for (unsigned round = 1; !ret; round++) {
		bool more = false;

		if (b->budget > 0)
			budget_round(b->cells, b->ncells, b->items, b->n,
				     b->budget - (now_mono() - b->t0) - fixed_round_s(b));
		shuffle(b, round);
		for (size_t k = 0; k < b->n && !ret; k++)
			more |= round_of(b, &b->items[b->order[k]], round, &ret);
		cells_update(b->cells, b->ncells, b->items, b->n);
		if (!more)
			break;
	}
	if (b->tty)
		fputs("\r\033[K", stderr);
	return ret;
}

static int write_profile(struct bench *b)
{
	char path[4200], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct profile run = b->prof;
	struct pconf *kept;
	int ret;

	if (!f)
		return -ENOMEM;
	/* only what runs: the checked, non-duplicate configurations */
	kept = calloc(b->n, sizeof(*kept));
	if (!kept) {
		fclose(f);
		free(buf);
		return -ENOMEM;
	}
	for (size_t i = 0; i < b->n; i++)
		kept[i] = *b->items[i].pc;
	run.confs = kept;
	run.n = b->n;
	ret = profile_write(&run, f);
	free(kept);
	if (fclose(f) || ret) {
		free(buf);
		return -EIO;
	}
	snprintf(path, sizeof(path), "%s/profile.ini", b->res.path);
	ret = write_file_atomic(path, buf, len);
	free(buf);
	return ret ? error_errno(ret, path, "writing") : 0;
}

/* DIR/profile.given.ini: the profile as its author wrote it (its top
 * file; includes stay names), after a comment line with the command's
 * -D overrides; the report shows it, profile.ini is what ran. */
static int write_given(struct bench *b, const struct bench_opts *o)
{
	char path[4200], *text = NULL, *all = NULL;
	size_t len = 0, o_len = 0;
	FILE *f = open_memstream(&all, &o_len);
	int ret = read_file_small(b->prof.path, &text, &len);

	if (!f || ret) {
		if (f)
			fclose(f);
		free(all);
		free(text);
		return ret ? error_errno(ret, b->prof.path, "reading") : -ENOMEM;
	}
	fprintf(f, "; iostrat bench %s", b->prof.path);
	for (size_t i = 0; i < o->defs.n; i++)
		fprintf(f, " -D %s", o->defs.v[i]);
	fprintf(f, "\n%s", text);
	ret = fclose(f) ? -EIO : 0;
	snprintf(path, sizeof(path), "%s/profile.given.ini", b->res.path);
	ret = ret ? ret : write_file_atomic(path, all, o_len);
	free(all);
	free(text);
	return ret ? error_errno(ret, path, "writing") : 0;
}

/* The order's seed: the one a resumed directory recorded, else the
 * profile's order_seed, else one derived now; recorded in env.json. */
static void pick_seed(struct bench *b, const char *resume)
{
	char p[4200];
	json_t *env = NULL, *v;

	if (resume) {
		snprintf(p, sizeof(p), "%s/env.json", resume);
		env = json_load_file(p, 0, NULL);
	}
	if (json_is_integer(v = json_object_get(env, "order_seed")))
		b->seed = (uint64_t)json_integer_value(v);
	else if (b->n && b->items[0].order_seed)
		b->seed = b->items[0].order_seed;
	else /* below 2^53: exact in any JSON reader */
		b->seed = ((uint64_t)(now_mono() * 1e9) ^ ((uint64_t)getpid() << 20)) &
			  ((1ULL << 53) - 1);
	json_decref(env);
	json_object_set_new(b->ctx.env, "order_seed", json_integer((json_int_t)b->seed));
}

static int open_results(struct bench *b, const struct bench_opts *o)
{
	const char *labels[] = { "in", "out", NULL };
	const char *paths[] = { b->ctx.data_root, b->ctx.scratch, NULL };
	int ret;

	b->ctx.res = &b->res;
	if (b->eo->env) {
		b->ctx.env = json_incref(b->eo->env);
	} else {
		b->ctx.env = env_capture(labels, paths);
		json_object_set_new(b->ctx.env, "profile", json_text(b->prof.name));
	}
	pick_seed(b, o->resume);
	if (b->eo->no_results)
		return 0;
	if (o->resume) {
		ret = results_resume(&b->res, o->resume);
		if (!ret)
			take_done(b);
		return ret;
	}
	ret = results_open(&b->res, o->out, b->prof.name, b->ctx.env,
			   b->eo->resumable);
	if (!ret && b->eo->dir)
		snprintf(b->eo->dir, b->eo->dir_len, "%s", b->res.path);
	/* a command's profile is its options: nothing to resume from */
	if (ret || b->ctx.cmd)
		return ret;
	ret = write_profile(b);
	return ret ? ret : write_given(b, o);
}

static void cleanup(struct bench *b)
{
	for (size_t i = 0; i < b->n; i++) {
		if (b->items[i].pc) /* set for every counted item; the analyzer cannot tell */
			bench_item_release(b->items[i].pc->kind, &b->items[i]);
		free(b->items[i].samples);
		free(b->items[i].rounds);
	}
	free(b->items);
	free(b->cells);
	free(b->order);
	if (b->ctx.scratch[0] && !b->ctx.dry_run)
		rm_rf(b->ctx.scratch);
	/* the user's output directory: only a stopped repetition's temporaries */
	for (size_t i = 0; b->ctx.out_dir && i < b->ctx.nds; i++)
		runner_clean_temporaries(b->ctx.ds[i]->out, &b->ctx.ds[i]->fl);
	bench_datasets_free(&b->ctx);
	json_decref(b->ctx.env);
	results_close(&b->res);
	profile_free(&b->prof);
}

/* A stop: one line for every command, with bench's way back in. */
static int stopped(const struct bench *b)
{
	const char *dir = b->res.path;
	unsigned kept = b->done_before + b->done_now;

	bool resume = b->eo->resumable && *dir;

	errorf("%s: interrupted by signal %d; %s; %u repetitions kept%s%s%s%s",
	       b->prof.name, stop_caught(), b->interrupted ?
	       "the repetition in progress was stopped (no row)" :
	       "between repetitions", kept, *dir ? " in " : "", dir,
	       resume ? "; resume with: iostrat bench --resume " : "", resume ? dir : "");
	return 128 + stop_caught();
}

static bool any_ci(const struct bench *b)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->items[i].stop == STOP_RULE_CI)
			return true;
	return false;
}

/* stop.json (stop=ci: why each cell stopped) after a run that ended by
 * itself, then the directory's closing files and the last line. */
static int finish(struct bench *b, int ret)
{
	const char *dir = b->res.path;

	if (!b->eo->no_results && *dir && !stop_caught() && any_ci(b) &&
	    cells_write(dir, b->cells, b->ncells, b->items, b->n))
		ret = ret ? ret : -EIO;
	if (!b->eo->no_results && results_finish(&b->res))
		ret = ret ? ret : -EIO;
	if (stop_caught())
		return stopped(b);
	if (ret < 0)
		return 1;
	if (b->eo->quiet)
		return b->failed || b->oom ? 1 : 0; /* the command says it its way */
	fprintf(stderr, "results: %s (%u repetitions%s); iostrat report %s\n", dir,
		b->done_before + b->done_now, b->done_before ? ", some resumed" : "",
		dir);
	if (b->oom)
		fprintf(stderr, "note: %u configurations ran out of memory under "
			"memory_max (rows with oom_kill: a result, not a failure; the "
			"report's memory verdict says which)\n", b->oom);
	if (b->failed) {
		errorf("%u repetitions failed (their rows have an error column)",
		       b->failed);
		return 1;
	}
	return 0;
}

/* A new bench: its data sets first (a failing gen leaves no results
 * directory behind), then the directory, with where the data was. */
static int new_data(struct bench *b, const struct bench_opts *o)
{
	/* a directory with results is refused before minutes of gen */
	int ret = o->out && !b->eo->no_results ?
		results_check_fresh(o->out, b->eo->resumable) : 0;

	if (!ret)
		ret = bench_datasets_materialize(&b->ctx);

	for (size_t i = 0; !ret && o->out && i < b->ctx.nds; i++)
		if (path_inside_dir(o->out, b->ctx.ds[i]->dir)) {
			errorf("%s: --out inside the data set %s; refusing: its files "
			       "would be taken for data", o->out, b->ctx.ds[i]->dir);
			ret = -EINVAL;
		}
	if (!ret && !stop_caught())
		ret = open_results(b, o);
	if (!ret && !stop_caught() && !b->ctx.cmd)
		ret = bench_data_record(&b->ctx, b->res.path);
	return ret;
}

/* A resume: the rows first (nothing left to run: no data needed), then
 * the data sets, which must still hold what the first rows measured. */
static int resume_data(struct bench *b, const struct bench_opts *o)
{
	json_t *rec = bench_data_load(o->resume);
	int ret = open_results(b, o);

	if (!ret)
		cells_update(b->cells, b->ncells, b->items, b->n);
	for (size_t k = 0; !ret && k < b->ncells; k++)
		b->cells[k].resumed_from = b->cells[k].rounds;
	b->resumed = true;
	if (!ret && !stop_caught() && remaining(b, false)) {
		ret = bench_datasets_materialize(&b->ctx);
		if (!ret && rec)
			ret = bench_data_check(&b->ctx, rec, o->resume);
	}
	json_decref(rec);
	return ret;
}

/* --resume without --data: the data root the bench used; with another
 * --data, the same filesystem unless --data-anywhere. */
static int resume_root(struct bench *b, const struct bench_opts *o)
{
	static char root[4096];
	json_t *rec = bench_data_load(o->resume);
	const char *was = json_string_value(json_object_get(rec, "data_root"));
	struct stat sb;
	int ret = 0;

	if (!o->data && was && !stat(was, &sb) && S_ISDIR(sb.st_mode)) {
		snprintf(root, sizeof(root), "%s", was);
		b->ctx.data_root = root;
	} else if (!o->data_anywhere) {
		ret = bench_data_same_fs(rec, b->ctx.data_root, o->resume);
	}
	json_decref(rec);
	return ret;
}

/* Plan the profile in b, then run it: the data, the results directory,
 * the repetitions (bench and every command's in-memory profile alike). */
static int go(struct bench *b, const struct bench_opts *o)
{
	int ret, status;

	ret = plan(b);
	if (ret) {
		cleanup(b);
		return 2;
	}
	if (o->dry_run) {
		ret = check_user_data(b);
		if (!ret && !o->quiet)
			dry_run(b);
		cleanup(b);
		return ret ? 2 : 0;
	}
	checksum_stop = 0;
	stop_catch(b->eo->never_hard ? STOP_NEVER_HARD : STOP_SECOND_ENDS, stop_rep,
		   false);
	ret = o->resume ? resume_data(b, o) : new_data(b, o);
	if (ret || stop_caught()) {
		status = stop_caught() ? stopped(b) : 1; /* a stop says so, here too */
		stop_release();
		cleanup(b);
		return status;
	}
	ret = run_all(b);
	status = finish(b, ret);
	stop_release();
	cleanup(b);
	return status;
}

/* A resumed bench keeps its first name (env.json). */
static void resumed_name(struct bench *b, const char *resdir)
{
	char envp[4200];
	json_t *env;

	snprintf(envp, sizeof(envp), "%s/env.json", resdir);
	env = json_load_file(envp, 0, NULL);
	if (json_is_string(json_object_get(env, "profile"))) {
		free(b->prof.name);
		b->prof.name = strdup(json_string_value(json_object_get(env, "profile")));
	}
	json_decref(env);
}

int bench_main(const struct bench_opts *o)
{
	return bench_run_pass(o, NULL, 0);
}

int bench_run_pass(const struct bench_opts *o, const struct engine_hooks *h,
		   size_t pass)
{
	static const struct engine_opts bench_eo = { .resumable = true };
	struct bench b = { .eo = &bench_eo, .h = h, .pass = pass };
	char profile_path[4200];
	const char *path = o->profile;

	if (o->resume) {
		snprintf(profile_path, sizeof(profile_path), "%s/profile.ini", o->resume);
		path = profile_path;
	}
	b.ctx.data_root = bench_data_root(o->data);
	if (o->resume && resume_root(&b, o))
		return 2;
	snprintf(b.ctx.scratch, sizeof(b.ctx.scratch), "%s/.scratch-%d",
		 b.ctx.data_root, (int)getpid());
	b.ctx.dry_run = o->dry_run;
	b.tty = isatty(STDERR_FILENO);
	if (profile_load(path, o->defs.v, o->defs.n, &b.prof))
		return 2;
	if (o->resume && o->defs.n && resume_defs_check(o->resume, path, &b.prof,
							      o->defs.v, o->defs.n)) {
		profile_free(&b.prof);
		return 2;
	}
	if (o->resume)
		resumed_name(&b, o->resume);
	b.ctx.name = b.prof.name;
	return go(&b, o);
}

int engine_run_profile(struct profile *prof, const struct engine_opts *eo)
{
	struct bench b = { .eo = eo, .prof = *prof };
	const struct bench_opts o = { .out = eo->out, .data = eo->data };

	memset(prof, 0, sizeof(*prof)); /* b owns it now */
	b.ctx.data_root = bench_data_root(eo->data);
	snprintf(b.ctx.scratch, sizeof(b.ctx.scratch), "%s/.scratch-%d",
		 b.ctx.data_root, (int)getpid());
	b.ctx.name = b.prof.name;
	b.ctx.quiet = eo->quiet;
	b.ctx.cmd = eo->cmd;
	b.ctx.out_dir = eo->out_dir;
	b.ctx.data_label = eo->data_label;
	b.tty = isatty(STDERR_FILENO);
	return go(&b, &o);
}
