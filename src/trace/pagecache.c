// SPDX-License-Identifier: MIT
/* Loader and reader of ebpf/pagecache.bpf.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace.h"

#ifdef IOSTRAT_NO_BPF
int pagecache_load(struct tracer *t, char *why, size_t len)
{
	(void)t;
	snprintf(why, len, "built without eBPF probes: %s", IOSTRAT_NO_BPF);
	return -ENOTSUP;
}
void pagecache_unload(struct tracer *t) { (void)t; }
void pagecache_detach(struct tracer *t) { (void)t; }
int pagecache_attach(struct tracer *t) { (void)t; return -ENOTSUP; }
int pagecache_reset(struct tracer *t) { (void)t; return -ENOTSUP; }
int pagecache_watch(struct tracer *t, pid_t pid)
{
	(void)t;
	(void)pid;
	return -ENOTSUP;
}
int tracer_watch_file(struct tracer *t, dev_t dev, ino_t ino)
{
	(void)t;
	(void)dev;
	(void)ino;
	return -ENOTSUP;
}
int tracer_unwatch_files(struct tracer *t) { (void)t; return -ENOTSUP; }
int tracer_read_pc(struct tracer *t, struct pc_stats *out)
{
	(void)t;
	memset(out, 0, sizeof(*out));
	return -ENOTSUP;
}
#else
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ebpf/pagecache.skel.h"
#include "probe.h"

static unsigned page_shift(void)
{
	long sz = sysconf(_SC_PAGESIZE);
	unsigned s = 0;

	while (sz > 1) {
		sz >>= 1;
		s++;
	}
	return s ? s : 12;
}

int pagecache_load(struct tracer *t, char *why, size_t len)
{
	int err = -ENOENT;

	for (int fam = probe_first_family(); fam < PROBE_FAMILIES; fam++) {
		struct pagecache_bpf *s;
		int perr = probe_prepare(fam);

		if (perr && fam == probe_first_family()) {
			tracefs_explain(perr, "page-cache probes", why, len);
			return perr;
		}
		if (perr)
			break; /* keep the error of the family before */
		s = pagecache_bpf__open();

		if (!s) {
			err = -errno;
			break;
		}
		s->rodata->targ_fs_dev = t->filter.fs_dev;
		s->rodata->filter_pids = t->filter.pids;
		s->rodata->filter_files = t->filter.files;
		s->rodata->page_shift = page_shift();
		probe_select(s->obj, fam);
		err = pagecache_bpf__load(s);
		if (!err)
			err = pagecache_bpf__attach(s);
		if (!err) {
			t->pc = s;
			t->pc_mode = probe_family_name[fam];
			return 0;
		}
		pagecache_bpf__destroy(s);
		if (err == -EPERM)
			break; /* no family will do better */
	}
	probe_explain(err, "page-cache probes", why, len);
	return err;
}

void pagecache_detach(struct tracer *t)
{
	if (t->pc)
		pagecache_bpf__detach(t->pc);
}

int pagecache_attach(struct tracer *t)
{
	return pagecache_bpf__attach(t->pc);
}

void pagecache_unload(struct tracer *t)
{
	pagecache_bpf__destroy(t->pc);
	t->pc = NULL;
}

int pagecache_reset(struct tracer *t)
{
	struct pagecache_bpf *s = t->pc;
	int ret;

	ret = probe_zero_percpu(bpf_map__fd(s->maps.stats), sizeof(struct pc_stats), 1);
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.pids), sizeof(__u32));
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.threads), sizeof(__u32));
	if (!ret)
		ret = probe_clear_map(bpf_map__fd(s->maps.files), sizeof(struct pc_file));
	return ret;
}

int pagecache_watch(struct tracer *t, pid_t pid)
{
	__u32 key = (__u32)pid;
	__u8 one = 1;

	if (bpf_map_update_elem(bpf_map__fd(t->pc->maps.pids), &key, &one, BPF_ANY))
		return -errno;
	return 0;
}

int tracer_watch_file(struct tracer *t, dev_t dev, ino_t ino)
{
	struct pc_file f = { .ino = ino, .dev = kdev_of(dev) };
	__u8 one = 1;

	if (bpf_map_update_elem(bpf_map__fd(t->pc->maps.watch), &f, &one, BPF_ANY))
		return errno == E2BIG || errno == ENOSPC ? -E2BIG : -errno;
	return 0;
}

int tracer_unwatch_files(struct tracer *t)
{
	return probe_clear_map(bpf_map__fd(t->pc->maps.watch), sizeof(struct pc_file));
}

int tracer_read_pc(struct tracer *t, struct pc_stats *out)
{
	__u32 zero = 0;

	return probe_sum_percpu(bpf_map__fd(t->pc->maps.stats), &zero,
				sizeof(*out), out);
}
#endif
