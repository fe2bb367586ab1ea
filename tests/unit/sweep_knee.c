// SPDX-License-Identifier: MIT
/* Knee detection of `iostrat sweep bufsize` on synthetic series. */
#include <math.h>

#include "sweep/knee.h"
#include "unit.h"

/* elapsed falls like 1/size until a floor of 1.0 at index 7 */
static int knee_of_a_plateau(void)
{
	double e[16];

	for (int i = 0; i < 16; i++)
		e[i] = i < 7 ? 1.0 * (double)(1 << (7 - i)) : 1.0;
	CHECK(knee_find(e, 16, 5.0) == 7, "got %ld", knee_find(e, 16, 5.0));
	return 0;
}

/* within tolerance counts: 1.04 is within 5% of 1.0, 1.06 is not */
static int tolerance_is_relative_to_the_best(void)
{
	double e[] = { 4.0, 2.0, 1.06, 1.04, 1.0, 1.01 };

	CHECK(knee_find(e, 6, 5.0) == 3, "got %ld", knee_find(e, 6, 5.0));
	CHECK(knee_find(e, 6, 10.0) == 2, "got %ld", knee_find(e, 6, 10.0));
	CHECK(knee_find(e, 6, 0.0) == 4, "got %ld", knee_find(e, 6, 0.0));
	return 0;
}

/* noise past the knee (a slower large buffer) does not move it */
static int noise_after_the_knee(void)
{
	double e[] = { 8.0, 4.0, 2.1, 2.0, 2.6, 2.05, 3.0 };

	CHECK(knee_find(e, 7, 5.0) == 2, "got %ld", knee_find(e, 7, 5.0));
	return 0;
}

/* the best at the smallest size: the knee is the first size */
static int flat_series(void)
{
	double e[] = { 1.0, 1.0, 1.0 };

	CHECK(knee_find(e, 3, 5.0) == 0, "got %ld", knee_find(e, 3, 5.0));
	CHECK(knee_find(e, 1, 5.0) == 0, "single");
	return 0;
}

static int bad_input(void)
{
	double e[] = { 1.0, NAN, 2.0 }, z[] = { 1.0, 0.0 };

	CHECK(knee_find(e, 0, 5.0) == -1, "empty");
	CHECK(knee_find(e, 3, 5.0) == -1, "NaN");
	CHECK(knee_find(z, 2, 5.0) == -1, "zero");
	return 0;
}

int main(void)
{
	RUN(knee_of_a_plateau);
	RUN(tolerance_is_relative_to_the_best);
	RUN(noise_after_the_knee);
	RUN(flat_series);
	RUN(bad_input);
	return unit_failed;
}
