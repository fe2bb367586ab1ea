/* SPDX-License-Identifier: MIT */
/* The two clocks: monotonic for intervals, real time for stamps. */
#ifndef IOSTRAT_LIB_CLOCK_H
#define IOSTRAT_LIB_CLOCK_H

double now_mono(void);   /* CLOCK_MONOTONIC seconds */
double now_real(void);   /* CLOCK_REALTIME seconds */

#endif
