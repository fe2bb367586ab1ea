// SPDX-License-Identifier: MIT
/* The run settings' table: threads, work, cache, fsync, bufsize, chunk, qd, direct, dontcache, sink. */
#include <stddef.h>

#include "jobopts.h"

/* The names of the cache and fsync modes, in enum order: this table's,
 * fio's and sweep's values, and cache_mode_name()/fsync_mode_name(). */
const char *const cache_mode_names[] = { "cold", "warm", "asis", NULL };
const char *const fsync_mode_names[] = { "file", "end", "none", NULL };

static const char *const sink_names[] = { "file", "null", NULL };

/* Table order is config_id order: DATASET/STRATEGY/tT/wW/CACHE/fsync=F... */
const struct setting run_settings[] = {
	{ .name = "threads", SETTING_UINT(struct run_config, job.threads),
	  .min = 1, .max = 1024, .def = "1", .metavar = "N", .where = SET_BOTH,
	  .column = RC_THREADS, .id = "t%s",
	  .help = "worker threads (1..1024, default 1)" },
	{ .name = "work", SETTING_UINT(struct run_config, job.work), .max = 1000000,
	  .def = "0", .metavar = "W", .where = SET_BOTH, .column = RC_WORK,
	  .id = "w%s", .help = "transform passes per line (0 = plain copy)" },
	{ .name = "transform", SETTING_STRING(struct run_config, transform),
	  .def = "xor", .metavar = "T", .where = SET_BOTH, .column = "transform",
	  .id = "xf=%s", .flags = SETF_ID_OPTIONAL,
	  .help = "the per-record transform: xor (the default), a built-in\n"
		  "(iostrat list --transforms) or a plug-in PATH.so[:ARG]" },
	{ .name = "cache", SETTING_ENUM(struct run_config, cache),
	  .values = cache_mode_names,
	  .def = "cold", .where = SET_BOTH, .column = "cache", .id = "%s",
	  .help = "input cache state per repetition (default cold)" },
	{ .name = "fsync", SETTING_ENUM(struct run_config, job.fsync),
	  .values = fsync_mode_names, .def = "file", .where = SET_BOTH,
	  .column = "fsync", .id = "fsync=%s",
	  .help = "when writes reach the disk (default file:\n"
		  "fsync each output inside the measured time)" },
	{ .name = "bufsize", SETTING_SIZE(struct run_config, job.bufsize), .min = 1,
	  .max = 1ULL << 30, .metavar = "B", .where = SET_BOTH, .column = "bufsize",
	  .id = "bufsize=%s", .flags = SETF_ID_OPTIONAL | SETF_COL_OPTIONAL,
	  .help = "buffer size (4096, 64k, 1M; strategy default if unset)" },
	{ .name = "chunk", SETTING_SIZE(struct run_config, job.chunk), .min = 1,
	  .max = 1ULL << 30, .metavar = "B", .where = SET_BOTH, .column = "chunk",
	  .id = "chunk=%s", .flags = SETF_ID_OPTIONAL | SETF_COL_OPTIONAL,
	  .help = "chunk size for chunked strategies" },
	{ .name = "qd", SETTING_UINT(struct run_config, job.qd), .min = 1, .max = 4096,
	  .metavar = "N", .where = SET_BOTH, .column = "qd", .id = "qd=%s",
	  .flags = SETF_ID_OPTIONAL | SETF_COL_OPTIONAL,
	  .help = "queue depth for async strategies" },
	{ .name = "direct", SETTING_BOOL(struct run_config, job.direct), .def = "0",
	  .where = SET_BOTH, .column = "direct", .id = "direct",
	  .flags = SETF_ID_OPTIONAL,
	  .help = "O_DIRECT where the strategy supports it" },
	{ .name = "dontcache", SETTING_BOOL(struct run_config, job.dontcache), .def = "0",
	  .where = SET_BOTH, .column = "dontcache", .id = "dontcache",
	  .flags = SETF_ID_OPTIONAL,
	  .help = "uncached buffered I/O (RWF_DONTCACHE, Linux 6.14): pages\n"
		  "dropped once read or written, where the strategy does it" },
	{ .name = "sink", SETTING_ENUM(struct run_config, job.sink), .values = sink_names,
	  .def = "file", .where = SET_BOTH, .column = "sink", .id = "sink=%s",
	  .flags = SETF_ID_OPTIONAL,
	  .help = "null: read and transform, write nothing" },
	{ .name = "memory_max", SETTING_SIZE(struct run_config, memory_max),
	  .max = 1ULL << 50, .def = "0", .metavar = "B", .where = SET_BOTH,
	  .column = "memory_max", .id = "memory_max=%s",
	  .flags = SETF_ID_OPTIONAL | SETF_COL_OPTIONAL,
	  .help = "memory limit of each repetition's cgroup (256M;\n"
		  "0, the default: none)" },
	{ .name = "accounting", SETTING_BOOL(struct run_config, accounting), .def = "0",
	  .where = SET_BOTH, .column = "accounting", .id = "accounting",
	  .flags = SETF_ID_OPTIONAL,
	  .help = "a cgroup per repetition without memory_max too, for\n"
		  "its own figures (peak anon/cache, reclaim, io, PSI)" },
	{ 0 },
};
