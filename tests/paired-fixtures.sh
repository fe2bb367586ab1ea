#!/usr/bin/env bash
# The statistics fixtures (tests/fixtures/stats/): all there, and exactly
# what the SciPy reference (tests/tools/make-stat-fixtures.py) makes; the
# unit test tests/unit/paired.c checks the C code against them.
. "$(dirname "$0")/lib.sh"

MAKE_FIXTURES=$TOP/tests/tools/make-stat-fixtures.py
SF=$TOP/tests/fixtures/stats

# scipy_python: a python3 that has scipy and statsmodels (Debian's
# python3-scipy and python3-statsmodels live under /usr/bin/python3 even
# when another python3 comes first in PATH)
scipy_python() {
	local py
	for py in python3 /usr/bin/python3; do
		command -v "$py" >/dev/null 2>&1 || continue
		"$py" -c 'import scipy.stats, statsmodels.stats.multitest' 2>/dev/null &&
			{ echo "$py"; return 0; }
	done
	return 1
}

stat_fixtures_are_all_there() {
	local f
	for f in unpaired holm modz; do
		[ -s "$SF/$f.txt" ] || die "no $SF/$f.txt: the fixtures are part of the repository"
	done
}

stat_fixtures_are_what_scipy_makes() {
	local py
	py=$(scipy_python) || skip "needs python3-scipy and python3-statsmodels"
	"$py" "$MAKE_FIXTURES" "$T/s" || die "make-stat-fixtures.py failed"
	diff -rq "$SF" "$T/s" >"$T/diff" 2>&1 ||
		die "tests/fixtures/stats/ differs from make-stat-fixtures.py: $(head -n 3 "$T/diff" | tr '\n' ' ')"
}

t stat_fixtures_are_all_there
t stat_fixtures_are_what_scipy_makes
