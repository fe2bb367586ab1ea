// SPDX-License-Identifier: MIT
/* Numbers and sizes from the command line and profiles. */
#include <errno.h>
#include <string.h>

#include "util.h"

/* The decimal digits s starts with (no sign, no blank first) in *v, and
 * what follows them in *end: 0, -EINVAL (no digits) or -ERANGE. */
static int leading_u64(const char *s, unsigned long long *v, char **end)
{
	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	return *end == s ? -EINVAL : 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int ret = leading_u64(s, &v, &end);

	if (ret)
		return ret;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_uint(const char *s, unsigned min, unsigned max, unsigned *out)
{
	uint64_t v;
	int ret = parse_u64(s, &v);

	if (ret)
		return ret;
	if (v < min || v > max)
		return -ERANGE;
	*out = (unsigned)v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	static const struct { const char *sfx; unsigned shift; } units[] = {
		{ "", 0 }, { "b", 0 }, { "B", 0 },
		{ "k", 10 }, { "K", 10 }, { "KiB", 10 }, { "kiB", 10 }, { "KB", 10 }, { "kb", 10 },
		{ "m", 20 }, { "M", 20 }, { "MiB", 20 }, { "MB", 20 }, { "mb", 20 },
		{ "g", 30 }, { "G", 30 }, { "GiB", 30 }, { "GB", 30 }, { "gb", 30 },
	};
	char *end;
	unsigned long long v;
	int ret = leading_u64(s, &v, &end);

	if (ret)
		return ret;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].sfx))
			continue;
		if (units[i].shift && v > (UINT64_MAX >> units[i].shift))
			return -ERANGE;
		*out = (uint64_t)v << units[i].shift;
		return 0;
	}
	return -EINVAL;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end || end == s || v != v)
		return -EINVAL;
	*out = v;
	return 0;
}

/* "-5": a number below every unsigned setting's floor, not a malformed one */
static bool negative(const char *opt, const char *s, unsigned long long min)
{
	const char *m = s ? s + strspn(s, " \t") : NULL;
	uint64_t v;
	double d;

	if (!m || *m != '-' || (parse_double(m, &d) && parse_size(m + 1, &v)) ||
	    !strcmp(m, "-0"))
		return false;
	errorf("%s: bad value '%s' (must be >= %llu)", opt, s, min);
	return true;
}

int opt_uint(const char *opt, const char *s, unsigned min, unsigned max,
	     unsigned *out)
{
	int ret = parse_uint(s, min, max, out);

	if (ret && negative(opt, s, min))
		return -ERANGE;
	if (ret == -ERANGE)
		errorf("%s: bad value '%s' (must be %u..%u)", opt, s, min, max);
	else if (ret)
		errorf("%s: bad value '%s' (not a whole number)", opt, s ? s : "");
	return ret;
}

/* A size-like number in min..max; unit after the range ("" or " bytes"),
 * like: what a malformed value should have looked like. */
static int opt_scaled(const char *opt, const char *s, uint64_t min, uint64_t max,
		      uint64_t *out, const char *unit, const char *like)
{
	int ret = parse_size(s, out);

	if (ret && negative(opt, s, min))
		return -ERANGE;
	if (!ret && (*out < min || *out > max))
		ret = -ERANGE;
	if (ret == -ERANGE)
		errorf("%s: bad value '%s' (must be %llu..%llu%s)", opt, s,
		       (unsigned long long)min, (unsigned long long)max, unit);
	else if (ret)
		errorf("%s: bad value '%s' (%s)", opt, s ? s : "", like);
	return ret;
}

int opt_count(const char *opt, const char *s, uint64_t min, uint64_t max,
	      uint64_t *out)
{
	return opt_scaled(opt, s, min, max, out, "", "a whole number like 1000 or 10k");
}

int opt_size(const char *opt, const char *s, uint64_t min, uint64_t max,
	     uint64_t *out)
{
	return opt_scaled(opt, s, min, max, out, " bytes", "a size like 4096, 64k, 1M");
}

static const char *const bool_true[] = { "1", "true", "yes", "on", NULL };
static const char *const bool_false[] = { "0", "false", "no", "off", NULL };

static bool in_list(const char *v, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(v, *list))
			return true;
	return false;
}

int parse_bool(const char *v, bool *out)
{
	if (v && in_list(v, bool_true))
		*out = true;
	else if (v && in_list(v, bool_false))
		*out = false;
	else
		return -EINVAL;
	return 0;
}
