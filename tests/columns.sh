#!/usr/bin/env bash
# The column table read off the binary: `iostrat __columns` lists every row
# column once with its type, docs/results.md holds the same table.
. "$(dirname "$0")/lib.sh"

# docs/results.md holds the binary's table: the tool that writes it
# (tests/tools/columns-doc.sh) changes nothing in a copy.
results_md_table_is_the_binarys() {
	cp "$TOP/docs/results.md" "$T/now.md"
	"$TOP/tests/tools/columns-doc.sh" "$IOSTRAT" "$T/now.md" 2>"$T/err" ||
		die "docs/results.md: $(cat "$T/err")"
	cmp -s "$TOP/docs/results.md" "$T/now.md" ||
		die "docs/results.md differs from __columns --markdown (tests/tools/columns-doc.sh $IOSTRAT writes it back):
$(diff "$TOP/docs/results.md" "$T/now.md" | head -20)"
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

# tests/tools/columns-doc.sh puts the binary's table back
# between the markers, and refuses a file without them, leaving it whole.
docs_columns_remakes_the_table() {
	cp "$TOP/docs/results.md" "$T/r.md"
	sed -i '/^| `elapsed_s` /d' "$T/r.md"
	grep -q '^| `elapsed_s` ' "$T/r.md" && die "the fixture still has elapsed_s"
	"$TOP/tests/tools/columns-doc.sh" "$IOSTRAT" "$T/r.md" || die "columns-doc.sh failed"
	cmp -s "$TOP/docs/results.md" "$T/r.md" || die "the table was not put back whole"
}

docs_columns_without_markers_refused() {
	local err rc=0
	printf '# no table\n' >"$T/plain.md"
	err=$("$TOP/tests/tools/columns-doc.sh" "$IOSTRAT" "$T/plain.md" 2>&1) || rc=$?
	[ "$rc" -eq 1 ] || die "exit $rc, want 1"
	[[ $err == "columns-doc.sh: $T/plain.md: no column markers"* ]] || die "message: $err"
	[ "$(cat "$T/plain.md")" = "# no table" ] || die "the file was changed"
	! compgen -G "$T/plain.md.*" >/dev/null || die "a temporary file was left"
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
t docs_columns_remakes_the_table
t docs_columns_without_markers_refused
