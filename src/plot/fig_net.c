// SPDX-License-Identifier: MIT
/*
 * Figure 7b, buffered network streams (kind=net rows of `iostrat net`):
 * messages per second per mode (log scale) and system calls per message,
 * one bar per message size.  Rows of TCP and of Unix sockets (family)
 * in one directory make a cluster each ("nodelay tcp", "nodelay unix"),
 * never one median over both.
 *
 * net.dat: blocks in the bars_block format, clusters = modes, series =
 * message sizes: 0: msgs_s; 1 (when the rows have it): syscalls_per_msg.
 */
#include <string.h>

#include "plot.h"

int fig_net(struct plot_ctx *c, char *why, size_t len)
{
	static const char *const need[] = { "mode", "msg_size", "msgs_s", NULL };
	json_t *modes, *fams;
	const char *k2;
	bool unix_only;
	struct dat d;
	size_t n;
	int ret;
	json_t *rows = fig_rows(c, "net", "net", need, "no net rows (iostrat net)",
			       why, len, &ret);

	if (!rows)
		return ret;
	modes = rows_distinct(rows, "mode");
	fams = rows_distinct(rows, "family");
	/* rows from before the family column are TCP's, alone */
	k2 = json_array_size(fams) > 1 ? "family" : NULL;
	unix_only = json_array_size(fams) == 1 &&
		    !strcmp(json_string_value(json_array_get(fams, 0)) ?: "", "unix");
	ret = dat_begin(&d);
	if (!ret) {
		n = bars_block(&d, rows, modes, "mode", k2, "", "msg_size",
			       "%s-byte messages", "msgs_s", 1);
		if (n && rows_have_number(rows, "syscalls_per_msg")) {
			fputs("\n\n", d.f);
			bars_block(&d, rows, modes, "mode", k2, "", "msg_size",
				   "%s-byte messages", "syscalls_per_msg", 1);
		}
		ret = dat_finish(c, &d, n, "net", k2 ?
				 "TCP loopback and Unix sockets: messages per second and system calls per message, by mode (median, bars min..max)" :
				 unix_only ? "Unix sockets: messages per second and system calls per message, by mode (median, bars min..max)" :
				 "TCP loopback: messages per second and system calls per message, by mode (median, bars min..max)",
				 why, len, "net rows without msgs_s values");
	}
	json_decref(fams);
	json_decref(modes);
	json_decref(rows);
	return ret;
}
