// SPDX-License-Identifier: MIT
/* The fio baseline's settings: one table for `iostrat fio`, fio sections, rows and config_id. */
#include <stddef.h>

#include "fio.h"
#include "harness/runner.h"

/* file and none as the id wrote them when fio knew only fsync_on_close */
static const char *const fsync_ids[] = { "1", "end", "0" };

/* Table order is config_id order: DATASET/fio-JOB/CACHE/bs=B/qd=N[/direct]/fsync=F */
const struct setting fio_settings[] = {
	{ .name = "job", SETTING_STRING(struct fio_config, job), .where = SET_PROFILE,
	  .metavar = "JOB", .help = "the fio job: a name in fio-jobs/ or a path "
	  "(default: the one mirroring strategy=)" },
	{ .name = "cache", SETTING_ENUM(struct fio_config, cache),
	  .values = cache_mode_names,
	  .def = "cold", .where = SET_BOTH, .column = "cache", .id = "%s",
	  .help = "the input's cache state before each repetition (default cold)" },
	{ .name = "bs", SETTING_SIZE(struct fio_config, bs), .min = 512,
	  .max = 1ULL << 30, .metavar = "B", .where = SET_BOTH, .column = "bufsize",
	  .id = "bs=%s", .help = "block size (default: chunk=, else bufsize=,\n"
	  "else the strategy's I/O size, else 1M)" },
	{ .name = "chunk", SETTING_SIZE(struct fio_config, chunk), .min = 1,
	  .max = 1ULL << 30, .metavar = "B", .where = SET_PROFILE,
	  .help = "a run's chunk size: the block size when bs= is not given" },
	{ .name = "bufsize", SETTING_SIZE(struct fio_config, bufsize), .min = 1,
	  .max = 1ULL << 30, .metavar = "B", .where = SET_PROFILE,
	  .help = "a run's buffer size: the block size when neither bs= nor chunk= is" },
	{ .name = "qd", SETTING_UINT(struct fio_config, qd), .min = 1, .max = 4096,
	  .metavar = "N", .where = SET_BOTH, .column = "qd", .id = "qd=%s",
	  .help = "I/O depth of the io_uring jobs (default: the strategy's, else 8)" },
	{ .name = "direct", SETTING_BOOL(struct fio_config, direct), .def = "0",
	  .where = SET_BOTH, .column = "direct", .id = "direct",
	  .flags = SETF_ID_OPTIONAL, .help = "O_DIRECT (IOSTRAT_DIRECT=1 in the job)" },
	{ .name = "fsync", SETTING_ENUM(struct fio_config, fsync),
	  .values = fsync_mode_names,
	  .id_values = fsync_ids, .def = "file", .where = SET_BOTH, .column = "fsync",
	  .id = "fsync=%s",
	  .help = "file (default): fsync each written file as it closes\n"
		  "(fio's fsync_on_close); end: one fsync when the writes\n"
		  "end (end_fsync); none: neither" },
	{ .name = "client", SETTING_STRING(struct fio_config, client), .where = SET_BOTH,
	  .metavar = "HOST[:PORT],...",
	  .help = "run the job on these hosts through fio's own client" },
	{ 0 },
};

void fio_config_resolve(struct fio_config *c, const char *strategy,
			bool always_direct)
{
	c->bs = fio_bs_for(strategy, c->bs ? c->bs : c->chunk, c->bufsize);
	c->qd = fio_qd_for(strategy, c->qd);
	c->direct = c->direct || always_direct;
}
