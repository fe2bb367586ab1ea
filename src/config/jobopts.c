// SPDX-License-Identifier: MIT
/* The run settings: one table for `iostrat run`, profiles, help, rows and config_id. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobopts.h"
#include "lib/util.h"

#define RUN(f) offsetof(struct run_config, f)

static const char *const cache_names[] = { "cold", "warm", "asis", NULL };
static const char *const fsync_names[] = { "file", "end", "none", NULL };
static const char *const sink_names[] = { "file", "null", NULL };

/* Table order is config_id order: DATASET/STRATEGY/tT/wW/CACHE/fsync=F... */
const struct setting run_settings[] = {
	{ .name = "threads", .type = SET_UINT, .off = RUN(job.threads),
	  .min = 1, .max = 1024, .def = "1", .metavar = "N", .where = SET_BOTH,
	  .column = "threads", .id = "t%s",
	  .help = "worker threads (1..1024, default 1)" },
	{ .name = "work", .type = SET_UINT, .off = RUN(job.work), .max = 1000000,
	  .def = "0", .metavar = "W", .where = SET_BOTH, .column = "work",
	  .id = "w%s", .help = "transform passes per line (0 = plain copy)" },
	{ .name = "cache", .type = SET_ENUM, .off = RUN(cache), .values = cache_names,
	  .def = "cold", .where = SET_BOTH, .column = "cache", .id = "%s",
	  .help = "input cache state per repetition (default cold)" },
	{ .name = "fsync", .type = SET_ENUM, .off = RUN(job.fsync),
	  .values = fsync_names, .def = "file", .where = SET_BOTH,
	  .column = "fsync", .id = "fsync=%s",
	  .help = "when writes reach the disk (default file:\n"
		  "fsync each output inside the measured time)" },
	{ .name = "bufsize", .type = SET_SIZE, .off = RUN(job.bufsize), .min = 1,
	  .max = 1ULL << 30, .metavar = "B", .where = SET_BOTH, .column = "bufsize",
	  .id = "bufsize=%s", .flags = SETF_ID_OPTIONAL | SETF_COL_OPTIONAL,
	  .help = "buffer size (4096, 64k, 1M; strategy default if unset)" },
	{ .name = "chunk", .type = SET_SIZE, .off = RUN(job.chunk), .min = 1,
	  .max = 1ULL << 30, .metavar = "B", .where = SET_BOTH, .column = "chunk",
	  .id = "chunk=%s", .flags = SETF_ID_OPTIONAL | SETF_COL_OPTIONAL,
	  .help = "chunk size for chunked strategies" },
	{ .name = "qd", .type = SET_UINT, .off = RUN(job.qd), .min = 1, .max = 4096,
	  .metavar = "N", .where = SET_BOTH, .column = "qd", .id = "qd=%s",
	  .flags = SETF_ID_OPTIONAL | SETF_COL_OPTIONAL,
	  .help = "queue depth for async strategies" },
	{ .name = "direct", .type = SET_BOOL, .off = RUN(job.direct), .def = "0",
	  .where = SET_BOTH, .column = "direct", .id = "direct",
	  .flags = SETF_ID_OPTIONAL,
	  .help = "O_DIRECT where the strategy supports it" },
	{ .name = "sink", .type = SET_ENUM, .off = RUN(job.sink), .values = sink_names,
	  .def = "file", .where = SET_BOTH, .column = "sink", .id = "sink=%s",
	  .flags = SETF_ID_OPTIONAL,
	  .help = "null: read and transform, write nothing" },
	{ 0 },
};

void jobopt_defaults(struct run_config *cfg)
{
	settings_defaults(run_settings, cfg);
}

/* The setting called key: a run setting, or one of cfg's strategy. */
static const struct setting *find(const struct run_config *cfg, const char *key)
{
	const struct setting *s = setting_find(run_settings, key);

	if (!s && cfg->strat && cfg->strat->opts)
		s = setting_find(cfg->strat->opts, key);
	return s;
}

bool jobopt_known(const struct run_config *cfg, const char *key)
{
	return find(cfg, key) != NULL;
}

int jobopt_strategy(struct run_config *cfg, const char *name)
{
	const struct strategy *s = strategy_find(name);

	if (!s)
		return -ENOENT;
	free(cfg->sopts);
	cfg->sopts = NULL;
	cfg->strat = s;
	if (s->opts) {
		cfg->sopts = calloc(1, s->opts_size ? s->opts_size : 1);
		if (!cfg->sopts)
			return -ENOMEM;
		settings_defaults(s->opts, cfg->sopts);
	}
	cfg->job.sopts = cfg->sopts;
	return 0;
}

int jobopt_set(struct run_config *cfg, const char *where, const char *key,
	       const char *v)
{
	const struct setting *s = setting_find(run_settings, key);
	char opt[256];

	snprintf(opt, sizeof(opt), "%s: %s", where, key);
	if (s)
		return setting_store(s, cfg, opt, v);
	s = find(cfg, key);
	return s && cfg->sopts ? setting_store(s, cfg->sopts, opt, v) : -ENOENT;
}

void jobopt_free(struct run_config *cfg)
{
	free(cfg->sopts);
	cfg->sopts = NULL;
	cfg->job.sopts = NULL;
}
