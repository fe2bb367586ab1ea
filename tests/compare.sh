#!/usr/bin/env bash
# iostrat compare's interval (docs/benches.md): beside each ratio and its
# p, the unpaired 95% interval of the run's times over A's, which agrees
# with the Mann-Whitney test it sits beside.
. "$(dirname "$0")/lib.sh"

FIX=$TOP/tests/fixtures/results-schema1

# runs_scaled DIR F: the kept schema-1 results with four repetitions made of
# each (times 1.00, 1.01, 1.02, 1.03: 8 a configuration, no ties) and every
# run repetition's time times F
runs_scaled() {
	[ -s "$FIX/results.jsonl" ] || die "missing fixture $FIX"
	mkdir -p "$1"
	cp "$FIX/env.json" "$FIX/profile.ini" "$1/" 2>/dev/null || true
	jq -c --argjson f "$2" '. as $r | range(4) as $i | $r | .rep = .rep * 10 + $i
		| .elapsed_s *= (1 + 0.01 * $i)
		| if .kind == "run" then .elapsed_s *= $f else . end' "$FIX/results.jsonl" >"$1/results.jsonl"
}

compare_gives_an_interval_beside_each_p() {
	runs_scaled "$T/a" 1
	runs_scaled "$T/b" 1.5
	"$IOSTRAT" compare "$T/a" "$T/b" --format json >"$T/c.json" || die "compare failed"
	jq -e '.tables[0] | (.columns[:8] == ["config_id", "A_median", "B_median", "B/A", "p_B",
			"sig_B", "lo_B", "hi_B"]) and all(.rows[]; (.lo_B | type) == "number"
			and .lo_B <= .hi_B and ((.sig_B == "*") == (.lo_B > 1 or .hi_B < 1)))' \
		"$T/c.json" >/dev/null || die "interval and test disagree: $(jq -c '.tables[0].rows' "$T/c.json")"
	jq -e '[.tables[0].rows[] | select(.config_id | contains("/fio-") | not)]
		| length == 4 and all(.[]; .lo_B > 1 and .lo_B <= 1.5 and .hi_B >= 1.5)' "$T/c.json" >/dev/null ||
		die "1.5x not inside its interval: $(jq -c '.tables[0].rows' "$T/c.json")"
	jq -e '[.tables[] | select(.title | startswith("per configuration and run"))][0].rows
		| all(.[]; .run == "A" or (.ci_lo | type) == "number")' "$T/c.json" >/dev/null ||
		die "no interval in the long table"
}

compare_with_itself_holds_one() {
	runs_scaled "$T/a" 1
	"$IOSTRAT" compare "$T/a" "$T/a" --format json >"$T/c.json" || die "compare failed"
	jq -e 'all(.tables[0].rows[]; .lo_B <= 1 and .hi_B >= 1)' "$T/c.json" >/dev/null ||
		die "$(jq -c '.tables[0].rows' "$T/c.json")"
}

t compare_gives_an_interval_beside_each_p
t compare_with_itself_holds_one

# Many configurations, many tests: compare corrects for them as the verdict
# does (Holm), says so, and marks * only where the Holm-adjusted p is small.
compare_corrects_for_many_configurations_with_holm() {
	runs_scaled "$T/a" 1
	runs_scaled "$T/b" 1.5
	"$IOSTRAT" compare "$T/a" "$T/b" --format json >"$T/c.json" || die "compare failed"
	jq -e '.tables[0].note | test("Holm")' "$T/c.json" >/dev/null || die "Holm not said"
	jq -e '.tables[0].rows | length > 1 and all(.[]; (.ph_B | type) == "number"
		and .ph_B >= .p_B and ((.sig_B == "*") == (.ph_B < 0.05)))' "$T/c.json" >/dev/null ||
		die "sig not by the Holm-adjusted p: $(jq -c '.tables[0].rows' "$T/c.json")"
}

# Two runs whose cells are both undecided (two rounds each: too few) do not
# "agree": there is nothing to agree on.
compare_says_both_undecided_where_neither_run_decided() {
	"$IOSTRAT" compare "$FIX" "$FIX" --format json >"$T/c.json" || die "compare failed"
	jq -e '[.tables[] | select(.title | startswith("the fastest strategy per cell"))][0].rows
		| length > 0 and all(.[]; .runs == "both undecided")' "$T/c.json" >/dev/null ||
		die "$(jq -c '[.tables[] | select(.title | startswith("the fastest"))][0].rows' "$T/c.json")"
}

t compare_corrects_for_many_configurations_with_holm
t compare_says_both_undecided_where_neither_run_decided
