// SPDX-License-Identifier: MIT
/* Knee detection of `iostrat sweep bufsize` on synthetic series. */
#include <math.h>

#include "sweep/knee.h"
#include "unit.h"

/* elapsed falls like 1/size until a floor of 1.0 at index 7 */
UNIT(knee_of_a_plateau)
{
	double e[16];

	for (int i = 0; i < 16; i++)
		e[i] = i < 7 ? 1.0 * (double)(1 << (7 - i)) : 1.0;
	CHECK(knee_find(e, 16, 5.0) == 7, "got %ld", knee_find(e, 16, 5.0));
	return 0;
}

/* within tolerance counts: 1.04 is within 5% of 1.0, 1.06 is not */
UNIT(tolerance_is_relative_to_the_best)
{
	double e[] = { 4.0, 2.0, 1.06, 1.04, 1.0, 1.01 };

	CHECK(knee_find(e, 6, 5.0) == 3, "got %ld", knee_find(e, 6, 5.0));
	CHECK(knee_find(e, 6, 10.0) == 2, "got %ld", knee_find(e, 6, 10.0));
	CHECK(knee_find(e, 6, 0.0) == 4, "got %ld", knee_find(e, 6, 0.0));
	return 0;
}

/* noise past the knee (a slower large buffer) does not move it */
UNIT(noise_after_the_knee)
{
	double e[] = { 8.0, 4.0, 2.1, 2.0, 2.6, 2.05, 3.0 };

	CHECK(knee_find(e, 7, 5.0) == 2, "got %ld", knee_find(e, 7, 5.0));
	return 0;
}

/* the best at the smallest size: the knee is the first size */
UNIT(flat_series)
{
	double e[] = { 1.0, 1.0, 1.0 };

	CHECK(knee_find(e, 3, 5.0) == 0, "got %ld", knee_find(e, 3, 5.0));
	CHECK(knee_find(e, 1, 5.0) == 0, "single");
	return 0;
}

UNIT(bad_input)
{
	double e[] = { 1.0, NAN, 2.0 }, z[] = { 1.0, 0.0 };

	CHECK(knee_find(e, 0, 5.0) == -1, "empty");
	CHECK(knee_find(e, 3, 5.0) == -1, "NaN");
	CHECK(knee_find(z, 2, 5.0) == -1, "zero");
	return 0;
}
