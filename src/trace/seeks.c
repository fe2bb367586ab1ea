// SPDX-License-Identifier: MIT
/* Loader and reader of ebpf/seeks.bpf.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#ifdef IOSTRAT_NO_BPF
int tracer_read_seeks(struct tracer *t, struct seek_entry **out, size_t *n)
{
	(void)t;
	*out = NULL;
	*n = 0;
	return -ENOTSUP;
}
#else
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ebpf/seeks.skel.h"
#include "probe.h"

/* Attach points, best source first (ebpf/seeks.bpf.c). */
static const struct probe_cand issue_cands[] = {
	{ "btf_rq_issue", PSRC_TP_BTF, "block_rq_issue", "request", NULL },
	{ "btf_rq_issue_q", PSRC_TP_BTF, "block_rq_issue", "request_queue", NULL },
	{ "raw_rq_issue", PSRC_RAW_TP, "block_rq_issue", "request", NULL },
	{ "raw_rq_issue_q", PSRC_RAW_TP, "block_rq_issue", "request_queue", NULL },
	{ "tp_rq_issue", PSRC_TRACEPOINT, "block/block_rq_issue", NULL,
	  "trace_event_raw_block_rq" },
	{ NULL },
};

static const struct probe_cand complete_cands[] = {
	{ "btf_rq_complete", PSRC_TP_BTF, "block_rq_complete", "request", NULL },
	{ "raw_rq_complete", PSRC_RAW_TP, "block_rq_complete", "request", NULL },
	{ "tp_rq_complete", PSRC_TRACEPOINT, "block/block_rq_complete", NULL,
	  "trace_event_raw_block_rq_completion" },
	{ "tp_rq_complete_old", PSRC_TRACEPOINT, "block/block_rq_complete", NULL,
	  "trace_event_raw_block_rq_complete" },
	{ NULL },
};

static const struct probe_point seeks_points[] = {
	{ "rq_issue", "block requests", issue_cands, false },
	{ "rq_complete", "block latency", complete_cands, false },
};

static int seeks_open(const struct tracer *t, void **skel, struct bpf_object **obj)
{
	struct seeks_bpf *s = seeks_bpf__open();

	if (!s)
		return -errno;
	s->rodata->targ_dev = t->filter.disk_dev;
	*skel = s;
	*obj = s->obj;
	return 0;
}

static int seeks_load(void *skel)
{
	return seeks_bpf__load(skel);
}

static void seeks_destroy(void *skel)
{
	seeks_bpf__destroy(skel);
}

static int seeks_reset(void *skel)
{
	struct seeks_bpf *s = skel;
	int ret;

	ret = probe_clear_map(bpf_map__fd(s->maps.stats), sizeof(struct seek_key));
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.last_end),
				      sizeof(struct seek_key));
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.start),
				      sizeof(struct seek_rq));
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.inflight), sizeof(__u32));
	return ret;
}

const struct probe_ops seeks_probe = {
	.name = "block",
	.points = seeks_points,
	.npoints = sizeof(seeks_points) / sizeof(seeks_points[0]),
	.open = seeks_open,
	.load = seeks_load,
	.destroy = seeks_destroy,
	.reset = seeks_reset,
};

static int cmp_entry(const void *a, const void *b)
{
	const struct seek_key *x = &((const struct seek_entry *)a)->key;
	const struct seek_key *y = &((const struct seek_entry *)b)->key;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return (x->dir > y->dir) - (x->dir < y->dir);
}

int tracer_read_seeks(struct tracer *t, struct seek_entry **out, size_t *n)
{
	struct seeks_bpf *s = t->probes[PROBE_SEEKS].skel;
	struct seek_key key, last;
	bool have = false;
	struct seek_entry *e = NULL;
	size_t cnt = 0, cap = 0;
	int fd;

	*out = NULL;
	*n = 0;
	if (!s)
		return 0; /* not loaded: no figures, tracer_source() says so */
	fd = bpf_map__fd(s->maps.stats);
	while (!bpf_map_get_next_key(fd, have ? &last : NULL, &key)) {
		last = key;
		have = true;
		if (cnt == cap) {
			struct seek_entry *ne = realloc(e, (cap = cap ? cap * 2 : 4) *
							sizeof(*e));
			if (!ne) {
				free(e);
				return -ENOMEM;
			}
			e = ne;
		}
		e[cnt].key = key;
		if (!probe_sum_percpu(fd, &key, sizeof(struct seek_stats),
				      &e[cnt].st))
			cnt++;
	}
	if (cnt)
		qsort(e, cnt, sizeof(*e), cmp_entry);
	*out = e;
	*n = cnt;
	return 0;
}
#endif
