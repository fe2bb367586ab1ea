/* SPDX-License-Identifier: MIT */
/* config_id: the one key of a configuration, made in one function for every kind. */
#ifndef IOSTRAT_CONFIG_ID_H
#define IOSTRAT_CONFIG_ID_H

#include <stddef.h>

struct setting;

#define CONFIG_ID_MAX 512

/*
 * DATASET/HEAD/PART/PART...: HEAD names what runs (a strategy, "fio-JOB",
 * "sweep-KIND", a net mode), each PART is an id part of a setting of
 * tables[i] (filled in objs[i]), in table order (settings.h: .id).  Built
 * from the values, not their text, so equal settings match whatever way
 * they were written.  No reader parses it: rows carry every field.
 */
void config_id_make(char *buf, size_t len, const char *dataset,
		    const char *head, const struct setting *const *tables,
		    const void *const *objs);

#endif
