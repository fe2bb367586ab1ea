#!/usr/bin/env bash
# The transform's test vectors (tests/vectors/): all there, and exactly
# what the independent reference (tests/tools/make-vectors.py) makes.
. "$(dirname "$0")/lib.sh"

MAKE_VECTORS=$TOP/tests/tools/make-vectors.py

vectors_are_all_there() {
	local f w n=0
	[ -d "$TV" ] || die "no $TV: the test vectors are part of the repository"
	for f in "$TV"/*.in; do
		[ -f "$f" ] || die "no vectors in $TV"
		for w in 0 1 7 256 1000; do
			[ -f "${f%.in}.w$w.out" ] || die "no $(basename "${f%.in}").w$w.out"
		done
		n=$((n + 1))
	done
	[ "$n" -ge 9 ] || die "only $n inputs in $TV"
}

vectors_regenerate_byte_for_byte() {
	need_cmd python3
	python3 "$MAKE_VECTORS" "$T/v" || die "make-vectors.py failed"
	diff -rq "$TV" "$T/v" >"$T/diff" 2>&1 ||
		die "tests/vectors/ differs from make-vectors.py: $(head -n 3 "$T/diff" | tr '\n' ' ')"
}

t vectors_are_all_there
t vectors_regenerate_byte_for_byte
