#!/usr/bin/env bash
# lab/stages.sh: which lab stages a change can break, and the proofs that stand (lab/stages.conf, lab/proof.tsv).
#
#   stages.sh list                 the stages, one a line (guest-@K once per kernel)
#   stages.sh paths STAGE          its paths, @common and @K expanded
#   stages.sh hash STAGE [COMMIT]  the hash of its paths' content in the work tree (or at COMMIT)
#   stages.sh plan [STAGE...]      per stage "run<TAB>STAGE<TAB>why" or
#                                  "skip<TAB>STAGE<TAB>proof COMMIT of DATE stands"
#   stages.sh record STAGE SECS [HASH]
#                                  write STAGE's proof (lab/check.sh, after it passed;
#                                  HASH: its hash when it started, which must still hold)
#
# A proof line of lab/proof.tsv is "STAGE HASH COMMIT DATE SECONDS" (tabs).
# It stands when HASH is the hash of the stage's paths today, COMMIT is in
# HEAD's history, and the stage's paths at COMMIT hash to HASH too: a line
# edited by hand, or left from older content, makes the stage run.  A proof
# is recorded only for committed content (the paths as at HEAD), so that its
# commit holds what passed.
#
# IOSTRAT_STAGES_TOP: the checkout (default: this script's); the tests point
# it at a fixture repository.
# shellcheck disable=SC2317 # the commands are called by name (main)
set -uo pipefail
export LC_ALL=C
STAGES_TOP=${IOSTRAT_STAGES_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
STAGES_CONF=$STAGES_TOP/lab/stages.conf
PROOF=$STAGES_TOP/lab/proof.tsv
PROOF_REL=lab/proof.tsv

stages_die() { echo "lab/stages.sh: $*" >&2; exit 2; }
git_top() { git -C "$STAGES_TOP" "$@"; }

# conf_line NAME: the words after NAME on its line of stages.conf
conf_line() { awk -v n="$1" '!/^#/ && $1 == n { $1 = ""; sub(/^ /, ""); print; f = 1 } END { exit !f }' "$STAGES_CONF"; }
# stage_names: the first words of stages.conf's lines
stage_names() { awk '!/^#/ && NF { print $1 }' "$STAGES_CONF"; }
# kernels: the names of kernels.conf, in its order
kernels() { awk '!/^#/ && NF >= 2 { print $1 }' "$STAGES_TOP/lab/kernels.conf"; }

cmd_list() {
	local s k
	for s in $(stage_names | grep -vx common); do
		if [[ $s == *@K* ]]; then
			for k in $(kernels); do echo "${s//@K/$k}"; done
		else
			echo "$s"
		fi
	done
}

# template STAGE: the line of stages.conf that STAGE comes from, and its @K
template() {
	local s k
	for s in $(stage_names); do
		[ "$s" = "$1" ] && { echo "$s -"; return 0; }
		[[ $s == *@K* ]] || continue
		for k in $(kernels); do
			[ "${s//@K/$k}" = "$1" ] && { echo "$s $k"; return 0; }
		done
	done
	return 1
}

# cmd_paths STAGE: its paths, one a line
cmd_paths() {
	local t k p
	read -r t k < <(template "$1") || stages_die "$1: no such stage in lab/stages.conf"
	for p in $(conf_line "$t"); do
		if [ "$p" = @common ]; then conf_line common | tr ' ' '\n'; else echo "${p//@K/$k}"; fi
	done | awk 'NF'
}

# filtered FILE SPEC: the lines of FILE (on stdin) a FILE@SPEC names
filtered() {
	case $1 in
	code) awk '/^[ \t]*```/ { inb = !inb; next } inb' ;;
	line=*) awk -v k="${1#line=}" '$1 == k' ;;
	*) stages_die "@$1: not a filter (@code, @line=KEY)" ;;
	esac
}

# entries [COMMIT] < PATHS: "MODE BLOB<TAB>PATH" of every file the paths
# name, sorted: in the work tree (tracked or not ignored), or at COMMIT
entries() {
	local commit=${1:-} p specs=() filt=()
	while read -r p; do
		if [[ $p == *@* ]]; then filt+=("$p"); else specs+=("$p"); fi
	done
	{
		[ ${#specs[@]} -eq 0 ] || files_entries "$commit" "${specs[@]}"
		for p in "${filt[@]}"; do filter_entry "$commit" "$p"; done
	} | sort
}
filter_entry() { # COMMIT FILE@SPEC
	local f=${2%%@*} blob
	if [ -n "$1" ]; then
		blob=$(git_top show "$1:$f" 2>/dev/null | filtered "${2#*@}" | git_top hash-object --stdin)
	else
		blob=$(filtered "${2#*@}" <"$STAGES_TOP/$f" 2>/dev/null | git_top hash-object --stdin)
	fi
	printf 'filter %s\t%s\n' "$blob" "$2"
}
files_entries() { # COMMIT PATHSPEC...
	local commit=$1 idx; shift
	if [ -n "$commit" ]; then
		idx=$(mktemp)
		GIT_INDEX_FILE=$idx git_top read-tree "$commit" &&
			GIT_INDEX_FILE=$idx git_top ls-files -s -z -- "$@" ":(exclude)$PROOF_REL" |
			tr '\0' '\n' | awk -F'\t' '{ split($1, a, " "); print a[1] " " a[2] "\t" $2 }'
		rm -f "$idx"
		return
	fi
	# one git process for every blob: a process a file took half a minute
	local list
	list=$(mktemp)
	git_top ls-files -co --exclude-standard -z -- "$@" ":(exclude)$PROOF_REL" | tr '\0' '\n' | sort -u |
		while IFS= read -r f; do
			if [ -L "$STAGES_TOP/$f" ]; then printf '120000\t%s\n' "$f"
			elif [ -x "$STAGES_TOP/$f" ] && [ -f "$STAGES_TOP/$f" ]; then printf '100755\t%s\n' "$f"
			elif [ -f "$STAGES_TOP/$f" ]; then printf '100644\t%s\n' "$f"
			fi # else tracked, deleted in the work tree
		done >"$list"
	cut -f2 "$list" | (cd "$STAGES_TOP" && git hash-object --stdin-paths) | paste - "$list" |
		awk -F'\t' '{ print $2 " " $1 "\t" $3 }'
	rm -f "$list"
}

# hash_of STAGE [COMMIT]: 16 hex digits over its line of stages.conf (as
# expanded) and its entries
hash_of() {
	{ cmd_paths "$1" | paste -sd' '; cmd_paths "$1" | entries "${2:-}"; } | sha256sum | cut -c1-16
}
cmd_hash() { template "$1" >/dev/null || stages_die "$1: no such stage in lab/stages.conf"; hash_of "$@"; }

# proof_of STAGE: its line of lab/proof.tsv (HASH COMMIT DATE SECONDS)
proof_of() { [ -f "$PROOF" ] && awk -F'\t' -v s="$1" '$1 == s { print $2, $3, $4, $5; f = 1 } END { exit !f }' "$PROOF"; }

# changed STAGE COMMIT: the paths whose content differs from COMMIT's
changed() {
	local a b
	a=$(mktemp) b=$(mktemp)
	cmd_paths "$1" | entries "$2" >"$a"
	cmd_paths "$1" | entries >"$b"
	sort "$a" "$b" | uniq -u | cut -f2 | sort -u | paste -sd' '
	rm -f "$a" "$b"
}

# decide STAGE: "run<TAB>STAGE<TAB>why" or "skip<TAB>STAGE<TAB>proof ..."
decide() {
	local s=$1 now h c d secs at what
	now=$(hash_of "$s")
	if ! read -r h c d secs < <(proof_of "$s"); then
		printf 'run\t%s\tno proof recorded\n' "$s"; return
	fi
	if ! git_top cat-file -e "$c^{commit}" 2>/dev/null; then
		printf 'run\t%s\tits proof names commit %s, not in this history\n' "$s" "$c"; return
	fi
	if [ "$now" != "$h" ]; then
		what=$(changed "$s" "$c")
		printf 'run\t%s\tchanged since the proof of %s (%s): %s\n' "$s" "$c" "${d%%T*}" "${what:-its line of lab/stages.conf}"; return
	fi
	at=$(hash_of "$s" "$c")
	if [ "$at" != "$h" ] || ! git_top merge-base --is-ancestor "$c" HEAD 2>/dev/null; then
		printf 'run\t%s\tits proof does not hold: the paths at %s hash to %s, not %s (edited by hand?)\n' "$s" "$c" "$at" "$h"; return
	fi
	printf 'skip\t%s\tproof of %s, %s (%s s) stands\n' "$s" "$c" "$d" "$secs"
}
cmd_plan() {
	local s
	if [ $# -eq 0 ]; then
		local all
		mapfile -t all < <(cmd_list)
		set -- "${all[@]}"
	fi
	for s in "$@"; do decide "$s"; done
}

# cmd_record STAGE SECONDS [HASH]: its proof line, when its paths are as at
# HEAD (and as when it started: HASH)
cmd_record() {
	local s=$1 secs=$2 h dirty tmp
	template "$s" >/dev/null || stages_die "$s: no such stage in lab/stages.conf"
	h=$(hash_of "$s")
	if [ -n "${3:-}" ] && [ "$3" != "$h" ]; then
		echo "lab: $s passed; no proof recorded: its paths changed while it ran"
		return 0
	fi
	if [ "$(hash_of "$s" HEAD)" != "$h" ]; then
		dirty=$(changed "$s" HEAD)
		echo "lab: $s passed; no proof recorded: not committed: ${dirty:-its line of lab/stages.conf}"
		return 0
	fi
	tmp=$(mktemp "$PROOF.XXXXXX") || return 1
	{
		[ -f "$PROOF" ] && awk -F'\t' -v s="$s" '$1 != s' "$PROOF"
		printf '%s\t%s\t%s\t%s\t%s\n' "$s" "$h" "$(git_top rev-parse --short=12 HEAD)" "$(date -u +%FT%TZ)" "$secs"
	} | sort >"$tmp" && chmod 644 "$tmp" && mv "$tmp" "$PROOF"
	echo "lab: $s passed; proof recorded ($h)"
}

main() {
	[ -f "$STAGES_CONF" ] || stages_die "$STAGES_CONF: missing"
	local c=${1:-}
	case $c in
	list) cmd_list ;;
	paths) [ $# -eq 2 ] || stages_die "usage: paths STAGE"; template "$2" >/dev/null || stages_die "$2: no such stage"; cmd_paths "$2" ;;
	hash) [ $# -ge 2 ] || stages_die "usage: hash STAGE [COMMIT]"; cmd_hash "$2" "${3:-}" ;;
	plan) shift; cmd_plan "$@" ;;
	record) [ $# -ge 3 ] || stages_die "usage: record STAGE SECONDS [HASH]"; cmd_record "$2" "$3" "${4:-}" ;;
	*) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
}
main "$@"
