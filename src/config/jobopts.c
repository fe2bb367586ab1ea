// SPDX-License-Identifier: MIT
/* The run settings, for `iostrat run` and profiles alike: defaults, parsing, help. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobopts.h"
#include "lib/util.h"

#define MAX_THREADS 1024
#define MAX_WORK 1000000
#define MAX_BUF (1ULL << 30)

void jobopt_defaults(struct run_config *cfg)
{
	cfg->job.threads = 1;
	cfg->job.work = 0;
	cfg->job.fsync = FSYNC_FILE;
	cfg->cache = CACHE_COLD;
}

static int bool_value(const char *where, const char *key, const char *v,
		      bool *out)
{
	if (!v || !strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes")) {
		*out = true;
		return 0;
	}
	if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no")) {
		*out = false;
		return 0;
	}
	errorf("%s: %s: bad value '%s' (expected 0 or 1)", where, key, v);
	return -EINVAL;
}

static const struct strategy_opt *strat_opt(const struct run_config *cfg,
					     const char *key)
{
	if (!cfg->strat || !cfg->strat->opts)
		return NULL;
	for (const struct strategy_opt *o = cfg->strat->opts; o->name; o++)
		if (!strcmp(o->name, key))
			return o;
	return NULL;
}

bool jobopt_is_flag(const struct run_config *cfg, const char *key)
{
	const struct strategy_opt *o = strat_opt(cfg, key);

	if (o)
		return !o->takes_value;
	return !strcmp(key, "direct");
}

static int set_strat_opt(struct run_config *cfg, const char *key,
			 const char *value)
{
	struct job_opt *opts = (struct job_opt *)cfg->job.opts;
	size_t n = cfg->job.nopts;

	for (size_t i = 0; i < n; i++) {
		if (strcmp(opts[i].name, key))
			continue;
		free((char *)opts[i].value);
		opts[i].value = strdup(value ? value : "1");
		return opts[i].value ? 0 : -ENOMEM;
	}
	struct job_opt *grown = realloc(opts, (n + 1) * sizeof(*opts));

	if (!grown)
		return -ENOMEM;
	opts = grown;
	opts[n].name = strdup(key);
	opts[n].value = strdup(value ? value : "1");
	cfg->job.opts = opts;
	cfg->job.nopts = n + 1;
	return 0;
}

static int size_value(const char *where, const char *key, const char *v,
		      size_t *out)
{
	char opt[256];
	uint64_t n;
	int ret;

	snprintf(opt, sizeof(opt), "%s: %s", where, key);
	ret = opt_size(opt, v, 1, MAX_BUF, &n);
	if (!ret)
		*out = (size_t)n;
	return ret;
}

static const char *const keys[] = { "threads", "work", "qd", "bufsize",
				    "chunk", "direct", "sink", "fsync",
				    "cache" };

void jobopt_each(cmd_opt_fn fn, void *ctx)
{
	const struct strategy *s;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct cmd_opt o = { keys[i], 0, strcmp(keys[i], "direct") != 0 };

		fn(&o, ctx);
	}
	for (size_t i = 0; (s = strategy_at(i)); i++)
		for (const struct strategy_opt *so = s->opts; so && so->name; so++) {
			struct cmd_opt o = { so->name, 0, so->takes_value };

			fn(&o, ctx);
		}
}

bool jobopt_known(const struct run_config *cfg, const char *key)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return true;
	return strat_opt(cfg, key) != NULL;
}

static int check_strat_value(const struct strategy_opt *o, const char *opt,
			     const char *v)
{
	char list[256] = "";

	if (!o->values)
		return 0;
	for (const char *const *a = o->values; *a; a++) {
		if (v && !strcmp(v, *a))
			return 0;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 a == o->values ? "" : a[1] ? ", " : " or ", *a);
	}
	errorf("%s: bad value '%s' (%s)", opt, v ? v : "", list);
	return -EINVAL;
}

int jobopt_set(struct run_config *cfg, const char *where, const char *key,
	       const char *v)
{
	char opt[256];
	struct job *j = &cfg->job;

	snprintf(opt, sizeof(opt), "%s: %s", where, key);
	if (!strcmp(key, "threads"))
		return opt_uint(opt, v, 1, MAX_THREADS, &j->threads);
	if (!strcmp(key, "work"))
		return opt_uint(opt, v, 0, MAX_WORK, &j->work);
	if (!strcmp(key, "qd"))
		return opt_uint(opt, v, 1, 4096, &j->qd);
	if (!strcmp(key, "bufsize"))
		return size_value(where, key, v, &j->bufsize);
	if (!strcmp(key, "chunk"))
		return size_value(where, key, v, &j->chunk);
	if (!strcmp(key, "direct"))
		return bool_value(where, key, v, &j->direct);
	if (!strcmp(key, "sink")) {
		if (v && (!strcmp(v, "null") || !strcmp(v, "file"))) {
			j->sink_null = !strcmp(v, "null");
			return 0;
		}
		errorf("%s: bad value '%s' (file or null)", opt, v ? v : "");
		return -EINVAL;
	}
	if (!strcmp(key, "fsync")) {
		if (v && !fsync_mode_parse(v, &j->fsync))
			return 0;
		errorf("%s: bad value '%s' (file, end or none)", opt, v ? v : "");
		return -EINVAL;
	}
	if (!strcmp(key, "cache")) {
		if (v && !cache_mode_parse(v, &cfg->cache))
			return 0;
		errorf("%s: bad value '%s' (cold, warm or asis)", opt, v ? v : "");
		return -EINVAL;
	}
	if (strat_opt(cfg, key))
		return check_strat_value(strat_opt(cfg, key), opt, v) ?:
		       set_strat_opt(cfg, key, v);
	return -ENOENT;
}

void jobopt_free(struct run_config *cfg)
{
	struct job_opt *opts = (struct job_opt *)cfg->job.opts;

	for (size_t i = 0; i < cfg->job.nopts; i++) {
		free((char *)opts[i].name);
		free((char *)opts[i].value);
	}
	free(opts);
	cfg->job.opts = NULL;
	cfg->job.nopts = 0;
}

void jobopt_help(FILE *f)
{
	fputs("  --threads N        worker threads (1..1024, default 1)\n"
	      "  --work W           transform passes per line (0 = plain copy)\n"
	      "  --bufsize B        buffer size (4096, 64k, 1M; strategy default if unset)\n"
	      "  --chunk B          chunk size for chunked strategies\n"
	      "  --qd N             queue depth for async strategies\n"
	      "  --direct           O_DIRECT where the strategy supports it\n"
	      "  --sink file|null   null: read and transform, write nothing\n"
	      "  --fsync file|end|none  when writes reach the disk (default file:\n"
	      "                     fsync each output inside the measured time)\n"
	      "  --cache cold|warm|asis  input cache state per repetition (default cold)\n",
	      f);
}
