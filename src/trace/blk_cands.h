/* SPDX-License-Identifier: MIT */
/* The attach candidates of the block request events, shared by every block
 * probe: the programs ebpf/blk_rq.bpf.h defines, best source first. */
#ifndef IOSTRAT_TRACE_BLK_CANDS_H
#define IOSTRAT_TRACE_BLK_CANDS_H

#include "probe.h"

extern const struct probe_cand blk_rq_insert_cands[];
extern const struct probe_cand blk_rq_issue_cands[];
extern const struct probe_cand blk_rq_complete_cands[];

#endif
