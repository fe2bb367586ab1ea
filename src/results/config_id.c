// SPDX-License-Identifier: MIT
/* config_id: see config_id.h. */
#include <stdio.h>

#include "config_id.h"
#include "lib/settings.h"

void config_id_make(char *buf, size_t len, const char *dataset,
		    const char *head, const struct setting *const *tables,
		    const void *const *objs)
{
	int n = snprintf(buf, len, "%s/%s", dataset ? dataset : "-", head);
	size_t at = n < 0 ? 0 : (size_t)n;

	for (size_t i = 0; tables[i] && at < len; i++)
		at = settings_id(tables[i], objs[i], buf, len, at);
}
