// SPDX-License-Identifier: MIT
/* The fio baseline's settings table: golden config_ids, argv and profile alike, row columns, fsync to fio's job. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "fio/fio.h"
#include "lib/util.h"
#include "results/config_id.h"

/* A value other than the default for each setting a command line gives. */
static const char *const other[][2] = {
	{ "cache", "warm" }, { "bs", "4k" }, { "qd", "4" }, { "direct", "on" },
	{ "fsync", "end" }, { "client", "h1,h2:9000" },
};

/* The fio settings of the key/value pairs kv (NULL-terminated), as a
 * profile gives them, resolved for strategy (may be NULL). */
static int config(struct fio_config *c, const char *strategy,
		  const char *const *kv)
{
	memset(c, 0, sizeof(*c));
	settings_defaults(fio_settings, c);
	for (; kv && kv[0]; kv += 2) {
		const struct setting *s = setting_find(fio_settings, kv[0]);

		CHECK(s && (s->where & SET_PROFILE), "%s: no profile key", kv[0]);
		CHECK(!setting_store(s, c, kv[0], kv[1]), "%s=%s", kv[0], kv[1]);
	}
	fio_config_resolve(c, strategy, false);
	return 0;
}

static int id_of(const char *strategy, const char *const *kv, char *id, size_t len)
{
	const struct setting *const tables[] = { fio_settings, NULL };
	struct fio_config c;

	CHECK(!config(&c, strategy, kv), "config");
	config_id_make(id, len, "ds", "fio-seq-psync", tables,
		       (const void *const[]){ &c });
	return 0;
}

/* The bench form of earlier releases (tests/fixtures/results-schema1):
 * every part, in its place, with fsync's old spelling for file and none. */
UNIT(config_id_golden_fio)
{
	static const char *const all[] = { "cache", "warm", "bs", "4k", "qd", "4",
		"direct", "yes", "fsync", "end", NULL };
	static const char *const none[] = { "fsync", "none", "direct", "off", NULL };
	static const char *const sizes[] = { "chunk", "8k", "bufsize", "16k", NULL };
	char id[CONFIG_ID_MAX];

	CHECK(!id_of(NULL, NULL, id, sizeof(id)), "id");
	CHECK(!strcmp(id, "ds/fio-seq-psync/cold/bs=1048576/qd=8/fsync=1"), "defaults: %s", id);
	CHECK(!id_of("stream", NULL, id, sizeof(id)), "id");
	CHECK(!strcmp(id, "ds/fio-seq-psync/cold/bs=65536/qd=8/fsync=1"),
	      "stream's (the fixture's id): %s", id);
	CHECK(!id_of(NULL, all, id, sizeof(id)), "id");
	CHECK(!strcmp(id, "ds/fio-seq-psync/warm/bs=4096/qd=4/direct/fsync=end"),
	      "every setting: %s", id);
	CHECK(!id_of(NULL, none, id, sizeof(id)), "id");
	CHECK(!strcmp(id, "ds/fio-seq-psync/cold/bs=1048576/qd=8/fsync=0"), "none: %s", id);
	CHECK(!id_of("stream", sizes, id, sizeof(id)), "id");
	CHECK(!strcmp(id, "ds/fio-seq-psync/cold/bs=8192/qd=8/fsync=1"), "chunk first: %s", id);
	return 0;
}

static const struct cmd_opts opts = { .cmd = "fio", .tables = { fio_settings } };

/* `iostrat fio --KEY V` and a section's KEY=V fill the same settings. */
UNIT(argv_and_profile_set_the_same)
{
	int n = 0;

	for (const struct setting *s = fio_settings; s->name; s++)
		n += (s->where & SET_BOTH) == SET_BOTH;
	CHECK(n == (int)ARRAY_SIZE(other), "%d settings on both, %zu test values", n,
	      ARRAY_SIZE(other));
	for (size_t i = 0; i < ARRAY_SIZE(other); i++) {
		const char *kv[] = { other[i][0], other[i][1], NULL };
		char opt[64], *argv[] = { "fio", opt, (char *)other[i][1], NULL };
		const struct setting *s = setting_find(fio_settings, other[i][0]);
		struct fio_config a, p;
		char ta[64], tp[64];

		snprintf(opt, sizeof(opt), "--%s", other[i][0]);
		CHECK(!config(&p, NULL, kv), "profile");
		memset(&a, 0, sizeof(a));
		settings_defaults(fio_settings, &a);
		CHECK(cmdopt_parse(&opts, (void *[]){ &a }, s->type == SET_BOOL ? 2 : 3,
				   argv) == 0, "--%s", other[i][0]);
		fio_config_resolve(&a, NULL, false);
		CHECK(!strcmp(setting_text(s, &a, ta, sizeof(ta)),
			      setting_text(s, &p, tp, sizeof(tp))),
		      "%s: argv %s, profile %s", s->name, ta, tp);
	}
	return 0;
}

/* The row's columns, typed, with what fio was given. */
UNIT(row_has_every_setting_column)
{
	static const char *const kv[] = { "bs", "4k", "direct", "1", "fsync", "end", NULL };
	static const char *const cols[] = { "cache", "bufsize", "qd", "direct", "fsync" };
	struct fio_config c;
	json_t *row = json_object();

	CHECK(!config(&c, NULL, kv), "config");
	settings_row(fio_settings, &c, row);
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		CHECK(json_object_get(row, cols[i]), "no column %s", cols[i]);
	CHECK(json_object_size(row) == ARRAY_SIZE(cols), "%zu columns", json_object_size(row));
	CHECK(json_integer_value(json_object_get(row, "bufsize")) == 4096 &&
	      json_integer_value(json_object_get(row, "qd")) == 8 &&
	      json_is_true(json_object_get(row, "direct")) &&
	      !strcmp(json_string_value(json_object_get(row, "fsync")), "end") &&
	      !strcmp(json_string_value(json_object_get(row, "cache")), "cold"),
	      "typed values");
	json_decref(row);
	return 0;
}

/* fsync=MODE reaches the job as the fio option that does it. */
UNIT(fsync_mode_is_the_jobs_option)
{
	static const char *const modes[] = { "file", "end", "none" };
	struct filelist fl = { 0 };

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		const char *kv[] = { "fsync", modes[i], NULL };
		struct fio_config c;
		struct fio_params p = { .job = "j.fio", .in_dir = "/in", .fl = &fl,
					.scratch = "/s", .set = &c };
		const char *close, *end;

		CHECK(!config(&c, NULL, kv), "config");
		CHECK(!fio_job_env(&p), "env");
		close = getenv("IOSTRAT_FSYNC_ON_CLOSE");
		end = getenv("IOSTRAT_END_FSYNC");
		CHECK(close && end, "variables not set");
		CHECK(!strcmp(close, i == 0 ? "1" : "0") && !strcmp(end, i == 1 ? "1" : "0"),
		      "fsync=%s: fsync_on_close=%s end_fsync=%s", modes[i], close, end);
	}
	return 0;
}
