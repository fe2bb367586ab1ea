#!/usr/bin/env bash
# The smoke of every landing, in the newest lab kernel's guest (lab/check.sh):
# every strategy once with the probes attached, its output verified.
#
# Prints "PASS: smoke: strategy S traced, verified" or "FAIL: ...: why", one
# a strategy, and "FACT: smoke_probes ..." (which source gave each figure).
# The strategies are the binary's own (`iostrat list --caps`): a new one is in.
set -u
IOSTRAT=${IOSTRAT:-iostrat}
W=$PWD/smoke
mkdir -p "$W"
"$IOSTRAT" gen "$W/ds" --files 4 --lines 2000 --width 100 >/dev/null ||
	{ echo "FAIL: smoke: gen: exit $?"; exit 0; }

# smoke S NOOUT: one timed repetition of S and its traced ones (trace_reps,
# 3 by default), all verified (NOOUT: S writes nothing, so nothing to
# verify), the traced ones traced
smoke() {
	local s=$1 noout=$2 rows
	rm -rf "$W/out"
	"$IOSTRAT" run -s "$s" "$W/ds" "$W/out" -r 1 --trace --json >"$W/$s.json" 2>"$W/$s.err" ||
		{ echo "exit $?: $(tail -n 1 "$W/$s.err")"; return 1; }
	rows=$(jq -s 'length' "$W/$s.json")
	[ "$rows" = 4 ] || { echo "$rows rows, expected a timed and three traced ones"; return 1; }
	jq -se '[.[] | select(.role == "traced")] | length == 3 and all(.[]; .traced)' "$W/$s.json" >/dev/null ||
		{ echo "the probes did not attach: $(head -n 1 "$W/$s.err")"; return 1; }
	[ -n "$noout" ] || jq -se 'all(.[]; .verified)' "$W/$s.json" >/dev/null ||
		{ echo "output not verified"; return 1; }
}

n=0
while read -r s noout; do
	n=$((n + 1))
	if why=$(smoke "$s" "$noout"); then
		echo "PASS: smoke: strategy $s traced, verified"
	else
		echo "FAIL: smoke: strategy $s: $why"
	fi
done < <("$IOSTRAT" list --caps | awk -F'\t' '{ print $1, ($2 ~ /(^| )no-output( |$)/ ? "noout" : "") }')
[ "$n" -gt 0 ] || echo "FAIL: smoke: iostrat list named no strategy"
jq -sr '[.[] | select(.role == "traced")][0] | "blk=\(.blk_source) pc=\(.pc_source) ra=\(.ra_source)"' \
	"$W"/stream.json 2>/dev/null | sed 's/^/FACT: smoke_probes /'
echo "FACT: kernel $(uname -r)"
