// SPDX-License-Identifier: MIT
/* The score table of the API sweep (see score.h). */
#include "score.h"

static int present(double v)
{
	return v > 0; /* false for NaN too */
}

static void score_row(const double *row, size_t napis, int *points)
{
	int k = 0;

	for (size_t a = 0; a < napis; a++)
		k += present(row[a]);
	for (size_t a = 0; a < napis; a++) {
		int faster = 0;

		points[a] = 0;
		if (!present(row[a]))
			continue;
		for (size_t b = 0; b < napis; b++)
			if (present(row[b]) && row[b] < row[a])
				faster++;
		points[a] = k - faster;
	}
}

void score_table(const double *med, size_t nrows, size_t napis, int *points,
		 int *totals)
{
	for (size_t a = 0; a < napis; a++)
		totals[a] = 0;
	for (size_t r = 0; r < nrows; r++) {
		score_row(med + r * napis, napis, points + r * napis);
		for (size_t a = 0; a < napis; a++)
			totals[a] += points[r * napis + a];
	}
}

void score_order(const int *totals, size_t napis, size_t *order)
{
	for (size_t i = 0; i < napis; i++)
		order[i] = i;
	/* insertion sort: stable, napis is tiny */
	for (size_t i = 1; i < napis; i++) {
		size_t v = order[i], j = i;

		while (j > 0 && totals[order[j - 1]] < totals[v]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = v;
	}
}
