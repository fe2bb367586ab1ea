// SPDX-License-Identifier: MIT
/* The table of figure kinds, in the order `iostrat plot` draws them. */
#include <stddef.h>

#include "plot.h"

/* Every figure kind, in the order `iostrat plot` draws them. */
extern const struct figure fig_grid, fig_memory, fig_cpu, fig_fio, fig_kernel,
	fig_sweep, fig_net, fig_compare;

const struct figure *const plot_figures[] = {
	&fig_grid,
	&fig_memory,
	&fig_cpu,
	&fig_fio,
	&fig_kernel,
	&fig_compare,
	&fig_sweep,
	&fig_net,
	NULL,
};
