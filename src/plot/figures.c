// SPDX-License-Identifier: MIT
/* The table of figure kinds, in the order `iostrat plot` draws them. */
#include <stddef.h>

#include "plot.h"

/* Every figure kind, in the order `iostrat plot` draws them. */
const struct figure plot_figures[] = {
	{ "grid", "the study grid: elapsed vs threads per strategy, a panel per work level",
	  &fig_grid },
	{ "ratios", "per verdict cell: the runner-up's time over the fastest's, round by round, with the race's interval and the min_effect band",
	  &fig_ratios },
	{ "memory", "peak RSS per strategy by data set and threads (log scale)",
	  &fig_memory },
	{ "cpu", "user, system and kernel-thread CPU per configuration (stacked) beside elapsed",
	  &fig_cpu },
	{ "memlimit", "elapsed per strategy against memory_max, runs the limit killed marked",
	  &fig_memlimit },
	{ "fio", "each strategy's throughput as a ratio to its fio baseline",
	  &fig_fio },
	{ "limits", "per cell: each strategy's MB/s against CPU per GB, the machine's measured limits as lines, the CPU roofline",
	  &fig_limits },
	{ "kernel", "eBPF view: sequential share per strategy, page-cache hit ratio per cache state",
	  &fig_kernel },
	{ "rounds", "per verdict cell: each strategy's elapsed by round, so drift and outliers are seen",
	  &fig_rounds },
	{ "iotime", "per verdict cell: the disk's read and write MB/s over each strategy's median repetition",
	  &fig_iotime },
	{ "reqlat", "eBPF view: block requests' queue and device time per strategy, log2 us histograms",
	  &fig_reqlat },
	{ "compare", "runs side by side (schedulers, kernels): median per configuration, * = significant",
	  &fig_compare },
	{ "sweep", "block size, buffer size and API sweeps: elapsed and CPU time vs size",
	  &fig_sweep },
	{ "net", "network streams: messages/s and syscalls per message by mode",
	  &fig_net },
	{ NULL, NULL, NULL },
};
