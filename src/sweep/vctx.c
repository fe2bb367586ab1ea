// SPDX-License-Identifier: MIT
/* The helpers of a sweep variant: its measured bracket, its data and its failure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "vctx.h"

/* One pread of /proc/self/io: the kernel counts it in the next snapshot
 * (measure.c calibrates that as io_self). */
static void pio_read(const struct vctx *c, struct pio *p)
{
	char buf[512], *s;
	ssize_t n;

	memset(p, 0, sizeof(*p));
	if (c->io_fd < 0)
		return;
	n = pread(c->io_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return;
	buf[n] = 0;
	s = strstr(buf, "syscr:");
	if (s)
		p->syscr = strtoull(s + 6, NULL, 10);
	s = strstr(buf, "syscw:");
	if (s)
		p->syscw = strtoull(s + 6, NULL, 10);
}

void vctx_start(struct vctx *c)
{
	pio_read(c, &c->io0);
	getrusage(RUSAGE_SELF, &c->r0);
	c->t0 = now_mono();
}

void vctx_stop(struct vctx *c)
{
	c->t1 = now_mono();
	getrusage(RUSAGE_SELF, &c->r1);
	pio_read(c, &c->io1);
}

void vctx_feed(struct vctx *c, const void *p, size_t n)
{
	c->bytes += n;
	if (c->corrupt && !c->flipped && n) {
		unsigned char b = *(const unsigned char *)p ^ 1;

		c->flipped = true;
		XXH3_64bits_update(c->xs, &b, 1);
		p = (const unsigned char *)p + 1;
		n--;
	}
	XXH3_64bits_update(c->xs, p, n);
}

const unsigned char *vctx_src(const struct vctx *c, uint64_t off, size_t n)
{
	(void)n; /* measure.c sized src for the largest n of this variant */
	return c->src + off % c->period;
}

int vctx_fail(struct vctx *c, int err, const char *path, const char *what)
{
	if (!c->err) {
		c->err = err;
		snprintf(c->errmsg, sizeof(c->errmsg), "%s: %s: %s", path, what,
			 strerror(-err));
	}
	return err;
}
