// SPDX-License-Identifier: MIT
/* Figures of a run: latency percentiles, TCP segments (none on a Unix
 * socket: null), the result row and the side-by-side table. */
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "core/checksum.h"
#include "harness/env.h"
#include "net.h"
#include "results/row.h"
#include "results/stats_math.h"
#include "lib/util.h"

void net_rtt_percentiles(double *rtt_us, size_t n, struct net_result *r)
{
	qsort(rtt_us, n, sizeof(double), cmp_doubles);
	r->rtt_p50 = quantile_sorted(rtt_us, n, 0.50);
	r->rtt_p99 = quantile_sorted(rtt_us, n, 0.99);
	r->rtt_p999 = quantile_sorted(rtt_us, n, 0.999);
}

double net_tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

long long net_segs_out(int fd)
{
	struct tcp_info ti;
	socklen_t l = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &l) < 0 ||
	    l < offsetof(struct tcp_info, tcpi_data_segs_out) + sizeof(ti.tcpi_data_segs_out))
		return -1;
	return ti.tcpi_data_segs_out;
}

const struct column net_columns[] = {
	{ "msgs_s", COL_RATE, 0, "msgs/s", "net", "messages per second", 0 },
	{ "syscalls_per_msg", COL_RATE, 0, 0, "net", "the client's send and receive calls per message", 0 },
	{ "srv_syscalls_per_msg", COL_RATE, 0, 0, "net", "the server's calls per message", 0 },
	{ "segs_per_msg", COL_RATE, 0, 0, "net", "TCP segments sent per message (tcpi_data_segs_out)", 0 },
	{ "rtt_p50_us", COL_TIME, 0, "us", "net", "median round trip (pingpong)", 0 },
	{ "rtt_p99_us", COL_TIME, 0, "us", "net", "99th percentile round trip", 0 },
	{ "rtt_p999_us", COL_TIME, 0, "us", "net", "99.9th percentile round trip", 0 },
	{ "srv_user_s", COL_TIME, 0, "s", "net", "the server's user CPU", 0 },
	{ "srv_sys_s", COL_TIME, 0, "s", "net", "the server's system CPU", 0 },
	{ "metric", COL_TEXT, 0, 0, "net", "the column the kind's verdict compares", 0 },
	{ 0 },
};

static void set(json_t *row, const char *k, json_t *v)
{
	json_object_set_new(row, k, v);
}

static json_t *real_or_null(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

static void set_figures(json_t *row, const struct net_result *r)
{
	double n = (double)r->msgs, el = r->elapsed_s > 0 ? r->elapsed_s : 1e-9;
	struct rusage self;
	char hex[17];

	getrusage(RUSAGE_SELF, &self);
	checksum_hex(r->tx_hash, hex);
	set(row, RC_BYTES_IN, json_integer((json_int_t)r->bytes_in));
	set(row, "bytes_out", json_integer((json_int_t)r->bytes_out));
	set(row, RC_ELAPSED, json_real(r->elapsed_s));
	set(row, RC_USER, json_real(r->user_s));
	set(row, RC_SYS, json_real(r->sys_s));
	set(row, RC_MAXRSS, json_integer(self.ru_maxrss));
	set(row, "nvcsw", json_integer(r->nvcsw));
	set(row, "nivcsw", json_integer(r->nivcsw));
	set(row, RC_MB_S, json_real((double)(r->bytes_out + r->bytes_in) / el / 1e6));
	set(row, "checksum", json_text(hex));
	set(row, "verified", json_boolean(r->verified));
	set(row, "msgs_s", json_real(n / el));
	set(row, "syscalls_per_msg", json_real((double)r->calls / n));
	set(row, "srv_syscalls_per_msg", json_real((double)r->srv_calls / n));
	set(row, "segs_per_msg", r->segs < 0 ? json_null() : json_real((double)r->segs / n));
	set(row, "rtt_p50_us", real_or_null(r->rtt_p50));
	set(row, "rtt_p99_us", real_or_null(r->rtt_p99));
	set(row, "rtt_p999_us", real_or_null(r->rtt_p999));
	set(row, "srv_user_s", json_real(r->srv_user_s));
	set(row, "srv_sys_s", json_real(r->srv_sys_s));
}

/* Own columns, in a fixed order, all present (null when not measured or
 * not used by the mode); the settings' from their table. */
static void own_columns(json_t *row, const struct net_opts *o)
{
	static const char *const cols[] = {
		"mode", "msg_size", "count", "msgs_s", "syscalls_per_msg",
		"srv_syscalls_per_msg", "segs_per_msg", "rtt_p50_us",
		"rtt_p99_us", "rtt_p999_us", "batch", "buffer", "sndbuf",
		"rcvbuf", "nagle", "io_max", "timeout_s", "srv_user_s",
		"srv_sys_s", "metric", "family", NULL,
	};

	for (size_t i = 0; cols[i]; i++)
		set(row, cols[i], json_null());
	net_settings_row(o, row);
	set(row, "metric", json_text("msgs_s"));
}

json_t *net_row(const char *bench, const struct net_opts *o, unsigned rep,
		const struct net_result *r, const char *error)
{
	const struct net_mode *m = net_mode_at((size_t)o->mode);
	json_t *row = row_new(bench, "net");
	char id[256];

	net_config_id(o, id, sizeof(id));
	set(row, RC_CONFIG_ID, json_text(id));
	set(row, "rep", json_integer(rep));
	set(row, RC_THREADS, json_integer(1));
	if (m->uses_buffer)
		set(row, "bufsize", json_integer((json_int_t)o->buffer));
	if (m->uses_batch)
		set(row, "qd", json_integer(o->batch));
	set(row, "kernel", json_text(env_kernel()));
	set(row, "host", json_text(env_host()));
	own_columns(row, o);
	if (r)
		set_figures(row, r);
	else
		set(row, "verified", json_false());
	if (error)
		set(row, "error", json_text(error));
	return row;
}

/* Median of key over the rows of one config (errors left out); -1 if none. */
static double median_of(json_t *rows, const char *cid, const char *key)
{
	size_t i, n = 0, cap = json_array_size(rows);
	double *v = calloc(cap ? cap : 1, sizeof(double)), med = -1;
	struct summary s;
	json_t *row;

	if (!v)
		return -1;
	json_array_foreach(rows, i, row) {
		json_t *x = json_object_get(row, key);

		if (strcmp(json_string_value(json_object_get(row, RC_CONFIG_ID)), cid) ||
		    !json_is_null(json_object_get(row, "error")) || !json_is_number(x))
			continue;
		v[n++] = json_number_value(x);
	}
	if (n) {
		summarize(v, n, &s);
		med = s.median;
	}
	free(v);
	return med;
}

static void cell(FILE *f, int width, const char *fmt, double v)
{
	if (v < 0)
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, fmt, width, v);
}

/* nodelay's median msgs/s with this row's size, count and socket
 * settings, or -1. */
static double baseline(json_t *rows, json_t *row)
{
	struct net_opts o = {
		.mode = 0, /* nodelay */
		.size = (uint64_t)json_integer_value(json_object_get(row, "msg_size")),
		.count = (uint64_t)json_integer_value(json_object_get(row, "count")),
		.sndbuf = (uint64_t)json_integer_value(json_object_get(row, "sndbuf")),
		.rcvbuf = (uint64_t)json_integer_value(json_object_get(row, "rcvbuf")),
		.io_max = (unsigned)json_integer_value(json_object_get(row, "io_max")),
		.nagle = json_is_true(json_object_get(row, "nagle")),
	};
	const char *fam = json_string_value(json_object_get(row, "family"));
	char id[256];

	/* rows from before the family column are TCP's */
	o.family = fam && !strcmp(fam, "unix") ? NET_UNIX : NET_TCP;
	net_config_id(&o, id, sizeof(id));
	return median_of(rows, id, "msgs_s");
}

static void print_config(FILE *f, json_t *rows, json_t *row)
{
	const char *cid = json_string_value(json_object_get(row, RC_CONFIG_ID));
	double rate = median_of(rows, cid, "msgs_s"), base = baseline(rows, row);
	size_t i, n = 0, bad = 0;
	json_t *r;

	json_array_foreach(rows, i, r) {
		if (strcmp(json_string_value(json_object_get(r, RC_CONFIG_ID)), cid))
			continue;
		n++;
		bad += !json_is_true(json_object_get(r, "verified"));
	}
	fprintf(f, "%-20s %7lld", json_string_value(json_object_get(row, "mode")),
		(long long)json_integer_value(json_object_get(row, "msg_size")));
	cell(f, 10, " %*.0f", rate);
	cell(f, 8, " %*.2f", median_of(rows, cid, RC_MB_S));
	cell(f, 9, " %*.4f", median_of(rows, cid, "syscalls_per_msg"));
	cell(f, 8, " %*.4f", median_of(rows, cid, "segs_per_msg"));
	cell(f, 7, " %*.1f", median_of(rows, cid, "rtt_p50_us"));
	cell(f, 7, " %*.1f", median_of(rows, cid, "rtt_p99_us"));
	cell(f, 8, " %*.1f", median_of(rows, cid, "rtt_p999_us"));
	cell(f, 9, " %*.2f", base > 0 && rate >= 0 ? rate / base : -1);
	fprintf(f, "  %zu/%zu\n", n - bad, n);
}

void net_print_table(FILE *f, json_t *rows)
{
	json_t *seen = json_object(), *row;
	size_t i;

	fprintf(f, "%-20s %7s %10s %8s %9s %8s %7s %7s %8s %9s  %s\n", "mode",
		"size", "msgs/s", "MB/s", "calls/msg", "segs/msg", "p50 us",
		"p99 us", "p99.9 us", "x nodelay", "verified");
	json_array_foreach(rows, i, row) {
		const char *cid = json_string_value(json_object_get(row, RC_CONFIG_ID));

		if (!cid || json_object_get(seen, cid))
			continue;
		json_object_set_new(seen, cid, json_true());
		print_config(f, rows, row);
	}
	json_decref(seen);
}
