// SPDX-License-Identifier: MIT
/* The results directory's writer (src/results/results.c): one writer at a
 * time, rows appended a line each and on disk at once, a torn last row
 * skipped on load and cut back on resume. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "results/results.h"
#include "scratch.h"
#include "unit.h"

/* A scratch directory for this binary's cases. */
UNIT_SCRATCH("results")

static char dir[PATH_MAX + 64];

#define ROW(id, rep) "{\"schema\":1,\"kind\":\"run\",\"config_id\":\"" id \
	"\",\"rep\":" #rep ",\"elapsed_s\":0.5,\"error\":null}\n"

/* A new, empty directory for one case. */
static const char *fresh(const char *name)
{
	snprintf(dir, sizeof(dir), "%s/%s", scratch, name);
	mkdir(dir, 0755);
	return dir;
}

static void put(const char *name, const char *text)
{
	char p[PATH_MAX + 128];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	fputs(text, f);
	fclose(f);
}

/* The whole of dir/name, or "" (static buffer). */
static const char *slurp(const char *name)
{
	static char buf[8192];
	char p[PATH_MAX + 128];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	buf[0] = 0;
	fd = open(p, O_RDONLY);
	if (fd < 0)
		return buf;
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	close(fd);
	return buf;
}

static size_t lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

UNIT(second_writer_refused_while_the_first_holds_it)
{
	struct results_dir a, b;
	const char *err;
	char holder[64];
	int ret;

	fresh("lock");
	CHECK(!results_open(&a, dir, "t", NULL, true), "first open");
	scratch_capture();
	ret = results_open(&b, dir, "t", NULL, true);
	err = scratch_captured();
	CHECK(ret == -EBUSY, "second open: %d", ret);
	snprintf(holder, sizeof(holder), "in use by another iostrat (pid %d) writing",
		 (int)getpid());
	CHECK(strstr(err, dir) && strstr(err, holder) &&
	      strstr(err, "use another --out"), "refusal, want '%s': %s", holder, err);
	scratch_capture();
	ret = results_resume(&b, dir);
	err = scratch_captured();
	CHECK(ret == -EBUSY && strstr(err, "in use by another iostrat"),
	      "resume while held: %d %s", ret, err);
	scratch_capture();
	ret = results_check_fresh(dir, true);
	err = scratch_captured();
	CHECK(ret == -EBUSY && strstr(err, "in use by another iostrat"),
	      "check_fresh while held: %d %s", ret, err);
	results_close(&a);
	CHECK(!results_resume(&b, dir), "resume after the first closed");
	results_close(&b);
	return 0;
}

/* The lock is the kernel's: a writer that dies (a crash, SIGKILL) leaves
 * none behind; while it lives another process is refused, the holder's
 * pid named. */
UNIT(lock_held_by_another_process_and_freed_when_it_dies)
{
	struct results_dir r;
	int go[2], ready[2], ret;
	char c, holder[64];
	const char *err;
	pid_t pid;

	fresh("lockproc");
	CHECK(!pipe(go) && !pipe(ready), "pipes");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (!pid) {
		alarm(10); /* the parent failed a check before saying go */
		if (results_open(&r, dir, "t", NULL, true))
			_exit(1);
		(void)!write(ready[1], "r", 1);
		(void)!read(go[0], &c, 1);
		_exit(0); /* no results_close: the kernel frees the lock */
	}
	CHECK(read(ready[0], &c, 1) == 1, "child did not open");
	scratch_capture();
	ret = results_resume(&r, dir);
	err = scratch_captured();
	CHECK(ret == -EBUSY, "resume while another process holds it: %d", ret);
	snprintf(holder, sizeof(holder), "in use by another iostrat (pid %d)", (int)pid);
	CHECK(strstr(err, holder), "holder not named, want '%s': %s", holder, err);
	(void)!write(go[1], "g", 1);
	waitpid(pid, NULL, 0);
	CHECK(!results_resume(&r, dir), "resume after the holder died");
	results_close(&r);
	return 0;
}

UNIT(open_refuses_a_directory_holding_results)
{
	struct results_dir r;
	const char *err;
	int ret;

	fresh("full");
	put("results.jsonl", ROW("a", 1));
	scratch_capture();
	ret = results_open(&r, dir, "t", NULL, true);
	err = scratch_captured();
	CHECK(ret == -EEXIST && strstr(err, "has results already (use --resume"),
	      "%d %s", ret, err);
	fresh("users-csv");
	put("summary.csv", "mine\n");
	scratch_capture();
	ret = results_open(&r, dir, "t", NULL, false);
	err = scratch_captured();
	CHECK(ret == -EEXIST && strstr(err, "holds summary.csv already"),
	      "%d %s", ret, err);
	CHECK(!strcmp(slurp("summary.csv"), "mine\n"), "the user's file changed");
	return 0;
}

/* Each row is on disk, a line of its own, when results_append returns:
 * another reader sees it before the writer closes. */
UNIT(each_row_is_written_through_as_one_line)
{
	struct results_dir r;
	json_t *row = json_pack("{s:s,s:i,s:f}", "config_id", "a", "rep", 1,
				"elapsed_s", 0.5);
	json_t *back;

	fresh("append");
	CHECK(!results_open(&r, dir, "t", NULL, false), "open");
	CHECK(!results_append(&r, row), "append 1");
	CHECK(lines(slurp("results.jsonl")) == 1, "after one append: '%s'",
	      slurp("results.jsonl"));
	json_object_set_new(row, "rep", json_integer(2));
	CHECK(!results_append(&r, row), "append 2");
	CHECK(lines(slurp("results.jsonl")) == 2, "after two: '%s'",
	      slurp("results.jsonl"));
	back = json_loads(strchr(slurp("results.jsonl"), '\n') + 1, 0, NULL);
	CHECK(back && json_integer_value(json_object_get(back, "rep")) == 2,
	      "second line is not the second row");
	json_decref(back);
	CHECK(json_array_size(r.rows) == 2, "rows kept: %zu", json_array_size(r.rows));
	json_decref(row);
	CHECK(!results_finish(&r), "finish");
	results_close(&r);
	CHECK(lines(slurp("results.csv")) == 3 && lines(slurp("summary.csv")) == 2,
	      "csv: '%s' summary: '%s'", slurp("results.csv"), slurp("summary.csv"));
	return 0;
}

UNIT(a_row_without_config_id_is_refused)
{
	struct results_dir r;
	json_t *row = json_pack("{s:i}", "rep", 1);
	const char *err;
	int ret;

	fresh("noid");
	CHECK(!results_open(&r, dir, "t", NULL, false), "open");
	scratch_capture();
	ret = results_append(&r, row);
	err = scratch_captured();
	json_decref(row);
	results_close(&r);
	CHECK(ret == -EINVAL && strstr(err, "without a config_id"), "%d %s", ret, err);
	CHECK(!*slurp("results.jsonl"), "written: %s", slurp("results.jsonl"));
	return 0;
}

#define TORN "{\"schema\":1,\"config_id\":\"c\",\"rep\":1,\"ela"

UNIT(torn_last_row_skipped_on_load)
{
	json_t *rows;
	const char *err;
	int ret;

	fresh("torn-load");
	put("results.jsonl", ROW("a", 1) ROW("b", 1) TORN);
	scratch_capture();
	ret = results_load(dir, &rows);
	err = scratch_captured();
	CHECK(!ret && json_array_size(rows) == 2, "%d, %zu rows", ret,
	      rows ? json_array_size(rows) : 0);
	CHECK(strstr(err, "results.jsonl:3: skipping a truncated last row"), "%s", err);
	CHECK(!strcmp(slurp("results.jsonl"), ROW("a", 1) ROW("b", 1) TORN),
	      "a reader changed the file");
	json_decref(rows);
	return 0;
}

/* A whole line that is not a row was written so: an error, not "torn". */
UNIT(a_whole_bad_line_is_an_error_not_a_torn_row)
{
	json_t *rows;
	const char *err;
	int ret;

	fresh("bad-line");
	put("results.jsonl", ROW("a", 1) "{\"config_id\":\"b\"}{\"x\":1}\n" ROW("c", 1));
	scratch_capture();
	ret = results_load(dir, &rows);
	err = scratch_captured();
	CHECK(ret == -EINVAL && !rows, "%d", ret);
	CHECK(strstr(err, "results.jsonl:2: not a result row") &&
	      !strstr(err, "truncated"), "%s", err);
	return 0;
}

UNIT(resume_cuts_a_torn_last_row_back)
{
	struct results_dir r;
	json_t *row = json_pack("{s:s,s:i}", "config_id", "c", "rep", 1);
	const char *err;
	char want[80];
	int ret;

	fresh("torn-resume");
	put("results.jsonl", ROW("a", 1) ROW("b", 1) TORN);
	scratch_capture();
	ret = results_resume(&r, dir);
	err = scratch_captured();
	CHECK(!ret, "resume: %d %s", ret, err);
	snprintf(want, sizeof(want), "cutting %zu bytes of a truncated last row",
		 strlen(TORN));
	CHECK(strstr(err, want), "want '%s': %s", want, err);
	CHECK(json_array_size(r.rows) == 2, "rows: %zu", json_array_size(r.rows));
	CHECK(!strcmp(slurp("results.jsonl"), ROW("a", 1) ROW("b", 1)),
	      "not cut back: '%s'", slurp("results.jsonl"));
	CHECK(!results_append(&r, row), "append");
	results_close(&r);
	json_decref(row);
	CHECK(!strcmp(slurp("results.jsonl"), ROW("a", 1) ROW("b", 1)
		      "{\"config_id\":\"c\",\"rep\":1}\n"),
	      "the new row is not a line of its own: '%s'", slurp("results.jsonl"));
	return 0;
}

/* A last row complete but without its newline (edited by hand) is kept,
 * and the next row starts a line of its own. */
UNIT(resume_owes_a_complete_last_row_its_newline)
{
	struct results_dir r;
	json_t *row = json_pack("{s:s,s:i}", "config_id", "c", "rep", 1);
	char last[] = ROW("b", 1);

	fresh("no-newline");
	last[strlen(last) - 1] = 0;
	put("results.jsonl", last);
	CHECK(!results_resume(&r, dir), "resume");
	CHECK(json_array_size(r.rows) == 1, "rows: %zu", json_array_size(r.rows));
	CHECK(!results_append(&r, row), "append");
	results_close(&r);
	json_decref(row);
	CHECK(!strcmp(slurp("results.jsonl"), ROW("b", 1)
		      "{\"config_id\":\"c\",\"rep\":1}\n"), "'%s'", slurp("results.jsonl"));
	return 0;
}

UNIT(not_a_regular_file_is_refused)
{
	char p[PATH_MAX + 64];
	json_t *rows;
	const char *err;
	int ret;

	fresh("fifo");
	snprintf(p, sizeof(p), "%s/results.jsonl", dir);
	CHECK(!mkfifo(p, 0644), "mkfifo");
	scratch_capture();
	ret = results_load(dir, &rows);
	err = scratch_captured();
	CHECK(ret && !rows && strstr(err, "results.jsonl: not a regular file"),
	      "%d %s", ret, err);
	return 0;
}
