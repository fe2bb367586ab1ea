// SPDX-License-Identifier: MIT
/* One sweep variant measured in its own forked child (time, rusage, I/O counts). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "measure.h"
#include "pattern.h"

volatile sig_atomic_t measure_stop;

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static double tv_diff(struct timeval a, struct timeval b)
{
	return tv_s(b) - tv_s(a);
}

/* How many read calls one snapshot of /proc/self/io adds to syscr. */
static void calibrate_pio(struct vctx *c)
{
	struct pio a, b;

	c->io_fd = open("/proc/self/io", O_RDONLY | O_CLOEXEC);
	if (c->io_fd < 0)
		return;
	vctx_start(c);
	a = c->io0;
	vctx_start(c);
	b = c->io0;
	c->io_self = (unsigned)(b.syscr - a.syscr);
	c->t0 = 0; /* not started yet */
}

static int child_setup(struct vctx *c, bool write)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	calibrate_pio(c);
	if (write) {
		c->period = PATTERN_PERIOD;
		c->src = pattern_build(c->seed, c->block);
		if (!c->src)
			return vctx_fail(c, -ENOMEM, "source data", "allocating");
		if (c->corrupt)
			c->src[0] ^= 1;
		return 0;
	}
	c->xs = XXH3_createState();
	if (!c->xs)
		return vctx_fail(c, -ENOMEM, "checksum state", "allocating");
	XXH3_64bits_reset(c->xs);
	return 0;
}

static void __attribute__((noreturn))
child_main(variant_fn fn, struct vctx *c, bool write, struct measurement *m)
{
	int ret = child_setup(c, write);

	if (!ret)
		ret = fn(c);
	if (!c->t1 && c->t0)
		vctx_stop(c);
	m->err = ret ? ret : c->err;
	snprintf(m->errmsg, sizeof(m->errmsg), "%s", c->errmsg);
	m->elapsed = c->t1 - c->t0;
	m->user = tv_diff(c->r0.ru_utime, c->r1.ru_utime);
	m->sys = tv_diff(c->r0.ru_stime, c->r1.ru_stime);
	m->bytes = c->bytes;
	m->syscalls = c->syscalls;
	m->syscr = m->syscw = -1;
	if (c->io_fd >= 0) {
		m->syscr = (int64_t)(c->io1.syscr - c->io0.syscr - c->io_self);
		m->syscw = (int64_t)(c->io1.syscw - c->io0.syscw);
	}
	m->lib_buf = c->lib_buf;
	if (!write && c->xs) {
		m->sum = XXH3_64bits_digest(c->xs);
		m->have_sum = true;
	}
	_exit(m->err ? 1 : 0);
}

static void fill_wait(struct measurement *m, const struct rusage *ru,
		      double elapsed)
{
	m->proc_elapsed = elapsed;
	m->proc_user = tv_s(ru->ru_utime);
	m->proc_sys = tv_s(ru->ru_stime);
	m->maxrss_kb = ru->ru_maxrss;
	m->minflt = ru->ru_minflt;
	m->majflt = ru->ru_majflt;
	m->nvcsw = ru->ru_nvcsw;
	m->nivcsw = ru->ru_nivcsw;
}

int measure_variant(variant_fn fn, struct vctx *c, bool write,
		    struct measurement *m)
{
	struct measurement *shared;
	struct rusage ru;
	int status = 0;
	double t0;
	pid_t pid;

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return -errno;
	memset(shared, 0, sizeof(*shared));
	shared->err = -ECHILD; /* stays if the child dies before reporting */
	fflush(NULL);
	t0 = now_mono();
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		munmap(shared, sizeof(*shared));
		return err;
	}
	if (pid == 0)
		child_main(fn, c, write, shared);
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno == EINTR && measure_stop) {
			kill(pid, SIGKILL); /* Ctrl-C reached only us */
			continue;
		}
		if (errno != EINTR) {
			int err = -errno;

			munmap(shared, sizeof(*shared));
			return err;
		}
	}
	*m = *shared;
	munmap(shared, sizeof(*shared));
	fill_wait(m, &ru, now_mono() - t0);
	if (WIFSIGNALED(status)) {
		m->err = -EINTR;
		snprintf(m->errmsg, sizeof(m->errmsg), "killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else if (m->err == -ECHILD && !m->errmsg[0]) {
		snprintf(m->errmsg, sizeof(m->errmsg), "exited %d without a report",
			 WEXITSTATUS(status));
	}
	return 0;
}
