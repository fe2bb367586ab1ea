#!/usr/bin/env bash
# The test runner of `make check`.
#
# Runs every tests/*.sh and every unit-test binary in $BUILD/tests/.  Each
# prints one line per test case: "PASS: name", "FAIL: name: why" or
# "SKIP: name: reason" (see tests/lib.sh and tests/unit/unit.h).  A file
# that exits non-zero without reporting a FAIL, or runs past its time
# limit, counts as one failure.  Ends with "N passed, N failed, N skipped"
# and exits non-zero on any failure.
#
#   tests/run.sh [PATTERN]    only files whose name contains PATTERN
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
export IOSTRAT=${IOSTRAT:-$PWD/$BUILD/iostrat}
export BUILD
export TOP=$PWD
limit=${TEST_TIMEOUT:-600}
pat=${1:-}
pass=0 fail=0 skip=0

run_one() {
	local name=$1; shift
	local out rc t0=$SECONDS
	out=$(mktemp)
	timeout --kill-after=10 "$limit" "$@" >"$out" 2>&1
	rc=$?
	local p f s
	p=$(grep -c '^PASS: ' "$out")
	f=$(grep -c '^FAIL: ' "$out")
	s=$(grep -c '^SKIP: ' "$out")
	grep -E '^(PASS|FAIL|SKIP): ' "$out" | sed "s|^|  [$name] |"
	if [ "$f" -gt 0 ] || [ "$rc" -ne 0 ]; then
		grep -E '^(FAIL): ' "$out" | sed "s|^FAIL: |$name: |" >>"$failures"
		if [ "$f" -eq 0 ]; then
			f=1
			if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
				echo "  [$name] FAIL: timed out after ${limit}s"
				echo "$name: timed out" >>"$failures"
			else
				echo "  [$name] FAIL: exited $rc without reporting; last output:"
				tail -n 15 "$out" | sed 's/^/      /'
				echo "$name: exit $rc" >>"$failures"
			fi
		elif [ -n "${VERBOSE:-}" ] || [ "$f" -gt 0 ]; then
			grep -vE '^(PASS|SKIP): ' "$out" | tail -n 30 | sed 's/^/      /'
		fi
	fi
	echo "  [$name] $((SECONDS - t0))s"
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	rm -f "$out"
}

failures=$(mktemp)
for t in tests/*.sh; do
	case $t in tests/run.sh|tests/lib.sh) continue ;; esac
	[ -n "$pat" ] && [[ $t != *"$pat"* ]] && continue
	echo "== $t"
	run_one "$(basename "$t" .sh)" bash "$t"
done
for t in "$BUILD"/tests/*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	case $t in *.d|*.o) continue ;; esac
	[ -n "$pat" ] && [[ $t != *"$pat"* ]] && continue
	echo "== $t"
	run_one "$(basename "$t")" "$t"
done
if [ -s "$failures" ]; then
	echo
	echo "failures:"
	sed 's/^/  /' "$failures"
fi
rm -f "$failures"
echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
