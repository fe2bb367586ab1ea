// SPDX-License-Identifier: MIT
/* Standard output that cannot be written is a failure, as any other file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "closeout.h"
#include "lib/util.h"

/*
 * A closed fd 1 (`iostrat list >&-`) would be taken by the next open(), a
 * results file say, and our output written into it.  Hold it with
 * /dev/null opened read-only instead: every write to standard output then
 * fails (EBADF) and stdout_close says so, while no file of ours is fd 1.
 */
void stdout_hold(void)
{
	int fd;

	if (fcntl(STDOUT_FILENO, F_GETFD) >= 0 || errno != EBADF)
		return;
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != STDOUT_FILENO) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
}

int stdout_close(int ret)
{
	bool bad;
	int err;

	errno = 0;
	bad = fflush(stdout) != 0 || ferror(stdout);
	err = errno; /* 0 when an earlier flush failed and said no more */

	if (fclose(stdout) != 0 && !bad) {
		bad = true;
		err = errno;
	}
	if (!bad)
		return ret;
	errorf("write error: standard output: %s", strerror(err ? err : EIO));
	return ret ? ret : 1;
}
