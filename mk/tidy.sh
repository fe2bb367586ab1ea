#!/usr/bin/env bash
# clang-tidy over the given files, $(nproc) at a time; prints the findings
# and exits non-zero if there is any.  Findings inside generated headers
# under BUILD (bpftool skeletons) are not ours to fix and are left out.
set -uo pipefail
build=$1 checks=$2; shift 2
export build checks
out=$(printf '%s\n' "$@" | xargs -P "$(nproc)" -n 6 bash -c 'clang-tidy --quiet \
	--checks="$checks" "$@" -- -std=gnu11 -D_GNU_SOURCE -Isrc -Iinclude -I"$build"' tidy 2>&1 |
	grep -v -E '^[0-9]+ warnings? (and [0-9]+ errors? )?generated|^Suppressed|^Use -header-filter')
findings=$(printf '%s\n' "$out" | grep -E '(error|warning): ' | grep -v -E "^$build/|\.skel\.h:")
[ -z "$findings" ] && exit 0
printf '%s\n' "$out"
echo "clang-tidy: $(printf '%s\n' "$findings" | wc -l) finding(s)" >&2
exit 1
