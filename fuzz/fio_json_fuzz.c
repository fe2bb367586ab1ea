// SPDX-License-Identifier: MIT
/* libFuzzer: any bytes given to the fio JSON reader never crash it; a
 * parse either fills the row or names the missing section. */
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "fio/fio.h"
#include "results/row.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *j = json_loadb((const char *)data, size, 0, NULL), *row;
	const char *why;

	if (!j)
		return 0;
	row = row_new(NULL, "fio");
	if (fio_parse_json(j, row, &why) && !why)
		abort();
	json_decref(row);
	json_decref(j);
	return 0;
}
