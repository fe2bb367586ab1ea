// SPDX-License-Identifier: MIT
/* The columns a fio baseline's row adds, one line each (its settings' come from fio_settings). */
#include "fio.h"

#define T COL_TEXT
#define FIO_DIR(d)                                                                    \
	{ d "_mb_s", COL_RATE, 0, "MB/s", "fio", "fio's " d " bandwidth, summed over jobs", 0 }, \
	{ d "_iops", COL_RATE, 0, "IOPS", "fio", "fio's " d " IOPS, summed over jobs", 0 },      \
	{ d "_clat_p50_us", COL_TIME, 0, "us", "fio", "median " d " completion latency (the largest job)", 0 }, \
	{ d "_clat_p99_us", COL_TIME, 0, "us", "fio", "99th percentile " d " completion latency (the largest job)", 0 }

const struct column fio_columns[] = {
	{ "fio_job", T, 0, 0, "fio", "the job file (fio-jobs/)", 0 },
	{ "fio_version", T, 0, 0, "fio", "fio's version", 0 },
	{ "fio_server", T, 0, 0, "fio", "the fio server the row was measured on", 0 },
	{ "baseline_of", T, 0, 0, "fio", "the strategies the job mirrors", 0 },
	{ "fio_elapsed_s", COL_TIME, 0, "s", "fio", "fio's own runtime (the row's elapsed_s)", 0 },
	{ "fio_wall_s", COL_TIME, 0, "s", "fio", "wall time of the fio process, start-up included", 0 },
	FIO_DIR("read"),
	FIO_DIR("write"),
	{ "fio_usr_cpu_pct", COL_RATE, 0, "%", "fio", "fio's user CPU", 0 },
	{ "fio_sys_cpu_pct", COL_RATE, 0, "%", "fio", "fio's system CPU", 0 },
	{ 0 },
};
