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

/* Rows of TCP and of Unix sockets: a cluster per mode and family. */
static const char *family_key(json_t *rows)
{
	json_t *fams = rows_distinct(rows, "family");
	/* rows from before the family column are TCP's, alone */
	const char *k2 = json_array_size(fams) > 1 ? "family" : NULL;

	json_decref(fams);
	return k2;
}

static void net_title(const struct fig_group *g, char *buf, size_t len)
{
	json_t *fams = rows_distinct(g->rows, "family");
	bool unix_only = json_array_size(fams) == 1 &&
		!strcmp(json_string_value(json_array_get(fams, 0)) ?: "", "unix");

	snprintf(buf, len, "%s: messages per second and system calls per message, by "
		 "mode (median, bars min..max)", json_array_size(fams) > 1 ?
		 "TCP loopback and Unix sockets" : unix_only ? "Unix sockets" : "TCP loopback");
	json_decref(fams);
}

static size_t net_write(const struct fig_group *g, struct dat *d)
{
	json_t *modes = rows_distinct(g->rows, "mode");
	const char *k2 = family_key(g->rows);
	size_t n = bars_block(d, g->rows, modes, "mode", k2, "", "msg_size",
			      "%s-byte messages", "msgs_s", 1);

	if (n && rows_have_number(g->rows, "syscalls_per_msg")) {
		dat_block(d, 1);
		bars_block(d, g->rows, modes, "mode", k2, "", "msg_size",
			   "%s-byte messages", "syscalls_per_msg", 1);
	}
	json_decref(modes);
	return n;
}

static const char *const need[] = { "mode", "msg_size", "msgs_s", NULL };

const struct fig_kind fig_net = {
	.kind = "net", .need = need, .none = "no net rows (iostrat net)",
	.title_of = net_title, .write = net_write, .empty = "net rows without msgs_s values",
};
