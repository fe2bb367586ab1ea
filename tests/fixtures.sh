#!/usr/bin/env bash
# Results directories written by earlier releases stay readable: report and compare on kept fixtures.
. "$(dirname "$0")/lib.sh"

FIX=$TOP/tests/fixtures/results-schema1

# report's text of the row-schema-1 directory (written by iostrat before the
# settings table) is the one kept beside it, the path aside
report_reads_schema_1_results() {
	[ -s "$FIX/results.jsonl" ] || die "missing fixture $FIX"
	cp -r "$FIX" "$T/r"
	"$IOSTRAT" report "$T/r" >"$T/out" 2>"$T/err" || die "report failed: $(cat "$T/err")"
	sed "s#$T/r#RESULTS#" "$T/out" | diff "$TOP/tests/fixtures/results-schema1.report" - >"$T/diff" ||
		die "report differs from the kept one: $(head -20 "$T/diff")"
}

# compare matches its configurations with a directory written now
compare_matches_schema_1_with_itself() {
	cp -r "$FIX" "$T/a"
	cp -r "$FIX" "$T/b"
	"$IOSTRAT" compare "$T/a" "$T/b" >"$T/out" 2>"$T/err" || die "compare failed: $(cat "$T/err")"
	grep -q 'fixture/stream\|medium-short' "$T/out" || die "no configuration matched: $(head "$T/out")"
}

t report_reads_schema_1_results
t compare_matches_schema_1_with_itself
