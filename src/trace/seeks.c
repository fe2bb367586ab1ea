// SPDX-License-Identifier: MIT
/* Loader and reader of ebpf/seeks.bpf.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#ifdef IOSTRAT_NO_BPF
int seeks_load(struct tracer *t, char *why, size_t len)
{
	(void)t;
	snprintf(why, len, "built without eBPF probes: %s", IOSTRAT_NO_BPF);
	return -ENOTSUP;
}
void seeks_unload(struct tracer *t) { (void)t; }
void seeks_detach(struct tracer *t) { (void)t; }
int seeks_attach(struct tracer *t) { (void)t; return -ENOTSUP; }
int seeks_reset(struct tracer *t) { (void)t; return -ENOTSUP; }
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

int seeks_load(struct tracer *t, char *why, size_t len)
{
	int err = -ENOENT;

	for (int fam = probe_first_family(); fam < PROBE_FAMILIES; fam++) {
		struct seeks_bpf *s;
		int perr = probe_prepare(fam);

		if (perr && fam == probe_first_family()) {
			tracefs_explain(perr, "block probes", why, len);
			return perr;
		}
		if (perr)
			break; /* keep the error of the family before */
		s = seeks_bpf__open();

		if (!s) {
			err = -errno;
			break;
		}
		s->rodata->targ_dev = t->filter.disk_dev;
		probe_select(s->obj, fam);
		err = seeks_bpf__load(s);
		if (!err)
			err = seeks_bpf__attach(s);
		if (!err) {
			t->sk = s;
			t->sk_mode = probe_family_name[fam];
			return 0;
		}
		seeks_bpf__destroy(s);
		if (err == -EPERM)
			break; /* no family will do better */
	}
	probe_explain(err, "block probes", why, len);
	return err;
}

void seeks_detach(struct tracer *t)
{
	if (t->sk)
		seeks_bpf__detach(t->sk);
}

int seeks_attach(struct tracer *t)
{
	return seeks_bpf__attach(t->sk);
}

void seeks_unload(struct tracer *t)
{
	seeks_bpf__destroy(t->sk);
	t->sk = NULL;
}

int seeks_reset(struct tracer *t)
{
	struct seeks_bpf *s = t->sk;
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
	int fd = bpf_map__fd(t->sk->maps.stats);
	struct seek_key key, last;
	bool have = false;
	struct seek_entry *e = NULL;
	size_t cnt = 0, cap = 0;

	*out = NULL;
	*n = 0;
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
