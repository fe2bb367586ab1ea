#!/usr/bin/env bash
# The column table read off the binary: `iostrat __columns` lists every row
# column once with its type, docs/results.md holds the same table.
. "$(dirname "$0")/lib.sh"

# the table between the markers of docs/results.md
doc_table() {
	sed -n '/^<!-- columns: iostrat __columns --markdown -->$/,/^<!-- end columns -->$/p' \
		"$TOP/docs/results.md" | sed '1d;$d'
}

results_md_table_is_the_binarys() {
	local doc bin
	doc=$(doc_table)
	[ -n "$doc" ] || die "docs/results.md: no table between the column markers"
	bin=$("$IOSTRAT" __columns --markdown) || die "__columns --markdown failed"
	[ "$doc" = "$bin" ] || die "docs/results.md differs from __columns --markdown:
$(diff <(printf '%s\n' "$doc") <(printf '%s\n' "$bin") | head -20)"
}

columns_listed_once_each_with_seven_fields() {
	local out
	out=$("$IOSTRAT" __columns) || die "__columns failed"
	awk -F'\t' 'NF != 7 { print "line " NR ": " NF " fields"; exit 1 }' <<<"$out" ||
		die "a line is not 7 tab-separated fields"
	[ -z "$(cut -f1 <<<"$out" | sort | uniq -d)" ] || die "a column listed twice"
	for c in elapsed_s threads buffer_bytes qd_used fadvise seq_pct_read; do
		grep -q "^$c	" <<<"$out" || die "$c: not listed"
	done
	grep -q '^elapsed_s	time	-	s	harness	core	' <<<"$out" ||
		die "elapsed_s is not a core time in s written by harness"
}

columns_bad_argument_refused() {
	local err rc=0
	err=$("$IOSTRAT" __columns --nope 2>&1 >/dev/null) || rc=$?
	[ "$rc" -eq 2 ] || die "exit $rc, want 2"
	[ "$err" = "iostrat: __columns: --nope: unexpected argument (give --markdown, --report or nothing)" ] ||
		die "message: $err"
}

t results_md_column_table_is_the_binarys results_md_table_is_the_binarys
t columns_listed_once_each_with_seven_fields
t columns_bad_argument_refused
