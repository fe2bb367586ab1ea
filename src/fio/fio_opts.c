// SPDX-License-Identifier: MIT
/* The fio baseline's settings: one table for `iostrat fio`, fio sections, rows and config_id. */
#include <stddef.h>

#include "fio.h"
#include "harness/runner.h"

#define FIO(f) offsetof(struct fio_config, f)

/* file and none as the id wrote them when fio knew only fsync_on_close */
static const char *const fsync_ids[] = { "1", "end", "0" };

/* Table order is config_id order: DATASET/fio-JOB/CACHE/bs=B/qd=N[/direct]/fsync=F */
const struct setting fio_settings[] = {
	{ .name = "job", .type = SET_STRING, .off = FIO(job), .where = SET_PROFILE,
	  .metavar = "JOB", .help = "the fio job: a name in fio-jobs/ or a path "
	  "(default: the one mirroring strategy=)" },
	{ .name = "cache", .type = SET_ENUM, .off = FIO(cache), .values = cache_mode_names,
	  .def = "cold", .where = SET_BOTH, .column = "cache", .id = "%s",
	  .help = "the input's cache state before each repetition (default cold)" },
	{ .name = "bs", .type = SET_SIZE, .off = FIO(bs), .min = 512,
	  .max = 1ULL << 30, .metavar = "B", .where = SET_BOTH, .column = "bufsize",
	  .id = "bs=%s", .help = "block size (default: chunk=, else bufsize=,\n"
	  "else the strategy's I/O size, else 1M)" },
	{ .name = "chunk", .type = SET_SIZE, .off = FIO(chunk), .min = 1,
	  .max = 1ULL << 30, .metavar = "B", .where = SET_PROFILE,
	  .help = "a run's chunk size: the block size when bs= is not given" },
	{ .name = "bufsize", .type = SET_SIZE, .off = FIO(bufsize), .min = 1,
	  .max = 1ULL << 30, .metavar = "B", .where = SET_PROFILE,
	  .help = "a run's buffer size: the block size when neither bs= nor chunk= is" },
	{ .name = "qd", .type = SET_UINT, .off = FIO(qd), .min = 1, .max = 4096,
	  .metavar = "N", .where = SET_BOTH, .column = "qd", .id = "qd=%s",
	  .help = "I/O depth of the io_uring jobs (default: the strategy's, else 8)" },
	{ .name = "direct", .type = SET_BOOL, .off = FIO(direct), .def = "0",
	  .where = SET_BOTH, .column = "direct", .id = "direct",
	  .flags = SETF_ID_OPTIONAL, .help = "O_DIRECT (IOSTRAT_DIRECT=1 in the job)" },
	{ .name = "fsync", .type = SET_ENUM, .off = FIO(fsync), .values = fsync_mode_names,
	  .id_values = fsync_ids, .def = "file", .where = SET_BOTH, .column = "fsync",
	  .id = "fsync=%s",
	  .help = "file (default): fsync each written file as it closes\n"
		  "(fio's fsync_on_close); end: one fsync when the writes\n"
		  "end (end_fsync); none: neither" },
	{ .name = "client", .type = SET_STRING, .off = FIO(client), .where = SET_BOTH,
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
