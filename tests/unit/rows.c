// SPDX-License-Identifier: MIT
/* The row schema against docs/results.md: every column the document lists
 * is in the fixture list below with its type, the core columns are
 * row_core_columns in order, the kind table agrees with row_check, and a
 * row `iostrat run` writes holds every listed column, typed as listed. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/row.h"
#include "unit.h"

/* What a column holds: a count is a whole number; time, size and rate are
 * numbers (row_check's kinds); text a string; flag true/false; enum one of
 * the values listed in the document, "a|b". */
enum ctype { COUNT, SIZE, TIME, RATE, TEXT, FLAG, ENUM };

struct col {
	const char *name;
	enum ctype type;
	const char *values; /* ENUM: "a|b" as the document writes them */
	bool set;           /* never null in a verified `run -s stream` row */
};

static const struct col cols[] = {
	{ "schema", COUNT, 0, 1 }, { "bench", TEXT, 0, 0 },
	{ "kind", ENUM, "run|sweep|net|fio", 1 }, { "config_id", TEXT, 0, 1 },
	{ "rep", COUNT, 0, 1 }, { "round", COUNT, 0, 1 },
	{ "role", ENUM, "timed|traced", 1 },
	{ "dataset", TEXT, 0, 1 }, { "files", COUNT, 0, 1 },
	{ "bytes_in", SIZE, 0, 1 }, { "bytes_out", SIZE, 0, 1 },
	{ "strategy", TEXT, 0, 1 }, { "threads", COUNT, 0, 1 },
	{ "work", COUNT, 0, 1 }, { "cache", ENUM, "cold|warm|asis", 1 },
	{ "fsync", ENUM, "file|end|none", 1 },
	{ "bufsize", SIZE, 0, 0 }, { "chunk", SIZE, 0, 0 },
	{ "qd", COUNT, 0, 0 }, { "direct", FLAG, 0, 1 },
	{ "dontcache", FLAG, 0, 1 },
	{ "sink", ENUM, "file|null", 1 }, { "memory_max", SIZE, 0, 0 },
	{ "accounting", FLAG, 0, 1 },
	{ "resident_pct_before", RATE, 0, 1 }, { "elapsed_s", TIME, 0, 1 },
	{ "user_s", TIME, 0, 1 }, { "sys_s", TIME, 0, 1 },
	{ "maxrss_kb", SIZE, 0, 1 }, { "minflt", COUNT, 0, 1 },
	{ "majflt", COUNT, 0, 1 }, { "nvcsw", COUNT, 0, 1 },
	{ "nivcsw", COUNT, 0, 1 }, { "mb_s", RATE, 0, 1 },
	{ "checksum", TEXT, 0, 1 }, { "verified", ENUM, "true|false", 1 },
	{ "traced", ENUM, "true|false", 1 }, { "seq_pct", RATE, 0, 0 },
	{ "pc_hits", COUNT, 0, 0 }, { "pc_misses", COUNT, 0, 0 },
	{ "pc_hit_ratio", RATE, 0, 0 }, { "ra_pages", COUNT, 0, 0 },
	{ "req_p50_kb", SIZE, 0, 0 }, { "lat_p50_us", TIME, 0, 0 },
	{ "lat_p99_us", TIME, 0, 0 }, { "kernel", TEXT, 0, 1 },
	{ "scheduler", TEXT, 0, 0 }, { "device", TEXT, 0, 0 }, { "fs", TEXT, 0, 0 },
	{ "host", TEXT, 0, 1 }, { "error", TEXT, 0, 0 },
	/* the repetition's whole cost (docs/memory.md) */
	{ "cgroup", ENUM, "v1|v2", 0 }, { "cgroup_error", TEXT, 0, 0 },
	{ "oom_kill", ENUM, "true|false", 0 }, { "oom_elsewhere", TEXT, 0, 0 },
	{ "mem_peak_bytes", SIZE, 0, 0 },
	{ "mem_peak_anon_bytes", SIZE, 0, 0 }, { "mem_peak_file_bytes", SIZE, 0, 0 },
	{ "mem_file_end_bytes", SIZE, 0, 0 }, { "pgscan", COUNT, 0, 0 },
	{ "pgsteal", COUNT, 0, 0 }, { "workingset_refault", COUNT, 0, 0 },
	{ "reclaim_source", TEXT, 0, 0 }, { "dev_read_bytes", SIZE, 0, 0 },
	{ "dev_write_bytes", SIZE, 0, 0 }, { "dev_reads", COUNT, 0, 0 },
	{ "dev_writes", COUNT, 0, 0 }, { "dev_source", TEXT, 0, 0 },
	{ "psi_io_some_us", TIME, 0, 0 }, { "psi_io_full_us", TIME, 0, 0 },
	{ "psi_mem_some_us", TIME, 0, 0 }, { "psi_mem_full_us", TIME, 0, 0 },
	{ "psi_source", TEXT, 0, 0 }, { "kthread_s", TIME, 0, 0 },
	{ "kswapd_s", TIME, 0, 0 }, { "kworker_s", TIME, 0, 0 },
	{ "ksoftirqd_s", TIME, 0, 0 },
	/* then the run's own */
	{ "cache_method", ENUM, "drop_caches, fadvise, read,\nnone", 1 },
	{ "residency_method", ENUM, "cachestat, mincore", 1 },
	{ "cold_ok", FLAG, 0, 0 }, { "input_changed", FLAG, 0, 1 },
	{ "cache_left_mib", SIZE, 0, 1 },
	{ NULL, 0, 0, 0 },
};
#define NCORE 77 /* the first NCORE are the document's code block */

static const struct col *col_find(const char *name, size_t len)
{
	for (const struct col *c = cols; c->name; c++)
		if (strlen(c->name) == len && !strncmp(c->name, name, len))
			return c;
	return NULL;
}

static char *doc;

static int load_doc(void)
{
	const char *top = getenv("TOP");
	char p[4096];
	FILE *f;
	long n;

	snprintf(p, sizeof(p), "%s/docs/results.md", top ? top : ".");
	f = fopen(p, "r");
	if (!f)
		return -errno;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	doc = calloc(1, (size_t)n + 1);
	if (fread(doc, 1, (size_t)n, f) != (size_t)n)
		n = -1;
	fclose(f);
	return n < 0 ? -EIO : 0;
}

/* The text between the first ``` fence and the next. */
static char *core_block(void)
{
	char *a = strstr(doc, "```\n"), *b;

	if (!a)
		return NULL;
	a += 4;
	b = strstr(a, "```");
	return b ? strndup(a, (size_t)(b - a)) : NULL;
}

/* Every name of the core block, in order, with its "(a|b)" if any. */
static size_t core_names(char *blk, char **names, char **vals, size_t max)
{
	size_t n = 0;

	for (char *s = blk; *s && n < max;) {
		size_t len;

		s += strspn(s, " ,\n");
		len = strcspn(s, " ,\n");
		if (!len)
			break;
		names[n] = strndup(s, len);
		s += len;
		vals[n] = NULL;
		if (s[0] == ' ' && s[1] == '(') {
			len = strcspn(s + 2, ")");
			vals[n] = strndup(s + 2, len);
			s += len + 3;
		}
		n++;
	}
	return n;
}

static int core_columns_are_the_documented_ones_in_order(void)
{
	char *blk = core_block(), *names[128], *vals[128];
	size_t n, i;

	CHECK(blk, "docs/results.md: no ``` block of the core columns");
	n = core_names(blk, names, vals, 128);
	for (i = 0; i < n && row_core_columns()[i]; i++)
		CHECK(!strcmp(names[i], row_core_columns()[i]),
		      "column %zu: the document says %s, row.c %s", i, names[i],
		      row_core_columns()[i]);
	CHECK(i == n && !row_core_columns()[i], "the document lists %zu core "
	      "columns, row_core_columns %s", n, row_core_columns()[i] ?
	      "more" : "fewer");
	CHECK(n == NCORE, "%zu core columns in the document, %d here", n, NCORE);
	for (i = 0; i < n; i++) {
		const struct col *c = col_find(names[i], strlen(names[i]));

		CHECK(c && c == &cols[i], "%s: not the fixture's column %zu", names[i], i);
		CHECK(!vals[i] == !c->values && (!vals[i] || !strcmp(vals[i], c->values)),
		      "%s: the document says (%s), the fixture (%s)", names[i],
		      vals[i] ? vals[i] : "-", c->values ? c->values : "-");
		free(names[i]);
		free(vals[i]);
	}
	free(blk);
	return 0;
}

/* "then the run's own: `fsync`, `cache_method` (drop_caches, ...), ..."
 * up to "each strategy's knobs": the fixture's columns after the core. */
static int run_columns_are_the_documented_ones(void)
{
	char *s = strstr(doc, "then the run's own:");
	char *end = s ? strstr(s, "strategy's knobs") : NULL;
	size_t k = NCORE;

	CHECK(s && end, "docs/results.md: no \"then the run's own: ... "
	      "strategy's knobs\"");
	while ((s = strchr(s, '`')) && s < end) {
		size_t len = strcspn(s + 1, "`");
		const struct col *c = col_find(s + 1, len);

		CHECK(c && c == &cols[k], "`%.*s`: not the fixture's column %zu (%s)",
		      (int)len, s + 1, k, cols[k].name ? cols[k].name : "none left");
		s += len + 2;
		if (c->values) {
			CHECK(s[1] == '(' && !strncmp(s + 2, c->values,
							strlen(c->values)),
			      "%s: the document's values are not (%s)", c->name, c->values);
		}
		if (strchr(" \n", s[0]) && s[1] == '(') /* values or a note */
			s += strcspn(s, ")");
		k++;
	}
	CHECK(!cols[k].name, "%s: in the fixture, not in the document", cols[k].name);
	return 0;
}

static enum row_col_type checked_as(enum ctype t)
{
	switch (t) {
	case COUNT: return ROWCOL_COUNT;
	case SIZE: return ROWCOL_SIZE;
	case TIME: return ROWCOL_TIME;
	case RATE: return ROWCOL_RATE;
	default: return ROWCOL_OTHER;
	}
}

/* The table "| kind | columns | rule |": each named column of a kind is
 * that kind here and in row_check; every fixture number is checked so. */
static int kind_table_agrees_with_the_fixture_and_row_check(void)
{
	static const char *const kinds[] = { "| count |", "| size |", "| time |",
					     "| rate |" };
	for (int k = 0; k < 4; k++) {
		char *s = strstr(doc, kinds[k]), *end, *eol;

		CHECK(s, "docs/results.md: no row %s in the kind table", kinds[k]);
		eol = strchr(s, '\n');
		end = strstr(s, ", and "); /* then suffixes, not columns */
		if (!end || (eol && end > eol))
			end = eol;
		while ((s = strchr(s, '`')) && s < end) {
			size_t len = strcspn(s + 1, "`");
			const struct col *c = col_find(s + 1, len);

			CHECK(!c || c->type == (enum ctype)k, "%s: %.*s is %d here",
			      kinds[k], (int)len, s + 1, c->type);
			s += len + 2;
		}
	}
	for (const struct col *c = cols; c->name; c++)
		CHECK(row_column_type(c->name) == checked_as(c->type),
		      "%s: row_check keys it as %d, the fixture as %d", c->name,
		      row_column_type(c->name), checked_as(c->type));
	return 0;
}

static bool typed(const struct col *c, json_t *v)
{
	const char *s = json_string_value(v);
	size_t len;

	switch (c->type) {
	case COUNT: return json_is_integer(v) && json_integer_value(v) >= 0;
	case SIZE: case TIME: case RATE:
		return json_is_number(v) && json_number_value(v) >= 0;
	case TEXT: return json_is_string(v);
	case FLAG: return json_is_boolean(v);
	case ENUM:
		if (!strcmp(c->values, "true|false"))
			return json_is_boolean(v);
		if (!s)
			return false;
		len = strlen(s);
		for (const char *p = c->values; (p = strstr(p, s)); p += len)
			if ((p == c->values || strchr("| \n", p[-1])) &&
			    strchr("|,", p[len] ? p[len] : '|'))
				return true;
		return false;
	}
	return false;
}

static int row_new_holds_every_core_column(void)
{
	json_t *row = row_new("b", "run");

	for (size_t i = 0; i < NCORE; i++)
		CHECK(json_object_get(row, cols[i].name), "%s missing", cols[i].name);
	CHECK(json_object_size(row) == NCORE, "%zu keys", json_object_size(row));
	CHECK(typed(&cols[0], json_object_get(row, "schema")) &&
	      typed(&cols[2], json_object_get(row, "kind")), "schema or kind");
	json_decref(row);
	return 0;
}

/* One row from the real writer: `iostrat run -s stream ... --json`. */
static json_t *run_row(void)
{
	static char tmp[] = "/tmp/iostrat-unit-rows.XXXXXX";
	const char *bin = getenv("IOSTRAT");
	char cmd[8192];
	json_t *row;
	FILE *f;

	if (!bin)
		bin = "build/iostrat";
	if (access(bin, X_OK) || !mkdtemp(tmp))
		return NULL;
	snprintf(cmd, sizeof(cmd), "mkdir %s/in && printf 'a b\\nc\\n' >%s/in/f && "
		 "printf 'x\\n' >%s/in/g", tmp, tmp, tmp);
	if (system(cmd))
		return NULL;
	snprintf(cmd, sizeof(cmd), "'%s' run -s stream %s/in %s/out -r 1 --cache asis "
		 "--json 2>/dev/null", bin, tmp, tmp);
	f = popen(cmd, "r");
	row = f ? json_loadf(f, JSON_DISABLE_EOF_CHECK, NULL) : NULL;
	if (f)
		pclose(f);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd))
		return row;
	return row;
}

static int run_row_holds_every_documented_column_typed(void)
{
	json_t *row = run_row(), *v;

	if (!row && access(getenv("IOSTRAT") ? getenv("IOSTRAT") : "build/iostrat", X_OK))
		SKIP("no iostrat binary (IOSTRAT or build/iostrat)");
	CHECK(row, "`iostrat run -s stream --json` printed no row");
	for (const struct col *c = cols; c->name; c++) {
		v = json_object_get(row, c->name);
		CHECK(v, "%s: not in the row", c->name);
		CHECK(json_is_null(v) ? !c->set : typed(c, v), "%s: %s is not %s%s",
		      c->name, json_dumps(v, JSON_ENCODE_ANY), c->set ? "" : "null or ",
		      c->values ? c->values : (const char *[]){ "a count", "a size",
		      "a time", "a rate", "text", "a flag" }[c->type]);
	}
	json_decref(row);
	return 0;
}

int main(void)
{
	if (load_doc()) {
		printf("FAIL: docs/results.md: cannot read it (run from the top "
		       "of the tree, or set TOP)\n");
		return 1;
	}
	RUN(core_columns_are_the_documented_ones_in_order);
	RUN(run_columns_are_the_documented_ones);
	RUN(kind_table_agrees_with_the_fixture_and_row_check);
	RUN(row_new_holds_every_core_column);
	RUN(run_row_holds_every_documented_column_typed);
	free(doc);
	return unit_failed;
}
