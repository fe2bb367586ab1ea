// SPDX-License-Identifier: MIT
/* The run settings' functions: defaults, a strategy chosen with its options, a key set from argv or a profile. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobopts.h"
#include "core/xform.h"
#include "lib/util.h"

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

int jobopt_transform(struct run_config *cfg)
{
	const struct xform *x;
	char why[PATH_MAX + 256];

	x = xform_get(cfg->transform, why, sizeof(why));
	if (!x) {
		errorf("%s", why);
		return -EINVAL;
	}
	if (!x->in_place && cfg->job.work) {
		errorf("work: %u passes, but transform %s has none (only xor has)",
		       cfg->job.work, x->name);
		return -EINVAL;
	}
	cfg->job.xform = x;
	cfg->transform = x->id;
	cfg->transform_spec = x->spec;
	return 0;
}
