// SPDX-License-Identifier: MIT
/* Who the OOM killer takes in a repetition: the child first. */
#include <fcntl.h>
#include <unistd.h>

#include "oom_order.h"

void oom_order_child_first(void)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return; /* no /proc: the kernel picks by size alone */
	if (write(fd, "1000", 4) != 4) {
		/* as above */
	}
	close(fd);
}
