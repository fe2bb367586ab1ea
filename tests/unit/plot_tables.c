// SPDX-License-Identifier: MIT
/* The seek_hist column (trace), the csv tables figure 6 reads from a
 * compare.csv, and the in-memory table it reads from a comparison
 * (plot): formats pinned down by hand-written examples. */
#include <errno.h>
#include <string.h>

#include "../../ebpf/seeks.h"
#include "plot/plot.h"
#include "report/table.h"
#include "trace/trace.h"
#include "unit.h"

UNIT(seek_hist_format)
{
	__u64 d[SEEK_DIST_SLOTS] = { 0 };
	char buf[64];

	trace_seek_hist(d, buf, sizeof(buf));
	CHECK(!strcmp(buf, ""), "empty: '%s'", buf);
	d[0] = 123;
	d[12] = 4;
	d[63] = 1;
	trace_seek_hist(d, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0:123;12:4;63:1"), "got '%s'", buf);
	/* too small a buffer: whole entries only, never a cut number */
	trace_seek_hist(d, buf, 12);
	CHECK(!strcmp(buf, "0:123;12:4"), "cut: '%s'", buf);
	return 0;
}

UNIT(csv_table_reads_a_report_table)
{
	const char *text =
		"# A: x\n\n# first table\na,b\n1,2\n\n"
		"# per run: spread\nconfig_id,label,median,sig\n"
		"big/stream,\"say \"\"hi\"\", ok\",0.5,*\n"
		"big/buffer,b,,\n\n# later\nz\n9\n";
	json_t *cols, *rows, *r;

	CHECK(csv_table(text, "nope", &cols, &rows) == -ENOENT, "absent table");
	CHECK(csv_table(text, "per run", &cols, &rows) == 0, "present table");
	CHECK(json_array_size(cols) == 4 && json_array_size(rows) == 2, "shape");
	r = json_array_get(rows, 0);
	CHECK(!strcmp(json_string_value(json_object_get(r, "label")), "say \"hi\", ok"),
	      "quoted field");
	CHECK(json_real_value(json_object_get(r, "median")) == 0.5, "number");
	CHECK(!strcmp(json_string_value(json_object_get(r, "sig")), "*"), "sig");
	r = json_array_get(rows, 1);
	CHECK(json_is_null(json_object_get(r, "median")), "empty is null");
	json_decref(cols);
	json_decref(rows);
	return 0;
}

/* A report table handed to figure 6 as objects, cells as they are
 * (numbers, strings, null), no text in between. */
UNIT(report_table_read_from_memory)
{
	static const char *const cols[] = { "config_id", "run", "median", "sig", NULL };
	struct rdoc d;
	struct rtable *t;
	json_t *rows, *r;

	rdoc_init(&d);
	rdoc_table(&d, "other", cols);
	t = rdoc_table(&d, "per configuration and run", cols);
	rtable_add(t, json_pack("[s s f s]", "big/stream", "A", 0.5, "*"));
	rtable_add(t, json_pack("[s s n]", "big/stream", "B")); /* short row */
	CHECK(rdoc_find(&d, "nope") == NULL, "absent table");
	CHECK(rdoc_find(&d, "per configuration and run") == &d.t[1], "present table");
	rows = rtable_objects(rdoc_find(&d, "per configuration and run"));
	CHECK(json_array_size(rows) == 2, "two rows");
	r = json_array_get(rows, 0);
	CHECK(json_real_value(json_object_get(r, "median")) == 0.5, "number");
	CHECK(!strcmp(json_string_value(json_object_get(r, "sig")), "*"), "sig");
	r = json_array_get(rows, 1);
	CHECK(json_is_null(json_object_get(r, "median")) &&
	      json_is_null(json_object_get(r, "sig")), "missing cells are null");
	json_decref(rows);
	rdoc_free(&d);
	return 0;
}
