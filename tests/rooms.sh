#!/usr/bin/env bash
# The rooms of src/ form the ladder drawn in docs/architecture.md: each uses only rooms below it, includes spelled by one rule.
. "$(dirname "$0")/lib.sh"
not_c_under_sanitizers "the source tree's includes, no C run"

ROOMS=("$TOP/tests/tools/rooms.py")
LADDER=$TOP/docs/architecture.md

need_python() { command -v python3 >/dev/null 2>&1 || skip "needs python3"; }

# A copy of src/ in $T/src to break on purpose.
copy_src() { cp -r "$TOP/src" "$T/src"; }

# The broken copy fails the ladder, exit 1, with the line $1 among its own.
ladder_refuses_with() {
	local out rc=0
	out=$(python3 "${ROOMS[@]}" --ladder "$LADDER" "$T/src") || rc=$?
	[ "$rc" -eq 1 ] || die "exit $rc, not 1: $out"
	grep -qF -- "$1" <<<"$out" || die "no line '$1': $out"
}

the_rooms_of_src_form_the_ladder_of_architecture_md() {
	need_python
	python3 "${ROOMS[@]}" --ladder "$LADDER" "$TOP/src" || die "see the lines above"
}

no_room_is_in_a_circle() {
	need_python
	python3 "${ROOMS[@]}" "$TOP/src" | grep -qx 'rooms in a circle: 0' ||
		die "$(python3 "${ROOMS[@]}" "$TOP/src" | grep '^circle:')"
}

a_room_that_includes_one_above_it_fails_naming_the_include() {
	need_python
	copy_src
	sed -i '0,/#include "/s//#include "engine\/bench.h"\n#include "/' "$T/src/core/job.c"
	ladder_refuses_with 'core uses engine, a room above it: core/job.c includes "engine/bench.h"'
}

a_room_that_uses_one_beside_it_fails() {
	need_python
	copy_src
	sed -i '0,/#include "/s//#include "net\/net.h"\n#include "/' "$T/src/fio/fio_run.c"
	ladder_refuses_with 'fio uses net, a room beside it: fio/fio_run.c includes "net/net.h"'
}

a_declaration_outside_its_definers_room_counts_as_a_use() {
	need_python
	copy_src
	sed -i 's|^#endif|void sweep_kind_unlend(void);\n#endif|' "$T/src/core/strategy.h"
	ladder_refuses_with 'core/strategy.h declares sweep_kind_unlend, defined in engine/'
}

a_room_missing_from_the_ladder_fails() {
	need_python
	copy_src
	mkdir "$T/src/extra"
	printf '// SPDX-License-Identifier: MIT\n/* x */\n#include "lib/util.h"\n' >"$T/src/extra/x.c"
	ladder_refuses_with 'extra: a room of src/ missing from the ladder'
}

an_include_spelled_against_the_rule_fails() {
	need_python
	copy_src
	sed -i 's|#include "strategy.h"|#include "../core/strategy.h"|' "$T/src/core/job.c"
	grep -q '"../core/strategy.h"' "$T/src/core/job.c" || die "job.c includes no \"strategy.h\" any more"
	ladder_refuses_with 'core/job.c includes "../core/strategy.h": neither a name beside it nor "core/strategy.h"'
}

t the_rooms_of_src_form_the_ladder_of_architecture_md
t no_room_is_in_a_circle
t a_room_that_includes_one_above_it_fails_naming_the_include
t a_room_that_uses_one_beside_it_fails
t a_declaration_outside_its_definers_room_counts_as_a_use
t a_room_missing_from_the_ladder_fails
t an_include_spelled_against_the_rule_fails
