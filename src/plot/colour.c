// SPDX-License-Identifier: MIT
/* One colour per strategy in every figure: its place in the registry is
 * its linetype in plots/palette.gp (Okabe-Ito, colour-blind safe). */
#include <string.h>

#include "core/strategy.h"
#include "plot.h"

int plot_colour(const char *strategy)
{
	const struct strategy *s;

	for (size_t i = 0; strategy && (s = strategy_at(i)); i++)
		if (!strcmp(s->name, strategy))
			return (int)i + 1 <= PLOT_COLOURS ? (int)i + 1 : PLOT_COLOURS;
	return 0;
}
