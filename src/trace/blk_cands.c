// SPDX-License-Identifier: MIT
/* The attach candidates of the block request events (ebpf/blk_rq.bpf.h's
 * programs), one list per event for every block probe. */
#include "blk_cands.h"

/* An event with (rq) from 5.11 and (q, rq) before: BLK_RQ_PROGS_Q. */
#define CANDS_Q(EV)                                                          \
	{ "btf_" EV, PSRC_TP_BTF, "block_" EV, "request", NULL },            \
	{ "btf_" EV "_q", PSRC_TP_BTF, "block_" EV, "request_queue", NULL }, \
	{ "raw_" EV, PSRC_RAW_TP, "block_" EV, "request", NULL },            \
	{ "raw_" EV "_q", PSRC_RAW_TP, "block_" EV, "request_queue", NULL }, \
	{ "tp_" EV, PSRC_TRACEPOINT, "block/block_" EV, NULL,                \
	  "trace_event_raw_block_rq" },                                     \
	{ NULL }

const struct probe_cand blk_rq_insert_cands[] = { CANDS_Q("rq_insert") };
const struct probe_cand blk_rq_issue_cands[] = { CANDS_Q("rq_issue") };

/* The classic record was renamed in 5.17 (block_rq_completion). */
const struct probe_cand blk_rq_complete_cands[] = {
	{ "btf_rq_complete", PSRC_TP_BTF, "block_rq_complete", "request", NULL },
	{ "raw_rq_complete", PSRC_RAW_TP, "block_rq_complete", "request", NULL },
	{ "tp_rq_complete", PSRC_TRACEPOINT, "block/block_rq_complete", NULL,
	  "trace_event_raw_block_rq_completion" },
	{ "tp_rq_complete_old", PSRC_TRACEPOINT, "block/block_rq_complete", NULL,
	  "trace_event_raw_block_rq_complete" },
	{ NULL },
};
