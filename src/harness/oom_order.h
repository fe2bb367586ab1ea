/* SPDX-License-Identifier: MIT */
/* Who the OOM killer takes in a repetition: the child first. */
#ifndef IOSTRAT_HARNESS_OOM_ORDER_H
#define IOSTRAT_HARNESS_OOM_ORDER_H

/* In the repetition's child: its score raised to the most (no privilege
 * needed), so a limit of any cgroup that holds the harness too kills the
 * child, never the harness that reports the kill. */
void oom_order_child_first(void);

#endif
