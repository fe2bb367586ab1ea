// SPDX-License-Identifier: MIT
/*
 * The ring of the io_uring pipeline: creation with the best setup flags
 * the kernel accepts, a clear error when io_uring is not available at all,
 * the registered buffer pool and the registered-file table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "lib/util.h"
#include "uring.h"

struct setup {
	unsigned flags;
	const char *name;
};

/* Newest first; a kernel that does not know a flag says -EINVAL. */
static const struct setup setups[] = {
	{ IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	  "single_issuer,defer_taskrun" },
	{ IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,
	  "single_issuer,coop_taskrun" },
	{ IORING_SETUP_COOP_TASKRUN, "coop_taskrun" },
	{ 0, "none" },
	{ 0, NULL },
};

/* --sqpoll's: the TASKRUN flags are refused with SQPOLL. */
static const struct setup sq_setups[] = {
	{ IORING_SETUP_SQPOLL | IORING_SETUP_SINGLE_ISSUER, "sqpoll,single_issuer" },
	{ IORING_SETUP_SQPOLL, "sqpoll" },
	{ 0, NULL },
};

/* Why io_uring_setup() refused, in words a user can act on. */
static const char *unavailable_reason(int err)
{
	char v[16];

	if (err == -ENOSYS)
		return "the kernel has no io_uring, or a seccomp filter hides it";
	if (err != -EPERM)
		return "io_uring_setup() refused";
	if (read_sysfs("/proc/sys/kernel/io_uring_disabled", v, sizeof(v)) == 0) {
		if (!strcmp(v, "2"))
			return "kernel.io_uring_disabled=2: io_uring is disabled for every process";
		if (!strcmp(v, "1"))
			return "kernel.io_uring_disabled=1: only root and kernel.io_uring_group may use it";
	}
	return "blocked by a seccomp filter or container policy";
}

static unsigned pow2_at_least(unsigned n)
{
	unsigned p = 8;

	while (p < n)
		p <<= 1;
	return p;
}

/* The first of list the kernel takes: 0, or what the last one got. */
static int ring_try(struct uctx *c, const struct setup *list, unsigned idle_ms)
{
	int ret = -EINVAL;

	for (size_t i = 0; list[i].name; i++) {
		struct io_uring_params p = { .flags = list[i].flags,
					     .sq_thread_idle = idle_ms };

		ret = io_uring_queue_init_params(c->ring_entries, &c->ring, &p);
		if (ret == 0) {
			c->ring_flags = list[i].name;
			c->ring_ok = true;
			return 0;
		}
		if (ret != -EINVAL)
			break;
	}
	return ret;
}

static int ring_create(struct uctx *c)
{
	const struct uring_opts *o = c->job->sopts;
	bool sq = o && o->sqpoll;
	int ret;

	/* Every buffer has at most one op in flight; plus the eventfd read
	 * and fsyncs, which the pipeline caps at the ring size. */
	c->ring_entries = pow2_at_least(c->nbuf + 8);
	if (c->ring_entries > 32768)
		c->ring_entries = 32768;
	ret = ring_try(c, sq ? sq_setups : setups, sq ? o->sq_idle_ms : 0);
	if (!ret)
		return 0;
	if (sq && (ret == -EPERM || ret == -EINVAL))
		return stats_failf(c->st, ret, "--sqpoll", "this kernel or its policy "
				   "refuses IORING_SETUP_SQPOLL (%s%s)", strerror(-ret),
				   ret == -EPERM ? ": before 5.11 it needs CAP_SYS_ADMIN" : "");
	return stats_failf(c->st, ret, "io_uring", "unavailable: %s (%s)",
			   strerror(-ret), unavailable_reason(ret));
}

static void register_pool(struct uctx *c)
{
	struct iovec *iov = calloc(c->nbuf, sizeof(*iov));

	if (!iov)
		return;
	for (unsigned i = 0; i < c->nbuf; i++) {
		iov[i].iov_base = c->chunks[i].buf;
		iov[i].iov_len = c->chunk;
	}
	/* Pinning may exceed RLIMIT_MEMLOCK: then plain reads/writes. */
	c->fixed_bufs = io_uring_register_buffers(&c->ring, iov, c->nbuf) == 0;
	free(iov);
}

static void register_file_table(struct uctx *c)
{
	/* An open file holds a buffer or a pending fsync, so nbuf plus the
	 * ring size bounds the open files; two slots each (in and out). */
	c->nslots = 2 * (c->nbuf + c->ring_entries + 2);
	c->slot_free = calloc(c->nslots, sizeof(int));
	if (!c->slot_free)
		return;
	if (io_uring_register_files_sparse(&c->ring, c->nslots) != 0) {
		free(c->slot_free);
		c->slot_free = NULL;
		return;
	}
	for (unsigned i = 0; i < c->nslots; i++)
		c->slot_free[i] = (int)(c->nslots - 1 - i);
	c->nslot_free = c->nslots;
	c->fixed_files = true;
}

int uring_ring_init(struct uctx *c)
{
	int ret = ring_create(c);

	if (ret)
		return ret;
	register_pool(c);
	register_file_table(c);
	return 0;
}

void uring_ring_exit(struct uctx *c)
{
	if (c->ring_ok)
		io_uring_queue_exit(&c->ring);
	c->ring_ok = false;
	free(c->slot_free);
	c->slot_free = NULL;
}

/* A registered slot for fd, or -1 (then the op uses the plain fd). */
int uring_slot_get(struct uctx *c, int fd)
{
	int slot;

	if (!c->fixed_files || !c->nslot_free)
		return -1;
	slot = c->slot_free[--c->nslot_free];
	if (io_uring_register_files_update(&c->ring, (unsigned)slot, &fd, 1) != 1) {
		c->nslot_free++;
		return -1;
	}
	return slot;
}

void uring_slot_put(struct uctx *c, int slot)
{
	int none = -1;

	if (slot < 0)
		return;
	io_uring_register_files_update(&c->ring, (unsigned)slot, &none, 1);
	c->slot_free[c->nslot_free++] = slot;
}

/* An SQE, submitting what is queued first if the SQ ring is full. */
struct io_uring_sqe *uring_sqe(struct uctx *c)
{
	struct io_uring_sqe *sqe;

	while (!(sqe = io_uring_get_sqe(&c->ring)))
		io_uring_submit(&c->ring);
	return sqe;
}
