/* SPDX-License-Identifier: MIT */
/* A fixture row given as JSON text, put through the row validator. */
#ifndef IOSTRAT_UNIT_ROW_TEXT_H
#define IOSTRAT_UNIT_ROW_TEXT_H

#include <jansson.h>

#include "results/row.h"

/* row_check's answer for text (why filled), or 99 when it is not JSON. */
static inline int check_text(const char *text, char *why, size_t len)
{
	json_t *row = json_loads(text, 0, NULL);
	int ret;

	if (!row)
		return 99;
	why[0] = 0;
	ret = row_check(row, why, len);
	json_decref(row);
	return ret;
}

#endif
