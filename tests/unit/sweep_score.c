// SPDX-License-Identifier: MIT
/* The score table of `iostrat sweep api` on synthetic medians. */
#include <math.h>

#include "sweep/score.h"
#include "unit.h"

/* 3 sizes x 4 APIs (syscall, stdio, iostream, mmap) */
UNIT(points_and_totals)
{
	const double med[] = {
		9.0, 2.0, 3.0, 1.0,   /* mmap 4, stdio 3, iostream 2, syscall 1 */
		1.0, 2.0, 3.0, 4.0,   /* syscall 4 ... mmap 1 */
		2.0, 1.0, 4.0, 3.0,   /* stdio 4, syscall 3, mmap 2, iostream 1 */
	};
	int pts[12], tot[4];
	size_t order[4];

	score_table(med, 3, 4, pts, tot);
	CHECK(pts[0] == 1 && pts[1] == 3 && pts[2] == 2 && pts[3] == 4, "row 0");
	CHECK(pts[4] == 4 && pts[7] == 1, "row 1");
	CHECK(tot[0] == 8 && tot[1] == 10 && tot[2] == 5 && tot[3] == 7,
	      "totals %d %d %d %d", tot[0], tot[1], tot[2], tot[3]);
	score_order(tot, 4, order);
	CHECK(order[0] == 1 && order[1] == 0 && order[2] == 3 && order[3] == 2,
	      "order %zu %zu %zu %zu", order[0], order[1], order[2], order[3]);
	return 0;
}

/* equal medians share the higher points: 4, 3, 3, 1 */
UNIT(ties_share_points)
{
	const double med[] = { 1.0, 2.0, 2.0, 5.0 };
	int pts[4], tot[4];
	size_t order[4];

	score_table(med, 1, 4, pts, tot);
	CHECK(pts[0] == 4 && pts[1] == 3 && pts[2] == 3 && pts[3] == 1,
	      "%d %d %d %d", pts[0], pts[1], pts[2], pts[3]);
	score_order(tot, 4, order);
	CHECK(order[1] == 1 && order[2] == 2, "stable order for ties");
	return 0;
}

/* an API missing in a row scores 0 there and k shrinks */
UNIT(missing_values)
{
	const double med[] = { NAN, 2.0, 1.0, 0.0 };
	int pts[4], tot[4];

	score_table(med, 1, 4, pts, tot);
	CHECK(pts[0] == 0 && pts[3] == 0, "missing get 0");
	CHECK(pts[2] == 2 && pts[1] == 1, "%d %d", pts[2], pts[1]);
	return 0;
}
