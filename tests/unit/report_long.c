// SPDX-License-Identifier: MIT
/* Every report format prints a cell whole, whatever its length: a 2,000-character reason
 * arrives entire through text, markdown, JSON, CSV and HTML (the table and report.html). */
#include <string.h>

#include "report/report.h"
#include "unit.h"

#define LONG_LEN 2000

/* A reason of LONG_LEN characters, words and digits, ending in a marker. */
static void long_reason(char *buf)
{
	for (size_t i = 0; i < LONG_LEN; i++)
		buf[i] = i % 7 == 6 ? ' ' : (char)('a' + (char)(i % 26));
	memcpy(buf + LONG_LEN - 4, "END.", 4);
	buf[LONG_LEN] = 0;
}

/* The document: a "verdict" table of two cells, the first one long. */
static void long_doc(struct rdoc *d, const char *reason)
{
	static const char *const cols[] = { "verdict", NULL };
	struct rtable *t;

	rdoc_init(d);
	rdoc_meta(d, "reason", "%s", reason);
	t = rdoc_table(d, "verdict", cols);
	rtable_note(t, "%s", reason);
	rtable_add(t, json_pack("[s]", reason));
	rtable_add(t, json_pack("[s]", "short: b fastest."));
}

/* Printed in format f: how many times the whole reason appears. */
static int printed_whole(const struct rdoc *d, enum rfmt f, const char *reason)
{
	char *s = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&s, &len);
	int n = 0;

	if (!out)
		return -1;
	rdoc_print(d, f, out);
	fclose(out);
	for (const char *p = s; (p = strstr(p, reason)); p++)
		n++;
	free(s);
	return n;
}

UNIT(long_reason_arrives_whole_in_every_format)
{
	static const char *const names[] = { "text", "csv", "json", "markdown", "html" };
	static const enum rfmt f[] = { RF_TEXT, RF_CSV, RF_JSON, RF_MD, RF_HTML };
	/* the row, the meta line and the table's note (CSV prints no note) */
	static const int want[] = { 3, 2, 3, 3, 3 };
	char reason[LONG_LEN + 1];
	struct rdoc d;

	long_reason(reason);
	long_doc(&d, reason);
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		int n = printed_whole(&d, f[i], reason);

		CHECK(n == want[i], "%s: the 2,000-character reason whole %d times, not %d",
		      names[i], n, want[i]);
	}
	rdoc_free(&d);
	return 0;
}

UNIT(long_reason_arrives_whole_in_report_html)
{
	char reason[LONG_LEN + 1], *s = NULL;
	struct rrun r = { .dir = "/tmp/x" };
	struct rdoc d;
	size_t len = 0;
	FILE *out = open_memstream(&s, &len);

	CHECK(out, "memstream");
	long_reason(reason);
	long_doc(&d, reason);
	r.rows = json_array();
	r.sum = json_array();
	r.env = json_object();
	report_html(&r, &d, NULL, 0, out);
	fclose(out);
	CHECK(strstr(s, reason), "report.html cuts the 2,000-character reason");
	free(s);
	json_decref(r.rows);
	json_decref(r.sum);
	json_decref(r.env);
	rdoc_free(&d);
	return 0;
}
