/* SPDX-License-Identifier: MIT */
/* A scratch directory for one unit binary, and stderr captured into it
 * while a call prints its warning or refusal. */
#ifndef IOSTRAT_UNIT_SCRATCH_H
#define IOSTRAT_UNIT_SCRATCH_H

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char scratch[PATH_MAX];
static int scratch_saved_err = -1;

/* Make /tmp/iostrat-unit-NAME.XXXXXX into scratch: 0, or 1 (said). */
static inline int scratch_make(const char *name)
{
	snprintf(scratch, sizeof(scratch), "/tmp/iostrat-unit-%s.XXXXXX", name);
	if (mkdtemp(scratch))
		return 0;
	perror("mkdtemp");
	return 1;
}

/* Remove scratch and all below it; the binary's exit status from failed
 * (1 when it could not run rm). */
static inline int scratch_done(int failed)
{
	char rm[PATH_MAX + 16];

	snprintf(rm, sizeof(rm), "rm -rf %s", scratch);
	return system(rm) < 0 ? 1 : failed;
}

/* The binary's fixture: scratch made before its first case, removed
 * after its last. */
#define UNIT_SCRATCH(name)                                                 \
	static int scratch_before(void)                                    \
	{                                                                  \
		return scratch_make(name);                                 \
	}                                                                  \
	UNIT_FIXTURE(scratch_before, scratch_done)

/* stderr into scratch/err until scratch_captured. */
static inline void scratch_capture(void)
{
	char p[PATH_MAX + 8];
	int fd;

	fflush(stderr);
	snprintf(p, sizeof(p), "%s/err", scratch);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	scratch_saved_err = dup(2);
	dup2(fd, 2);
	close(fd);
}

/* stderr back; what it got since scratch_capture (a static buffer). */
static inline const char *scratch_captured(void)
{
	static char buf[1024];
	char p[PATH_MAX + 8];
	FILE *f;
	size_t n;

	fflush(stderr);
	dup2(scratch_saved_err, 2);
	close(scratch_saved_err);
	snprintf(p, sizeof(p), "%s/err", scratch);
	f = fopen(p, "r");
	n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = 0;
	if (f)
		fclose(f);
	return buf;
}

#endif
