#!/usr/bin/env bash
# The report's headers read the column tables: every header a report table
# names is declared once (a row column, or the report's own figure in
# src/report/report_columns.c), and text and markdown headers show the
# declared unit while CSV keeps the bare name.
. "$(dirname "$0")/lib.sh"

FIX=$TOP/tests/fixtures/limits

# the quoted names of every `cols[] = { ... }` header list of src/report
literal_headers() {
	python3 - "$TOP/src/report" <<'PY'
import glob, re, sys
names = set()
for f in glob.glob(sys.argv[1] + '/*.c'):
    s = open(f).read()
    for m in re.finditer(r'\bcols\[\]\s*=\s*\{(.*?)\}', s, re.S):
        names.update(re.findall(r'"([^"]*)"', m.group(1)))
print('\n'.join(sorted(names)))
PY
}

report_headers_are_declared() {
	local declared missing
	declared=$({ "$IOSTRAT" __columns; "$IOSTRAT" __columns --report; } | cut -f1) ||
		die "__columns failed"
	[ "$(literal_headers | wc -l)" -gt 40 ] || die "found too few header lists in src/report"
	missing=$(literal_headers | grep -vxF -f <(printf '%s\n' "$declared") || true)
	[ -z "$missing" ] || die "report headers declared by no column table: $missing"
}
t report_headers_are_declared

report_columns_are_not_row_columns() {
	local twice
	twice=$(comm -12 <("$IOSTRAT" __columns | cut -f1 | sort) \
		<("$IOSTRAT" __columns --report | cut -f1 | sort))
	[ -z "$twice" ] || die "declared as a row column and a report column: $twice"
	"$IOSTRAT" __columns --report | awk -F'\t' 'NF != 7 || $5 != "report" { exit 1 }' ||
		die "a report column line is not 7 fields of room report"
}
t report_columns_are_not_row_columns

text_and_markdown_headers_show_the_unit() {
	"$IOSTRAT" report "$FIX" >"$T/rep.txt" 2>"$T/err" || die "report failed: $(cat "$T/err")"
	grep -Eq '^  config_id +n +median_s \[s\] +min_s \[s\] .* mb_s \[MB/s\] +cpu_s \[s\] +rss_mib \[MiB\] +flags$' "$T/rep.txt" ||
		die "configurations header: $(grep -m1 '^  config_id  *n ' "$T/rep.txt")"
	grep -Eq '^  limit +dataset +fsync +work +mb_s \[MB/s\] +interval \[MB/s\] +n +cpu_s_gb \[s/GB\]' "$T/rep.txt" ||
		die "limits header: $(grep -m1 '^  limit ' "$T/rep.txt")"
	"$IOSTRAT" report "$FIX" --format markdown >"$T/rep.md" 2>/dev/null || die "markdown failed"
	grep -q '^| config_id .*| median_s \[s\] *| min_s \[s\] ' "$T/rep.md" || die "markdown header has no unit"
}
t text_and_markdown_headers_show_the_unit

csv_headers_are_bare_names() {
	"$IOSTRAT" report "$FIX" --format csv >"$T/rep.csv" 2>/dev/null || die "csv failed"
	grep -q '^config_id,n,median_s,min_s,max_s,rsd_pct,mb_s,cpu_s,rss_mib,flags$' "$T/rep.csv" ||
		die "csv header: $(grep -m1 '^config_id,n,' "$T/rep.csv")"
	! grep -v '^#' "$T/rep.csv" | grep -q '\[s\]' || die "a unit in a CSV header"
}
t csv_headers_are_bare_names
