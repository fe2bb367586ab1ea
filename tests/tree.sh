#!/usr/bin/env bash
# The tree stands alone and says what each file is for: no weak symbols,
# no reference outside the repository, every C file opening with its
# purpose (docs/architecture.md).
. "$(dirname "$0")/lib.sh"
not_c_under_sanitizers "the source tree's layout, no C run"

# The directories of the repository's own text (not build/ or data/).
OWN=(.ci completion debian deploy ebpf fio-jobs fuzz lab mk plots profiles
     speed src systemd tests Makefile README.md)

no_weak_symbols_in_src() {
	local hits
	hits=$(grep -rn weak "$TOP/src") || return 0
	die "weak in src: $(printf '%s\n' "$hits" | head -n 3 | tr '\n' ' ')"
}

nothing_outside_docs_names_a_file_outside_the_repository() {
	local hits own=()
	local pat='\.\./shared|DESIGN\.md'
	for d in "${OWN[@]}"; do [ -e "$TOP/$d" ] && own+=("$TOP/$d"); done
	hits=$(grep -rnIE "$pat" "${own[@]}") || return 0
	die "$(printf '%s\n' "$hits" | head -n 3 | tr '\n' ' ')"
}

every_c_file_opens_with_what_it_is_for() {
	local f bad=()
	while IFS= read -r f; do
		sed -n 1p "$f" | grep -q 'SPDX-License-Identifier' || { bad+=("$f: no SPDX line"); continue; }
		# "/* Text" on line 2, or "/*" alone and " * Text" on line 3
		awk 'NR == 2 { ok = /^(\/\*|\/\/) *[^ *]/; alone = /^\/\*$/ }
		     NR == 3 && alone { ok = /^ \* *[^ ]/ }
		     NR == 3 { exit } END { exit !ok }' "$f" || bad+=("$f")
	done < <(find "$TOP/src" "$TOP/tests/unit" "$TOP/fuzz" -name '*.c' -o -name '*.h' -o -name '*.cc')
	[ "${#bad[@]}" -eq 0 ] || die "${#bad[@]} files without an opening comment line: ${bad[*]:0:3}"
}

t no_weak_symbols_in_src
t nothing_outside_docs_names_a_file_outside_the_repository
t every_c_file_opens_with_what_it_is_for
