// SPDX-License-Identifier: MIT
/* The limits' reuse: a recent limits run of the same machine, filesystem, kernel and data set, found under the results root. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lib/column.h"
#include "harness/env.h"
#include "lib/util.h"
#include "limits.h"

const char *limits_machine_id(void)
{
	static char id[64];
	const char *fake = getenv("IOSTRAT_FAKE_MACHINE_ID");
	FILE *f;

	if (fake && *fake)
		return fake; /* a test seam: another machine */
	if (id[0])
		return id;
	f = fopen("/etc/machine-id", "re");
	if (f && fgets(id, sizeof(id), f))
		id[strcspn(id, "\n")] = 0;
	if (f)
		fclose(f);
	return id;
}

/* The key: the measurements' version, machine, kernel, the data
 * directory's filesystem and device (docs/limits.md); the data set and
 * fsync class are in config_id. */
void limits_key_row(json_t *row, json_t *env)
{
	json_t *in = env ? json_object_get(env, "in") : NULL;

	json_object_set_new(row, "limits_method", json_integer(LIMITS_METHOD));
	json_object_set_new(row, "machine_id", json_text(limits_machine_id()));
	json_object_set_new(row, "kernel", json_text(env_kernel()));
	json_object_set(row, "fs", in && json_object_get(in, "fs") ?
			json_object_get(in, "fs") : json_null());
	json_object_set(row, "device", in && json_object_get(in, "disk") ?
			json_object_get(in, "disk") : json_null());
}

/* A row of config_id that may stand for a new measurement. */
static bool matches(json_t *row, const char *config_id, json_t *key, double since)
{
	const char *k;
	json_t *v, *at = json_object_get(row, "measured_at");

	if (!json_is_string(json_object_get(row, "kind")) ||
	    strcmp(json_string_value(json_object_get(row, "kind")), "limits") ||
	    !json_is_string(json_object_get(row, RC_CONFIG_ID)) ||
	    strcmp(json_string_value(json_object_get(row, RC_CONFIG_ID)), config_id) ||
	    json_is_string(json_object_get(row, "error")) ||
	    json_object_get(row, "reused_from") || /* a copy is not a measurement */
	    !json_is_number(at) || json_number_value(at) < since)
		return false;
	json_object_foreach(key, k, v)
		if (!json_equal(v, json_object_get(row, k)))
			return false;
	return true;
}

/* The limits rows of dir/results.jsonl measured since `since` (a new
 * array); only lines that name the kind are parsed. */
static json_t *dir_limits_rows(const char *dir, double since)
{
	char path[PATH_MAX], *line = NULL;
	json_t *rows = json_array(), *row, *at;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/results.jsonl", dir);
	f = fopen(path, "re");
	while (f && rows && getline(&line, &cap, f) > 0) {
		if (!strstr(line, "\"limits\"") || !(row = json_loads(line, 0, NULL)))
			continue;
		at = json_object_get(row, "measured_at");
		if (json_is_number(at) && json_number_value(at) >= since)
			json_array_append(rows, row);
		json_decref(row);
	}
	free(line);
	if (f)
		fclose(f);
	return rows;
}

/* Every other run directory's recent limits rows, {dir: [rows]}: read
 * once per process and root (a bench asks once per configuration). */
static json_t *candidates(const char *root, const char *me, double since)
{
	static char read_root[PATH_MAX];
	static json_t *by_dir;
	struct dirent *e;
	DIR *d;

	if (by_dir && !strcmp(read_root, root))
		return by_dir;
	json_decref(by_dir);
	by_dir = json_object();
	snprintf(read_root, sizeof(read_root), "%s", root);
	d = opendir(root);
	while (d && by_dir && (e = readdir(d))) {
		char dir[PATH_MAX];
		json_t *rows;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, me))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", root, e->d_name);
		rows = dir_limits_rows(dir, since);
		if (rows && json_array_size(rows))
			json_object_set(by_dir, dir, rows);
		json_decref(rows);
	}
	if (d)
		closedir(d);
	return by_dir;
}

json_t *limits_reusable(const char *root, const char *self, const char *config_id,
			json_t *key, double window_s, char *from, size_t len)
{
	double since = (double)time(NULL) - window_s, best = 0;
	const char *me = strrchr(self, '/') ? strrchr(self, '/') + 1 : self, *dir;
	json_t *found = json_array(), *by_dir = candidates(root, me, since), *rows;

	json_object_foreach(by_dir, dir, rows) {
		json_t *mine = json_array(), *row;
		double newest = 0;
		size_t i;

		json_array_foreach(rows, i, row)
			if (matches(row, config_id, key, since)) {
				newest = MAX(newest, json_number_value(json_object_get(row, "measured_at")));
				json_array_append(mine, row);
			}
		if (found && json_array_size(mine) && newest > best) {
			best = newest;
			json_decref(found);
			found = mine;
			snprintf(from, len, "%s", dir);
		} else {
			json_decref(mine);
		}
	}
	return found;
}
