// SPDX-License-Identifier: MIT
/* bench --resume with -D: the configurations stay the ones the directory's profile records. */
#include <errno.h>
#include <string.h>

#include "profile.h"
#include "lib/util.h"
#include "resume_defs.h"

/* Keys that say how a configuration runs, not which: the engine's, and
 * trace (traced repetitions beside the timed ones, one config_id). */
static bool how_key(const char *key)
{
	return profile_engine_key(key) || !strcmp(key, "trace");
}

/* The first -D of with whose value differs from conf i of was (or, when
 * the number of configurations differs, the first -D of a configuration
 * key): NULL when every configuration is the same. */
static const struct pkv *changer(const struct profile *was, const struct profile *with)
{
	for (size_t i = 0; i < with->n; i++)
		for (size_t k = 0; k < with->confs[i].nkv; k++) {
			const struct pkv *kv = &with->confs[i].kv[k];
			const char *v;

			if (kv->from != PKV_DEFINE || how_key(kv->key))
				continue;
			v = i < was->n ? pconf_get(&was->confs[i], kv->key) : NULL;
			if (was->n != with->n || !v || strcmp(v, kv->value))
				return kv;
		}
	return NULL;
}

/* The -D as given for key (the last: it wins), or key alone. */
static const char *given(const char *key, char *const *defs, size_t ndefs)
{
	size_t n = strlen(key);

	for (size_t i = ndefs; i-- > 0;)
		if (!strncmp(defs[i], key, n) && defs[i][n] == '=')
			return defs[i];
	return key;
}

int resume_defs_check(const char *dir, const char *path, const struct profile *with,
		      char *const *defs, size_t ndefs)
{
	struct profile was = { 0 };
	const struct pkv *kv;
	int ret = profile_load(path, NULL, 0, &was);

	if (ret)
		return ret;
	kv = changer(&was, with);
	if (kv)
		errorf("bench --resume %s: -D %s changes the configurations its "
		       "profile.ini records (a resume runs what is missing of them: "
		       "give it to a new bench)", dir, given(kv->key, defs, ndefs));
	profile_free(&was);
	return kv ? -EINVAL : 0;
}
