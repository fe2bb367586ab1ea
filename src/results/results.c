// SPDX-License-Identifier: MIT
/* The results directory: its lock, rows appended and fsync'd one by one, the CSVs, the loader. */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "results.h"
#include "row.h"
#include "stats_math.h"
#include "config/jobopts.h"
#include "lib/util.h"

static int join(char *out, const char *dir, const char *name)
{
	if ((size_t)snprintf(out, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

static int write_json_file(const char *path, json_t *o)
{
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	int ret;

	if (!s)
		return -ENOMEM;
	ret = write_file_atomic(path, s, strlen(s));
	free(s);
	return ret;
}

static int open_jsonl(struct results_dir *r)
{
	char p[PATH_MAX];
	int fd;

	join(p, r->path, "results.jsonl");
	fd = open(p, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return error_errno(-errno, p, "opening");
	r->jsonl = fdopen(fd, "a");
	if (!r->jsonl) {
		close(fd);
		return error_errno(-ENOMEM, p, "opening");
	}
	return 0;
}

/* The pid holding an flock on fd's file, from /proc/locks; 0 if unknown. */
static long lock_holder(int fd)
{
	unsigned maj, min;
	unsigned long long ino;
	struct stat sb;
	char line[256];
	long pid = 0, p;
	FILE *f;

	if (fstat(fd, &sb) < 0)
		return 0;
	f = fopen("/proc/locks", "re");
	while (f && !pid && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s FLOCK %*s %*s %ld %x:%x:%llu", &p, &maj, &min,
			   &ino) == 4 && ino == sb.st_ino &&
		    maj == major(sb.st_dev) && min == minor(sb.st_dev))
			pid = p;
	if (f)
		fclose(f);
	return pid;
}

/*
 * One writer per results directory: two benches on one --out would each
 * disturb the other's timings and interleave their rows.  flock() on the
 * directory itself: released by the kernel when the process dies, so a
 * crash never leaves a stale lock behind.
 */
static int lock_dir(struct results_dir *r)
{
	r->lock_fd = open(r->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->lock_fd < 0)
		return error_errno(-errno, r->path, "opening results directory");
	if (flock(r->lock_fd, LOCK_EX | LOCK_NB) == 0) {
		r->locked = true;
		return 0;
	}
	if (errno == EWOULDBLOCK) {
		long pid = lock_holder(r->lock_fd);
		char who[32] = "";

		if (pid > 0)
			snprintf(who, sizeof(who), " (pid %ld)", pid);
		errorf("%s: in use by another iostrat%s writing results there; "
		       "wait for it or use another --out", r->path, who);
	} else
		error_errno(-errno, r->path, "locking results directory");
	close(r->lock_fd);
	return -EBUSY;
}

static void unlock_dir(struct results_dir *r)
{
	if (r->locked)
		close(r->lock_fd);
	r->locked = false;
}

/* The files a results directory is made of: if any is there already, the
 * directory holds results (ours or the user's own), never overwritten. */
static int check_no_results(const struct results_dir *r, bool resumable)
{
	static const char *const names[] = {
		"results.jsonl", "results.csv", "summary.csv", "env.json",
		"profile.ini", NULL,
	};
	char p[PATH_MAX];

	for (size_t i = 0; names[i]; i++) {
		join(p, r->path, names[i]);
		if (access(p, F_OK))
			continue;
		if (!strcmp(names[i], "results.jsonl"))
			errorf("%s: has results already (%s)", r->path,
			       resumable ? "use --resume, or another --out" :
			       "give another --out");
		else
			errorf("%s: holds %s already; refusing to overwrite it (use "
			       "another --out)", r->path, names[i]);
		return -EEXIST;
	}
	return 0;
}

int results_check_fresh(const char *dir, bool resumable)
{
	struct results_dir r = { 0 };
	struct stat sb;
	int ret;

	snprintf(r.path, sizeof(r.path), "%s", dir);
	if (stat(dir, &sb) && errno == ENOENT)
		return 0; /* results_open makes it */
	/* in the order results_open says them: another writer first */
	ret = lock_dir(&r);
	if (!ret)
		ret = check_no_results(&r, resumable);
	unlock_dir(&r);
	return ret;
}

int results_make_default_dir(char *path, size_t len, const char *name)
{
	time_t now = time(NULL);
	struct tm tm;
	char ts[32];
	int ret = mkdir_p("results", 0755);

	gmtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y%m%d-%H%M%S", &tm);
	for (int i = 1; !ret && i <= 100; i++) {
		if (i == 1)
			snprintf(path, len, "results/%s-%s", ts, name);
		else
			snprintf(path, len, "results/%s-%s-%d", ts, name, i);
		if (mkdir(path, 0755) == 0)
			return 0;
		if (errno != EEXIST)
			ret = -errno;
	}
	return ret ? ret : -EEXIST;
}

int results_open(struct results_dir *r, const char *dir, const char *name,
		 json_t *env, bool resumable)
{
	char p[PATH_MAX];
	int ret;

	memset(r, 0, sizeof(*r));
	if (dir) {
		snprintf(r->path, sizeof(r->path), "%s", dir);
		ret = mkdir_p(r->path, 0755);
	} else {
		ret = results_make_default_dir(r->path, sizeof(r->path), name);
	}
	if (ret)
		return error_errno(ret, r->path, "creating results directory");
	ret = lock_dir(r);
	if (!ret)
		ret = check_no_results(r, resumable);
	if (ret) {
		unlock_dir(r);
		return ret;
	}
	if (env) {
		join(p, r->path, "env.json");
		ret = write_json_file(p, env);
		if (ret)
			return error_errno(ret, p, "writing");
	}
	r->rows = json_array();
	return open_jsonl(r);
}

int results_append(struct results_dir *r, json_t *row)
{
	char p[PATH_MAX];

	join(p, r->path, "results.jsonl");
	/* summaries, report and compare group by it: a row without one would
	 * merge with every other such row */
	if (!json_is_string(json_object_get(row, RC_CONFIG_ID))) {
		errorf("%s: refusing to append a row without a config_id", p);
		return -EINVAL;
	}
	if (row_write_jsonl(r->jsonl, row) || fflush(r->jsonl) ||
	    fsync(fileno(r->jsonl)) < 0)
		return error_errno(errno ? -errno : -EIO, p, "appending a row");
	json_array_append(r->rows, row);
	return 0;
}

int results_write_csv(const char *path, json_t *rows)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return -ENOMEM;
	ret = row_write_csv(f, rows);
	if (fclose(f) || ret) {
		free(buf);
		return -EIO;
	}
	ret = write_file_atomic(path, buf, len);
	free(buf);
	return ret;
}

int results_finish(struct results_dir *r)
{
	char p[PATH_MAX];
	json_t *sum;
	int ret;

	join(p, r->path, "results.csv");
	ret = results_write_csv(p, r->rows);
	if (ret)
		return error_errno(ret, p, "writing");
	sum = results_summarize(r->rows);
	join(p, r->path, "summary.csv");
	ret = results_write_csv(p, sum);
	json_decref(sum);
	if (ret)
		return error_errno(ret, p, "writing");
	return 0;
}

void results_close(struct results_dir *r)
{
	if (r->jsonl)
		fclose(r->jsonl);
	r->jsonl = NULL;
	unlock_dir(r);
	json_decref(r->rows);
	r->rows = NULL;
}

/* Open results.jsonl for reading, refusing what is not a regular file:
 * a FIFO would block forever, a directory reads as empty. */
static FILE *open_rows(const char *p)
{
	int fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat sb;
	FILE *f;

	if (fd < 0) {
		error_errno(-errno, p, "opening");
		return NULL;
	}
	if (fstat(fd, &sb) < 0) {
		error_errno(-errno, p, "opening");
		close(fd);
		return NULL;
	}
	if (!S_ISREG(sb.st_mode)) {
		errorf("%s: not a regular file", p);
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		error_errno(-ENOMEM, p, "opening");
	}
	return f;
}

/* A directory without results.jsonl: not one iostrat wrote (or none). */
static int not_results(const char *dir)
{
	struct stat sb;

	if (stat(dir, &sb) < 0)
		return error_errno(-errno, dir, "results directory");
	if (!S_ISDIR(sb.st_mode))
		errorf("%s: not a directory (give a results directory)", dir);
	else
		errorf("%s: not a results directory (no results.jsonl; bench, run "
		       "--results, fio, net and sweep make them)", dir);
	return -ENOENT;
}

/* Where the complete rows end: the tail after them is a row cut short by
 * a crash (no newline), which a resume cuts off before appending. */
struct rows_end {
	off_t good;    /* bytes up to and including the last complete row */
	bool nl;       /* that row ends in a newline (else one is owed) */
};

/* Rows that are not measurements (row_check), met while loading. */
struct left_out {
	unsigned n;          /* how many */
	unsigned named;      /* how many named a line each */
	unsigned first;      /* the line of the first */
	bool refuse_empty;   /* nothing else in the file: an error */
	char seen[8][16];    /* the reasons named, by their first word */
	char bench[64];      /* the directory's bench: env.json's profile,
			      * else the first kept row's; "" until known */
	char unknown[8][48]; /* the columns of no table warned of */
};

/* The first few are named a line each; the rest in one line at the end. */
#define LEFT_OUT_NAMED 3

/* Is the reason's first word (schema, kind, elapsed_s...) new?  It is
 * remembered (8 kinds). */
static bool new_reason(const char *why, struct left_out *lo)
{
	char word[16];
	size_t i;

	snprintf(word, sizeof(word), "%.*s", (int)strcspn(why, " "), why);
	for (i = 0; i < 8 && lo->seen[i][0]; i++)
		if (!strcmp(lo->seen[i], word))
			return false;
	if (i < 8)
		memcpy(lo->seen[i], word, sizeof(word));
	return true;
}

/* The first few are named, and the first of each kind of reason. */
static void left_out(const char *p, unsigned lineno, const char *why,
		     struct left_out *lo)
{
	bool fresh = new_reason(why, lo);

	if (!lo->n++)
		lo->first = lineno;
	if (lo->n <= LEFT_OUT_NAMED || fresh) {
		lo->named++;
		warnf("%s:%u: not a measurement, left out: %s", p, lineno, why);
	}
}

/* A row of the bench the directory holds, or without one (an `iostrat
 * run` row): rows appended from another profile are not its measurements
 * (their config_ids may equal this bench's and would pool with them). */
static int check_bench(json_t *o, struct left_out *lo, char *why, size_t len)
{
	const char *b = json_string_value(json_object_get(o, "bench"));

	if (!b)
		return 0;
	if (!lo->bench[0])
		snprintf(lo->bench, sizeof(lo->bench), "%s", b);
	else if (strcmp(b, lo->bench)) {
		snprintf(why, len, "bench \"%.40s\", not \"%.40s\" (another bench's row)",
			 b, lo->bench);
		return -EINVAL;
	}
	return 0;
}

/* A column no table declares is read as text, unchecked: named once a
 * file (its first line), the first 8 such columns. */
static void warn_unknown(const char *p, unsigned lineno, json_t *o,
			 struct left_out *lo)
{
	struct column c;
	const char *k;
	json_t *v;
	size_t i;

	json_object_foreach(o, k, v) {
		if (!column_find(k, &c))
			continue;
		for (i = 0; i < 8 && lo->unknown[i][0]; i++)
			if (!strcmp(lo->unknown[i], k))
				break;
		if (i == 8 || lo->unknown[i][0])
			continue;
		snprintf(lo->unknown[i], sizeof(lo->unknown[i]), "%s", k);
		warnf("%s:%u: column %s is declared by no column table "
		      "(iostrat __columns): read as text, unchecked", p, lineno, k);
	}
}

static bool keep_row(const char *p, unsigned lineno, json_t *o,
		     struct left_out *lo)
{
	char why[160];

	warn_unknown(p, lineno, o, lo);
	if (!row_check(o, why, sizeof(why)) && !check_bench(o, lo, why, sizeof(why)))
		return true;
	left_out(p, lineno, why, lo);
	return false;
}

/* The bench env.json says the directory was made by (a results directory
 * without one takes its first row's). */
static void dir_bench(const char *dir, struct left_out *lo)
{
	char p[PATH_MAX];
	json_t *env;
	const char *b;

	join(p, dir, "env.json");
	env = json_load_file(p, 0, NULL);
	b = json_string_value(json_object_get(env, "profile"));
	if (b)
		snprintf(lo->bench, sizeof(lo->bench), "%s", b);
	json_decref(env);
}

/* A row read with no key twice in one object: with one (jansson keeps
 * the last) nobody can say which value was measured. */
static bool unique_keys(const char *line, size_t n)
{
	json_t *o = json_loadb(line, n, JSON_REJECT_DUPLICATES, NULL);

	json_decref(o);
	return o != NULL;
}

/* After the last row: the count of the unnamed ones, and a directory
 * holding nothing but such rows refused. */
static int left_out_end(const char *p, json_t *rows, const struct left_out *lo)
{
	if (lo->n > lo->named)
		warnf("%s: %u more rows that are not measurements left out (%u in "
		      "all, the first at line %u)", p, lo->n - lo->named,
		      lo->n, lo->first);
	if (lo->n && lo->refuse_empty && !json_array_size(rows)) {
		errorf("%s: no row is a measurement (%u left out, the first at "
		       "line %u)", p, lo->n, lo->first);
		return -EINVAL;
	}
	return 0;
}

/*
 * One row per line.  A line that ends in a newline but is not a row is an
 * error wherever it is (bad bytes, a glued row): it was written whole, so
 * it is not "truncated".  Only a last line without its newline is a row
 * cut short by a crash, skipped with a warning.  A row that is not a
 * measurement (row_check) is named and left out of *rows (counted in lo).
 */
static int load_rows(const char *dir, json_t **rows, struct rows_end *end,
		     struct left_out *lo)
{
	char p[PATH_MAX], *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	ssize_t n;
	off_t pos = 0;
	int ret = 0;
	FILE *f;

	join(p, dir, "results.jsonl");
	*rows = NULL;
	end->good = 0;
	end->nl = true;
	if (access(p, F_OK) && (errno == ENOENT || errno == ENOTDIR))
		return not_results(dir);
	f = open_rows(p);
	if (!f)
		return -EIO;
	dir_bench(dir, lo);
	*rows = json_array();
	while ((n = getline(&line, &cap, f)) > 0) {
		bool nl = line[n - 1] == '\n';
		json_error_t e;
		json_t *o;

		lineno++;
		pos += n;
		if (line[0] == '\n') {
			end->good = pos;
			continue;
		}
		o = json_loadb(line, (size_t)n, 0, &e);
		if (o && json_is_object(o)) {
			if (!unique_keys(line, (size_t)n))
				left_out(p, lineno, "a key given twice", lo);
			else if (keep_row(p, lineno, o, lo))
				json_array_append(*rows, o);
			json_decref(o);
			end->good = pos;
			end->nl = nl;
			continue;
		}
		json_decref(o);
		if (nl) {
			errorf("%s:%u: not a result row (%s)", p, lineno, e.text);
			ret = -EINVAL;
		} else {
			warnf("%s:%u: skipping a truncated last row", p, lineno);
		}
		break;
	}
	if (!ret && ferror(f))
		ret = error_errno(errno ? -errno : -EIO, p, "reading");
	if (!ret)
		ret = left_out_end(p, *rows, lo);
	free(line);
	fclose(f);
	if (ret) {
		json_decref(*rows);
		*rows = NULL;
	}
	return ret;
}

int results_load(const char *dir, json_t **rows)
{
	struct left_out lo = { .refuse_empty = true };
	struct rows_end end;

	return load_rows(dir, rows, &end, &lo);
}

/* Cut results.jsonl back to its last complete row, durably, so the next
 * row starts a line of its own instead of gluing onto a fragment. */
static int cut_to_complete_rows(const char *p, const struct rows_end *end)
{
	int fd = open(p, O_WRONLY | O_CLOEXEC), ret = 0;
	struct stat sb;

	if (fd < 0)
		return error_errno(-errno, p, "opening");
	if (fstat(fd, &sb) < 0) {
		ret = -errno;
	} else if (sb.st_size > end->good) {
		warnf("%s: cutting %lld bytes of a truncated last row before resuming",
		      p, (long long)(sb.st_size - end->good));
		if (ftruncate(fd, end->good) < 0)
			ret = -errno;
	}
	/* a complete row without its newline (edited by hand): owe it one */
	if (!ret && !end->nl && lseek(fd, 0, SEEK_END) < 0)
		ret = -errno;
	if (!ret && !end->nl)
		ret = write_full(fd, "\n", 1);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	close(fd);
	return ret ? error_errno(ret, p, "cutting back to the last complete row") : 0;
}

int results_resume(struct results_dir *r, const char *dir)
{
	char p[PATH_MAX];
	struct left_out lo = { .refuse_empty = false }; /* redone, not refused */
	struct rows_end end;
	int ret;

	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", dir);
	ret = lock_dir(r);
	if (!ret)
		ret = load_rows(dir, &r->rows, &end, &lo);
	if (ret) {
		unlock_dir(r);
		return ret;
	}
	join(p, dir, "results.jsonl");
	ret = cut_to_complete_rows(p, &end);
	if (ret)
		return ret;
	return open_jsonl(r);
}

const char *results_metric(json_t *row)
{
	const char *m = json_string_value(json_object_get(row, "metric"));

	return m ? m : RC_ELAPSED;
}

/* Per-repetition figures: summarized as medians, not copied (a column
 * of the table flagged COLF_IDENT, or a run setting's, is copied). */
static int is_figure(const char *k, json_t *v)
{
	struct column c;

	if (!json_is_number(v) || settings_column(run_settings, k))
		return 0;
	return column_find(k, &c) || !(c.flags & COLF_IDENT);
}

/* The first row of the group that is timed (or traced), NULL if none. */
static json_t *first_of(json_t *group, bool timed)
{
	json_t *row;
	size_t i;

	json_array_foreach(group, i, row)
		if (row_timed(row) == timed)
			return row;
	return NULL;
}

/* A figure's median: over the timed rows that completed, or where none
 * has it (the probes' columns) over the traced ones; a failed or killed
 * repetition's figures are in none.  false when no row has it. */
static bool figure_median(json_t *group, const char *k, double *vals, double *med)
{
	size_t ok = 0, i;
	struct summary s;
	json_t *row;

	for (int timed = 1; timed >= 0 && !ok; timed--)
		json_array_foreach(group, i, row) {
			json_t *x = json_object_get(row, k), *e = json_object_get(row, "error");

			if (row_timed(row) == timed && json_is_number(x) && (!e || json_is_null(e)))
				vals[ok++] = json_number_value(x);
		}
	summarize(vals, ok, &s);
	*med = s.median;
	return ok > 0;
}

/* One column k (v: the first timed row's value, or NULL) into out: a
 * figure's median (timed rows first), else the value, a null one from
 * the first traced row. */
static void copy_column(json_t *group, json_t *traced, const char *k, json_t *v,
			json_t *out, double *vals)
{
	json_t *tv = traced ? json_object_get(traced, k) : NULL;
	double med;

	/* a repetition's own series (io_series) is no figure of the configuration */
	if (json_object_get(out, k) || !strcmp(k, "rep") || !strcmp(k, "error") ||
	    !strcmp(k, "role") || !strcmp(k, "round") || !strcmp(k, "io_series"))
		return;
	if ((v && is_figure(k, v)) || ((!v || json_is_null(v)) && tv && is_figure(k, tv)))
		json_object_set_new(out, k, figure_median(group, k, vals, &med) ?
				    json_real(med) : json_null());
	else if ((!v || json_is_null(v)) && tv)
		json_object_set(out, k, tv);
	else if (v)
		json_object_set(out, k, v);
}

/* The columns that say what the rows are: the first timed row's, a null
 * or missing one from the first traced row (trace_error, the probes' own
 * columns ...); traced when any traced repetition was; warmup_outlier as
 * the last timed row knew it. */
static void copy_descriptive(json_t *group, json_t *first, json_t *out,
			     double *vals)
{
	json_t *traced = first_of(group, false), *v, *row;
	const char *k;
	size_t i, ntraced = 0;

	json_object_foreach(first, k, v)
		copy_column(group, traced, k, v, out, vals);
	if (traced)
		json_object_foreach(traced, k, v)
			if (!json_object_get(first, k))
				copy_column(group, traced, k, NULL, out, vals);
	json_array_foreach(group, i, row) {
		if (!row_timed(row))
			ntraced++;
		if (row_timed(row) && json_is_boolean(json_object_get(row, "warmup_outlier")))
			json_object_set(out, "warmup_outlier",
					json_object_get(row, "warmup_outlier"));
		if (!row_timed(row) && json_is_true(json_object_get(row, "traced")))
			json_object_set_new(out, "traced", json_true());
	}
	if (ntraced)
		json_object_set_new(out, "traced_reps", json_integer((json_int_t)ntraced));
}

/* n, then the metric's figures median .. q3 into out: null without a
 * good repetition (no figures, not zeros). */
static void put_figures(json_t *out, const struct summary *s, size_t ok)
{
	const struct { const char *name; double v; } figs[] = {
		{ "median", s->median }, { "min", s->min }, { "max", s->max },
		{ "rsd_pct", s->rsd_pct }, { "q1", s->q1 }, { "q3", s->q3 },
	};

	json_object_set_new(out, "n", json_integer((json_int_t)ok));
	for (size_t i = 0; i < ARRAY_SIZE(figs); i++)
		json_object_set_new(out, figs[i].name, ok ? json_real(figs[i].v) : json_null());
}

static void summarize_group(json_t *group, json_t *out)
{
	json_t *first = first_of(group, true), *v;
	const char *metric;
	size_t n = json_array_size(group), i, ok = 0, ntimed = 0, noom = 0;
	double *vals = calloc(n, sizeof(double));
	struct summary s;
	json_t *row;

	first = first ? first : json_array_get(group, 0);
	metric = results_metric(first);
	json_object_set(out, RC_CONFIG_ID, json_object_get(first, RC_CONFIG_ID));
	json_object_set_new(out, "metric", json_text(metric));
	json_array_foreach(group, i, row) {
		v = json_object_get(row, metric);
		if (!row_timed(row))
			continue;
		ntimed++;
		noom += json_is_true(json_object_get(row, "oom_kill"));
		if (json_is_number(v) && json_is_null(json_object_get(row, "error")))
			vals[ok++] = json_number_value(v);
	}
	summarize(vals, ok, &s);
	put_figures(out, &s, ok);
	/* a repetition its memory_max killed is a result (the memory
	 * verdict's), not an error */
	json_object_set_new(out, "errors", json_integer((json_int_t)(ntimed - ok - noom)));
	copy_descriptive(group, first, out, vals);
	free(vals);
}

/* Configurations in natural config_id order (w20 before w100): the order
 * rows arrive in is shuffled per round, so it cannot be the summary's. */
static int by_config_id(const void *a, const void *b)
{
	return strverscmp(json_string_value(*(json_t *const *)a),
			  json_string_value(*(json_t *const *)b));
}

json_t *results_summarize(json_t *rows)
{
	json_t *groups = json_object(), *order = json_array(), *out = json_array();
	json_t *row, *id, **ids;
	size_t i, n;

	json_array_foreach(rows, i, row) {
		const char *cid = json_string_value(json_object_get(row, RC_CONFIG_ID));
		char why[160];
		json_t *g;

		if (row_check(row, why, sizeof(why)))
			continue; /* not a measurement: in no statistic */
		if (!cid)
			cid = "-";
		g = json_object_get(groups, cid);
		if (!g) {
			g = json_array();
			json_object_set_new(groups, cid, g);
			json_array_append_new(order, json_text(cid));
		}
		json_array_append(g, row);
	}
	n = json_array_size(order);
	ids = malloc((n ? n : 1) * sizeof(*ids));
	if (!ids)
		abort();
	json_array_foreach(order, i, id)
		ids[i] = id;
	qsort(ids, n, sizeof(*ids), by_config_id);
	for (i = 0; i < n; i++) {
		json_t *s = json_object();

		summarize_group(json_object_get(groups, json_string_value(ids[i])), s);
		json_array_append_new(out, s);
	}
	free(ids);
	json_decref(groups);
	json_decref(order);
	return out;
}
